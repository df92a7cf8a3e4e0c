import { describe, expect, it } from 'vitest';
import {
  assertCapability,
  CapabilityError,
  type CapabilityRequirement,
  capabilitiesFromPaths,
  formatCapabilityPath,
  hasCapability,
  honouredSubscriptionFilter,
  isRequestMethod,
  methodAvailability,
  methodExists,
  missingCapabilities,
  requiredCapability,
  requiredServerCapability,
  TASKS_EXTENSION_ID,
} from './capabilities.js';
import { NotificationMethods, RequestMethods } from './methods.js';
import { PROTOCOL_VERSIONS } from './versions.js';

const server = (...path: string[]): CapabilityRequirement => ({ side: 'server', path });
const client = (...path: string[]): CapabilityRequirement => ({ side: 'client', path });

// Existence per revision, transcribed from the REVISIONS.md tables: [2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25,
// 2026-07-28]. 'in' = only as an input request (MRTR) in 2026-07-28; 'ext' = defined by the tasks extension.
const EXISTENCE: Record<string, readonly (boolean | 'in' | 'ext')[]> = {
  initialize: [true, true, true, true, false],
  ping: [true, true, true, true, false],
  'server/discover': [false, false, false, false, true],
  'resources/list': [true, true, true, true, true],
  'resources/templates/list': [true, true, true, true, true],
  'resources/read': [true, true, true, true, true],
  'resources/subscribe': [true, true, true, true, false],
  'resources/unsubscribe': [true, true, true, true, false],
  'subscriptions/listen': [false, false, false, false, true],
  'prompts/list': [true, true, true, true, true],
  'prompts/get': [true, true, true, true, true],
  'tools/list': [true, true, true, true, true],
  'tools/call': [true, true, true, true, true],
  'logging/setLevel': [true, true, true, true, false],
  'completion/complete': [true, true, true, true, true],
  'sampling/createMessage': [true, true, true, true, 'in'],
  'roots/list': [true, true, true, true, 'in'],
  'elicitation/create': [false, false, true, true, 'in'],
  'tasks/get': [false, false, false, true, 'ext'],
  'tasks/result': [false, false, false, true, false],
  'tasks/list': [false, false, false, true, false],
  'tasks/cancel': [false, false, false, true, 'ext'],
  'tasks/update': [false, false, false, false, 'ext'],
  'notifications/initialized': [true, true, true, true, false],
  'notifications/cancelled': [true, true, true, true, true],
  'notifications/progress': [true, true, true, true, true],
  'notifications/message': [true, true, true, true, true],
  'notifications/resources/list_changed': [true, true, true, true, true],
  'notifications/resources/updated': [true, true, true, true, true],
  'notifications/prompts/list_changed': [true, true, true, true, true],
  'notifications/tools/list_changed': [true, true, true, true, true],
  'notifications/roots/list_changed': [true, true, true, true, false],
  'notifications/tasks/status': [false, false, false, true, false],
  'notifications/elicitation/complete': [false, false, false, true, false],
  'notifications/subscriptions/acknowledged': [false, false, false, false, true],
  'notifications/tasks': [false, false, false, false, 'ext'],
};

describe('methodAvailability / methodExists', () => {
  it('covers every method of the method maps', () => {
    const mapped = new Set<string>([...Object.values(RequestMethods), ...Object.values(NotificationMethods)]);
    expect(new Set(Object.keys(EXISTENCE))).toEqual(mapped);
  });

  it('isRequestMethod is true exactly for the request methods of the method map', () => {
    for (const method of Object.values(RequestMethods)) expect(isRequestMethod(method), method).toBe(true);
    for (const method of Object.values(NotificationMethods)) expect(isRequestMethod(method), method).toBe(false);
    expect(isRequestMethod('com.example/alerts/list')).toBe(false);
    expect(isRequestMethod('constructor')).toBe(false);
  });

  for (const [method, row] of Object.entries(EXISTENCE)) {
    it(`follows the REVISIONS.md table for ${method}`, () => {
      PROTOCOL_VERSIONS.forEach((version, index) => {
        const expected = row[index];
        const availability = methodAvailability(method, version);
        expect(availability.available, `${method} in ${version}`).toBe(expected !== false);
        expect(methodExists(method, version), `${method} on the wire in ${version}`).toBe(
          expected === true || expected === 'ext',
        );
        if (availability.available) {
          expect(availability.kind === 'inputRequest').toBe(expected === 'in');
          expect(availability.extension).toBe(expected === 'ext' ? TASKS_EXTENSION_ID : undefined);
        } else {
          expect(availability.reason).toContain(method);
        }
      });
    });
  }

  it('explains why a method is unavailable', () => {
    expect(methodAvailability('ping', '2026-07-28')).toEqual({
      available: false,
      reason: "'ping' was removed in 2026-07-28",
    });
    expect(methodAvailability('elicitation/create', '2025-03-26')).toEqual({
      available: false,
      reason: "'elicitation/create' does not exist in 2025-03-26; it was added in 2025-06-18",
    });
    expect(methodAvailability('tools/frobnicate', '2025-06-18')).toMatchObject({ available: false });
    expect(methodAvailability('tools/list', '1999-01-01')).toMatchObject({
      available: false,
      reason: expect.stringContaining('Unknown protocol version'),
    });
    expect(methodAvailability('toString', '2025-06-18')).toMatchObject({ available: false });
  });

  it('reports directions', () => {
    expect(methodAvailability('notifications/progress', '2025-11-25')).toMatchObject({ direction: 'both' });
    expect(methodAvailability('notifications/progress', '2026-07-28')).toMatchObject({ direction: 'serverToClient' });
    expect(methodAvailability('tasks/get', '2025-11-25')).toMatchObject({ direction: 'both' });
    expect(methodAvailability('tasks/get', '2026-07-28')).toMatchObject({ direction: 'clientToServer' });
    expect(methodAvailability('roots/list', '2025-06-18')).toMatchObject({ direction: 'serverToClient' });
  });
});

describe('requiredCapability', () => {
  it.each([
    // 2024-11-05
    ['2024-11-05', 'tools/call', undefined, [server('tools')]],
    ['2024-11-05', 'completion/complete', undefined, []],
    ['2024-11-05', 'resources/subscribe', undefined, [server('resources', 'subscribe')]],
    ['2024-11-05', 'logging/setLevel', undefined, [server('logging')]],
    ['2024-11-05', 'sampling/createMessage', { tools: [] }, [client('sampling')]],
    ['2024-11-05', 'roots/list', undefined, [client('roots')]],
    ['2024-11-05', 'initialize', undefined, []],
    ['2024-11-05', 'notifications/roots/list_changed', undefined, [client('roots', 'listChanged')]],
    ['2024-11-05', 'elicitation/create', undefined, undefined],
    // 2025-03-26
    ['2025-03-26', 'completion/complete', undefined, [server('completions')]],
    ['2025-03-26', 'prompts/get', undefined, [server('prompts')]],
    ['2025-03-26', 'notifications/tools/list_changed', undefined, [server('tools', 'listChanged')]],
    ['2025-03-26', 'tasks/get', undefined, undefined],
    // 2025-06-18
    ['2025-06-18', 'elicitation/create', { message: 'm', requestedSchema: {} }, [client('elicitation')]],
    ['2025-06-18', 'elicitation/create', { mode: 'url' }, [client('elicitation')]],
    ['2025-06-18', 'resources/read', undefined, [server('resources')]],
    ['2025-06-18', 'notifications/message', undefined, [server('logging')]],
    ['2025-06-18', 'sampling/createMessage', { includeContext: 'allServers' }, [client('sampling')]],
    // 2025-11-25
    ['2025-11-25', 'elicitation/create', { message: 'm' }, [client('elicitation', 'form')]],
    ['2025-11-25', 'elicitation/create', { mode: 'form', message: 'm' }, [client('elicitation', 'form')]],
    ['2025-11-25', 'elicitation/create', { mode: 'url', url: 'https://x' }, [client('elicitation', 'url')]],
    [
      '2025-11-25',
      'elicitation/create',
      { mode: 'url', task: { ttl: 1000 } },
      [client('elicitation', 'url'), client('tasks', 'requests', 'elicitation', 'create')],
    ],
    ['2025-11-25', 'sampling/createMessage', { maxTokens: 1 }, [client('sampling')]],
    ['2025-11-25', 'sampling/createMessage', { tools: [] }, [client('sampling'), client('sampling', 'tools')]],
    ['2025-11-25', 'sampling/createMessage', { toolChoice: {} }, [client('sampling'), client('sampling', 'tools')]],
    [
      '2025-11-25',
      'sampling/createMessage',
      { includeContext: 'thisServer' },
      [client('sampling'), client('sampling', 'context')],
    ],
    ['2025-11-25', 'sampling/createMessage', { includeContext: 'none' }, [client('sampling')]],
    [
      '2025-11-25',
      'sampling/createMessage',
      { task: {} },
      [client('sampling'), client('tasks', 'requests', 'sampling', 'createMessage')],
    ],
    ['2025-11-25', 'tools/call', { name: 't' }, [server('tools')]],
    [
      '2025-11-25',
      'tools/call',
      { name: 't', task: {} },
      [server('tools'), server('tasks', 'requests', 'tools', 'call')],
    ],
    ['2025-11-25', 'tasks/get', undefined, [server('tasks')]],
    ['2025-11-25', 'tasks/list', undefined, [server('tasks', 'list')]],
    ['2025-11-25', 'tasks/cancel', undefined, [server('tasks', 'cancel')]],
    ['2025-11-25', 'notifications/elicitation/complete', undefined, [client('elicitation', 'url')]],
    ['2025-11-25', 'notifications/resources/updated', undefined, [server('resources', 'subscribe')]],
    // 2026-07-28
    ['2026-07-28', 'server/discover', undefined, []],
    ['2026-07-28', 'subscriptions/listen', { notifications: { toolsListChanged: true } }, []],
    ['2026-07-28', 'tools/call', { name: 't', task: {} }, [server('tools')]],
    ['2026-07-28', 'completion/complete', undefined, [server('completions')]],
    ['2026-07-28', 'elicitation/create', {}, [client('elicitation', 'form')]],
    ['2026-07-28', 'elicitation/create', { mode: 'url' }, [client('elicitation', 'url')]],
    ['2026-07-28', 'sampling/createMessage', { tools: [] }, [client('sampling'), client('sampling', 'tools')]],
    ['2026-07-28', 'roots/list', undefined, [client('roots')]],
    ['2026-07-28', 'tasks/get', undefined, [server('extensions', TASKS_EXTENSION_ID)]],
    ['2026-07-28', 'tasks/update', undefined, [server('extensions', TASKS_EXTENSION_ID)]],
    ['2026-07-28', 'notifications/tasks', undefined, [server('extensions', TASKS_EXTENSION_ID)]],
    ['2026-07-28', 'notifications/subscriptions/acknowledged', undefined, []],
    ['2026-07-28', 'logging/setLevel', undefined, undefined],
    ['2026-07-28', 'resources/subscribe', undefined, undefined],
    ['2026-07-28', 'tasks/list', undefined, undefined],
  ] as const)('%s %s %j → %j', (version, method, params, expected) => {
    expect(requiredCapability(method, version, params)).toEqual(expected);
  });

  it('uses the receiver for methods that travel both ways', () => {
    expect(requiredCapability('tasks/get', '2025-11-25', undefined, { receiver: 'client' })).toEqual([client('tasks')]);
    expect(requiredCapability('notifications/tasks/status', '2025-11-25', undefined, { receiver: 'client' })).toEqual([
      server('tasks'),
    ]);
    expect(requiredCapability('ping', '2025-11-25', undefined, { receiver: 'client' })).toEqual([]);
  });
});

describe('requiredServerCapability', () => {
  const variants = [undefined, { task: { ttl: 1 } }, { tools: [], includeContext: 'allServers', mode: 'url' }];

  it('answers as requiredCapability for every request a server receives, and undefined for everything else', () => {
    let received = 0;
    for (const version of PROTOCOL_VERSIONS) {
      for (const method of [...Object.keys(EXISTENCE), 'com.example/own']) {
        const availability = methodAvailability(method, version);
        const serverReceives =
          availability.available && availability.kind === 'request' && availability.direction !== 'serverToClient';
        for (const params of variants) {
          const expected = serverReceives ? requiredCapability(method, version, params) : undefined;
          expect(requiredServerCapability(method, version, params), `${version} ${method}`).toEqual(expected);
        }
        if (serverReceives) received++;
      }
    }
    expect(received).toBeGreaterThan(40);
  });

  it('gives only server capabilities, refined by params', () => {
    expect(requiredServerCapability('tools/call', '2025-11-25', { name: 'x', task: {} })).toEqual([
      server('tools'),
      server('tasks', 'requests', 'tools', 'call'),
    ]);
    expect(requiredServerCapability('tasks/get', '2025-11-25')).toEqual([server('tasks')]);
    expect(requiredServerCapability('sampling/createMessage', '2025-11-25')).toBeUndefined();
    expect(requiredServerCapability('notifications/initialized', '2025-11-25')).toBeUndefined();
  });
});

describe('hasCapability', () => {
  it('walks paths and treats undefined, null and false as absent', () => {
    const caps = { resources: { subscribe: true, listChanged: false }, tools: {}, logging: null } as never;
    expect(hasCapability(caps, ['resources'])).toBe(true);
    expect(hasCapability(caps, ['resources', 'subscribe'])).toBe(true);
    expect(hasCapability(caps, ['resources', 'listChanged'])).toBe(false);
    expect(hasCapability(caps, ['tools'])).toBe(true);
    expect(hasCapability(caps, ['tools', 'listChanged'])).toBe(false);
    expect(hasCapability(caps, ['logging'])).toBe(false);
    expect(hasCapability(caps, ['prompts'])).toBe(false);
    expect(hasCapability(undefined, ['tools'])).toBe(false);
    expect(hasCapability({}, [])).toBe(true);
    expect(hasCapability({ tools: {} }, ['tools', 'toString'])).toBe(false);
  });

  it('reads an empty elicitation object as form only', () => {
    expect(hasCapability({ elicitation: {} }, ['elicitation', 'form'])).toBe(true);
    expect(hasCapability({ elicitation: {} }, ['elicitation', 'url'])).toBe(false);
    expect(hasCapability({ elicitation: { url: {} } }, ['elicitation', 'form'])).toBe(false);
    expect(hasCapability({ elicitation: { url: {} } }, ['elicitation', 'url'])).toBe(true);
    expect(hasCapability({ elicitation: { form: {}, url: {} } }, ['elicitation', 'form'])).toBe(true);
    expect(hasCapability({}, ['elicitation', 'form'])).toBe(false);
  });

  it('reads extension keys that contain dots and slashes', () => {
    const caps = { extensions: { [TASKS_EXTENSION_ID]: {} } };
    expect(hasCapability(caps, ['extensions', TASKS_EXTENSION_ID])).toBe(true);
    expect(hasCapability(caps, ['extensions', 'io.modelcontextprotocol/ui'])).toBe(false);
  });
});

describe('assertCapability / missingCapabilities', () => {
  it('passes when the capabilities are present', () => {
    expect(() => assertCapability('tools/call', '2025-06-18', { server: { tools: {} } })).not.toThrow();
    expect(() =>
      assertCapability('elicitation/create', '2026-07-28', { client: { elicitation: {} } }, { message: 'm' }),
    ).not.toThrow();
  });

  it('throws a clear error naming the missing capability', () => {
    let caught: unknown;
    try {
      assertCapability('resources/subscribe', '2025-06-18', { server: { resources: {} } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CapabilityError);
    const error = caught as CapabilityError;
    expect(error.code).toBe('ERR_MISSING_CAPABILITY');
    expect(error.message).toBe(
      'resources/subscribe needs the server capability resources.subscribe, which the server did not declare (protocol version 2025-06-18).',
    );
    expect(error.data).toEqual({
      method: 'resources/subscribe',
      version: '2025-06-18',
      missing: [server('resources', 'subscribe')],
    });
  });

  it('throws for a method that does not exist in the revision', () => {
    expect(() => assertCapability('ping', '2026-07-28', {})).toThrow(
      expect.objectContaining({ code: 'ERR_METHOD_NOT_AVAILABLE', message: "'ping' was removed in 2026-07-28." }),
    );
  });

  it('lists only what is missing', () => {
    expect(
      missingCapabilities(
        'sampling/createMessage',
        '2025-11-25',
        { client: { sampling: {} } },
        { tools: [], includeContext: 'allServers' },
      ),
    ).toEqual([client('sampling', 'tools'), client('sampling', 'context')]);
    expect(
      missingCapabilities('elicitation/create', '2025-11-25', { client: { elicitation: {} } }, { mode: 'url' }),
    ).toEqual([client('elicitation', 'url')]);
  });
});

describe('capability helpers', () => {
  it('formats paths for people', () => {
    expect(formatCapabilityPath(['resources', 'subscribe'])).toBe('resources.subscribe');
    expect(formatCapabilityPath(['extensions', TASKS_EXTENSION_ID])).toBe(
      'extensions["io.modelcontextprotocol/tasks"]',
    );
  });

  it('builds a capabilities object from paths', () => {
    expect(capabilitiesFromPaths([['elicitation', 'url'], ['sampling'], ['elicitation', 'form']])).toEqual({
      elicitation: { url: {}, form: {} },
      sampling: {},
    });
  });
});

describe('honouredSubscriptionFilter', () => {
  const everything = {
    toolsListChanged: true,
    promptsListChanged: true,
    resourcesListChanged: true,
    resourceSubscriptions: ['file:///a'],
    taskIds: ['t1'],
  };

  it('honours each key only with the matching server capability', () => {
    expect(honouredSubscriptionFilter(everything, {})).toEqual({});
    expect(honouredSubscriptionFilter(everything, { tools: { listChanged: true } })).toEqual({
      toolsListChanged: true,
    });
    expect(honouredSubscriptionFilter(everything, { prompts: { listChanged: true } })).toEqual({
      promptsListChanged: true,
    });
    expect(honouredSubscriptionFilter(everything, { resources: { listChanged: true } })).toEqual({
      resourcesListChanged: true,
    });
    expect(honouredSubscriptionFilter(everything, { resources: { subscribe: true } })).toEqual({
      resourceSubscriptions: ['file:///a'],
    });
    expect(honouredSubscriptionFilter(everything, { extensions: { [TASKS_EXTENSION_ID]: {} } })).toEqual({
      taskIds: ['t1'],
    });
    expect(honouredSubscriptionFilter(everything, { tools: {}, prompts: { listChanged: false } })).toEqual({});
  });

  it('drops false and empty entries', () => {
    const caps = { tools: { listChanged: true }, resources: { subscribe: true } };
    expect(honouredSubscriptionFilter({ toolsListChanged: false, resourceSubscriptions: [] }, caps)).toEqual({});
  });

  it('drops entries of the wrong type (a list where true is expected, and the reverse)', () => {
    const caps = { tools: { listChanged: true }, resources: { subscribe: true } };
    const mistyped = { toolsListChanged: ['x'], resourceSubscriptions: true } as never;
    expect(honouredSubscriptionFilter(mistyped, caps)).toEqual({});
  });
});

import { PROTOCOL_VERSIONS, type ProtocolVersion } from './versions.js';

/** Which peer a capability belongs to. */
export type CapabilitySide = 'client' | 'server';

/** Which way a message travels. */
export type MessageDirection = 'clientToServer' | 'serverToClient' | 'both';

/** A path into a capabilities object, e.g. `['resources', 'subscribe']` or `['extensions', TASKS_EXTENSION_ID]`. */
export type CapabilityPath = readonly string[];

/** One capability a message needs: whose, and where in their capabilities object. */
export interface CapabilityRequirement {
  readonly side: CapabilitySide;
  readonly path: CapabilityPath;
}

/** The id of the 2026-07-28 tasks extension (SEP-2663), a key of `capabilities.extensions`. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** One stretch of revisions in which a method exists the same way. */
export interface Span {
  since: ProtocolVersion;
  removedIn?: ProtocolVersion;
  kind: 'request' | 'notification' | 'inputRequest';
  direction: MessageDirection;
  extension?: string;
}

/** The capabilities a method needs in one revision, refined by its params and (for two-way methods) the receiver. */
export type Gate = (
  version: ProtocolVersion,
  params: Record<string, unknown>,
  receiver: CapabilitySide,
) => CapabilityRequirement[];

/** Where a method exists, and what gates it. */
export interface MethodRule {
  spans: readonly Span[];
  gate?: Gate;
}

const MODERN = '2026-07-28';
const CORE_TASKS = '2025-11-25';

const server = (...path: string[]): CapabilityRequirement => ({ side: 'server', path });
const client = (...path: string[]): CapabilityRequirement => ({ side: 'client', path });
const other = (side: CapabilitySide): CapabilitySide => (side === 'client' ? 'server' : 'client');
const tasksGate =
  (...corePath: string[]): Gate =>
  (version, _params, receiver) =>
    version >= MODERN ? [server('extensions', TASKS_EXTENSION_ID)] : [{ side: receiver, path: ['tasks', ...corePath] }];
const taskAugmented = (version: ProtocolVersion, params: Record<string, unknown>): boolean =>
  version === CORE_TASKS && params.task !== undefined && params.task !== null;
// The answers of the gates every call asks (tools/call, completion/complete), made once: a requirement list is read,
// never written, as the fixed gates' lists (`decodeGate`) already are.
const NEEDS_TOOLS: CapabilityRequirement[] = [server('tools')];
const NEEDS_COMPLETIONS: CapabilityRequirement[] = [server('completions')];
const NEEDS_NOTHING: CapabilityRequirement[] = [];

// The table of REVISIONS.md: every request and notification, the revisions it exists in, and the capability that
// gates it. For requests the gate is the receiver's capability; for notifications it is the one the table names
// (mostly the sender's, e.g. `tools.listChanged`; the client's `elicitation.url` for elicitation/complete). Here are
// the gates of the requests a server receives; those of the requests a server sends and of notifications are in
// `OTHER_GATES` below.
//
// Written compactly, because every client and server bundle carries it (issue 14: the minimal bundles), and read once
// per method on first use. An entry is `spans` or `[spans, gate]`:
// - `spans`: one or more space-separated spans of four or five characters: the index in PROTOCOL_VERSIONS of the
//   revision it starts in; of the one it was removed in, or `-`; the kind (`r` request, `n` notification, `i` input
//   request); the direction (`c` client→server, `s` server→client, `b` both); `t` when the tasks extension defines it.
//   `04rc`: a client→server request from 2024-11-05, removed in 2026-07-28.
// - `gate`: `side:path.to.capability` (`s` server, `c` client; `x` is `extensions.<tasks id>` of the server) for a
//   fixed requirement, or a function of version, params and receiver.
const RULES: Readonly<Record<string, string | readonly [string, string | Gate]>> = {
  initialize: '04rc',
  ping: '04rb',
  'server/discover': '4-rc',
  'resources/list': ['0-rc', 's:resources'],
  'resources/templates/list': ['0-rc', 's:resources'],
  'resources/read': ['0-rc', 's:resources'],
  'resources/subscribe': ['04rc', 's:resources.subscribe'],
  'resources/unsubscribe': ['04rc', 's:resources.subscribe'],
  'subscriptions/listen': '4-rc',
  'prompts/list': ['0-rc', 's:prompts'],
  'prompts/get': ['0-rc', 's:prompts'],
  'tools/list': ['0-rc', 's:tools'],
  'tools/call': [
    '0-rc',
    (version, params) =>
      taskAugmented(version, params) ? [server('tools'), server('tasks', 'requests', 'tools', 'call')] : NEEDS_TOOLS,
  ],
  'logging/setLevel': ['04rc', 's:logging'],
  // 2024-11-05 has no dedicated capability: completion is implied by prompts or resources.
  'completion/complete': ['0-rc', (version) => (version >= '2025-03-26' ? NEEDS_COMPLETIONS : NEEDS_NOTHING)],
  'sampling/createMessage': '04rs 4-is',
  'roots/list': '04rs 4-is',
  'elicitation/create': '24rs 4-is',
  'tasks/get': ['34rb 4-rct', tasksGate()],
  'tasks/result': ['34rb', tasksGate()],
  'tasks/list': ['34rb', tasksGate('list')],
  'tasks/cancel': ['34rb 4-rct', tasksGate('cancel')],
  'tasks/update': ['4-rct', 'x'],

  'notifications/initialized': '04nc',
  'notifications/cancelled': '0-nb',
  'notifications/progress': '04nb 4-ns',
  'notifications/message': '0-ns',
  'notifications/resources/list_changed': '0-ns',
  'notifications/resources/updated': '0-ns',
  'notifications/prompts/list_changed': '0-ns',
  'notifications/tools/list_changed': '0-ns',
  'notifications/roots/list_changed': '04nc',
  'notifications/tasks/status': '34nb',
  'notifications/elicitation/complete': '34ns',
  'notifications/subscriptions/acknowledged': '4-ns',
  'notifications/tasks': '4-nst',
};

// The gates of the requests a server sends (sampling, roots, elicitation) and of notifications. Apart from `RULES` so
// that the check a server makes of each request it receives (`requiredServerCapability`) does not carry them (issue
// 14: a tools-only server never asks the client); `requiredCapability` reads both tables. Written as in `RULES`.
const OTHER_GATES: Readonly<Record<string, string | Gate>> = {
  'sampling/createMessage': (version, params) => {
    const required = [client('sampling')];
    if (version >= '2025-11-25') {
      if (params.tools !== undefined || params.toolChoice !== undefined) required.push(client('sampling', 'tools'));
      if (params.includeContext === 'thisServer' || params.includeContext === 'allServers') {
        required.push(client('sampling', 'context'));
      }
    }
    if (taskAugmented(version, params)) required.push(client('tasks', 'requests', 'sampling', 'createMessage'));
    return required;
  },
  'roots/list': 'c:roots',
  'elicitation/create': (version, params) => {
    if (version < '2025-11-25') return [client('elicitation')];
    const required = [client('elicitation', params.mode === 'url' ? 'url' : 'form')];
    if (taskAugmented(version, params)) required.push(client('tasks', 'requests', 'elicitation', 'create'));
    return required;
  },
  'notifications/roots/list_changed': 'c:roots.listChanged',
  'notifications/elicitation/complete': 'c:elicitation.url',
  'notifications/message': 's:logging',
  'notifications/resources/list_changed': 's:resources.listChanged',
  'notifications/resources/updated': 's:resources.subscribe',
  'notifications/prompts/list_changed': 's:prompts.listChanged',
  'notifications/tools/list_changed': 's:tools.listChanged',
  // Sent by whichever side runs the task, so the gate is the sender's (the receiver's peer's) `tasks`.
  'notifications/tasks/status': (_version, _params, receiver) => [{ side: other(receiver), path: ['tasks'] }],
  'notifications/tasks': 'x',
};

const KINDS = { r: 'request', n: 'notification', i: 'inputRequest' } as const;
const DIRECTIONS = { c: 'clientToServer', s: 'serverToClient', b: 'both' } as const;

function decodeSpan(code: string): Span {
  const span: Span = {
    since: PROTOCOL_VERSIONS[Number(code[0])]!,
    kind: KINDS[code[2] as keyof typeof KINDS],
    direction: DIRECTIONS[code[3] as keyof typeof DIRECTIONS],
  };
  if (code[1] !== '-') span.removedIn = PROTOCOL_VERSIONS[Number(code[1])]!;
  if (code[4] === 't') span.extension = TASKS_EXTENSION_ID;
  return span;
}

function decodeGate(gate: string | Gate): Gate {
  if (typeof gate === 'function') return gate;
  // One requirement, the same array every time (as a fixed gate always answered).
  const requirements =
    gate === 'x'
      ? [server('extensions', TASKS_EXTENSION_ID)]
      : [{ side: gate[0] === 's' ? 'server' : 'client', path: gate.slice(2).split('.') } as CapabilityRequirement];
  return () => requirements;
}

const decodedOtherGates = new Map<string, Gate>();

/** The gate of `method` in `OTHER_GATES` (a request a server sends, or a notification), decoded on first use. */
export function otherGateFor(method: string): Gate | undefined {
  let gate = decodedOtherGates.get(method);
  if (gate === undefined && Object.hasOwn(OTHER_GATES, method)) {
    gate = decodeGate(OTHER_GATES[method]!);
    decodedOtherGates.set(method, gate);
  }
  return gate;
}

const decoded = new Map<string, MethodRule>();

/** The rule of an MCP method (decoded on first use), or `undefined` for a method MCP does not define. */
export function ruleFor(method: string): MethodRule | undefined {
  let rule = decoded.get(method);
  if (rule !== undefined) return rule;
  const entry = Object.hasOwn(RULES, method) ? RULES[method] : undefined;
  if (entry === undefined) return undefined;
  const [spans, gate] = typeof entry === 'string' ? [entry] : entry;
  rule = { spans: spans.split(' ').map(decodeSpan) };
  if (gate !== undefined) rule.gate = decodeGate(gate);
  decoded.set(method, rule);
  return rule;
}

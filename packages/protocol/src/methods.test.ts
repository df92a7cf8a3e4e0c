import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  ClientNotification,
  ClientRequest,
  ClientRequests,
  InterimResultOf,
  McpRequest,
  NotificationMethod,
  NotificationParamsOf,
  RequestMethod,
  RequestParamsOf,
  ResultOf,
  ServerRequest,
  WireResultOf,
} from './methods.js';
import { INPUT_REQUIRED_METHODS, NotificationMethods, RequestMethods } from './methods.js';
import type { ModernRequestParams, ModernResult } from './types/common.js';
import type { InputRequiredResult } from './types/input-requests.js';
import type { CreateMessageRequestParams, CreateMessageResult } from './types/sampling.js';
import type { CreateTaskResult, ModernCreateTaskResult } from './types/tasks.js';
import type { CallToolRequestParams, CallToolResult, ListToolsResult } from './types/tools.js';

// These tests are checked by `tsc -p packages/protocol/tsconfig.json`; at run time expectTypeOf is a no-op.

describe('method maps (type level)', () => {
  it('types tools/call params and result', () => {
    expectTypeOf<RequestParamsOf<'tools/call'>>().toEqualTypeOf<CallToolRequestParams>();
    expectTypeOf<ResultOf<'tools/call'>>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<ClientRequests['tools/call']['params']>().toEqualTypeOf<CallToolRequestParams>();
    expectTypeOf<InterimResultOf<'tools/call'>>().toEqualTypeOf<
      InputRequiredResult | CreateTaskResult | ModernCreateTaskResult
    >();
    expectTypeOf<WireResultOf<'tools/call'>>().toEqualTypeOf<
      CallToolResult | InputRequiredResult | CreateTaskResult | ModernCreateTaskResult
    >();
    expectTypeOf<RequestParamsOf<'tools/call'>['name']>().toEqualTypeOf<string>();
    expectTypeOf<RequestParamsOf<'tools/call'>['arguments']>().toEqualTypeOf<{ [key: string]: unknown } | undefined>();
    expectTypeOf<ResultOf<'tools/call'>['content'][number]['type']>().toEqualTypeOf<
      'text' | 'image' | 'audio' | 'resource_link' | 'resource'
    >();
  });

  it('rejects wrong tools/call params and results', () => {
    expectTypeOf<{ name: string }>().toExtend<RequestParamsOf<'tools/call'>>();
    expectTypeOf<{ arguments: {} }>().not.toExtend<RequestParamsOf<'tools/call'>>();
    expectTypeOf<{ name: 42 }>().not.toExtend<RequestParamsOf<'tools/call'>>();
    expectTypeOf<{ content: [{ type: 'text'; text: 'ok' }] }>().toExtend<ResultOf<'tools/call'>>();
    expectTypeOf<{ content: [{ type: 'txt'; text: 'ok' }] }>().not.toExtend<ResultOf<'tools/call'>>();
    expectTypeOf<{ isError: true }>().not.toExtend<ResultOf<'tools/call'>>();
  });

  it('discriminates a tools/call wire result on resultType', () => {
    const narrow = (result: WireResultOf<'tools/call'>) => {
      if (result.resultType === 'input_required') {
        expectTypeOf(result).toEqualTypeOf<InputRequiredResult>();
      } else if (result.resultType === 'task') {
        expectTypeOf(result).toEqualTypeOf<ModernCreateTaskResult>();
      }
    };
    expect(typeof narrow).toBe('function');
  });

  it('types server→client requests and other methods', () => {
    expectTypeOf<RequestParamsOf<'sampling/createMessage'>>().toEqualTypeOf<CreateMessageRequestParams>();
    expectTypeOf<ResultOf<'sampling/createMessage'>>().toEqualTypeOf<CreateMessageResult>();
    expectTypeOf<ResultOf<'tools/list'>>().toEqualTypeOf<ListToolsResult>();
    expectTypeOf<InterimResultOf<'tools/list'>>().toBeNever();
    expectTypeOf<NotificationParamsOf<'notifications/progress'>['progress']>().toEqualTypeOf<number>();
    expectTypeOf<McpRequest<'tools/call'>>().toEqualTypeOf<{ method: 'tools/call'; params: CallToolRequestParams }>();
  });

  it('makes discriminated unions of request and notification bodies', () => {
    const handle = (request: ClientRequest) => {
      if (request.method === 'tools/call') expectTypeOf(request.params).toEqualTypeOf<CallToolRequestParams>();
    };
    const handleServer = (request: ServerRequest) => {
      if (request.method === 'sampling/createMessage') {
        expectTypeOf(request.params).toEqualTypeOf<CreateMessageRequestParams>();
      }
    };
    const handleNotification = (notification: ClientNotification) => {
      if (notification.method === 'notifications/cancelled') {
        expectTypeOf(notification.params.requestId).toEqualTypeOf<string | number | undefined>();
      }
    };
    expect([handle, handleServer, handleNotification]).toHaveLength(3);
  });

  it('types the 2026-07-28 variants', () => {
    type Params = ModernRequestParams<CallToolRequestParams>;
    expectTypeOf<Params['_meta']['io.modelcontextprotocol/protocolVersion']>().toEqualTypeOf<string>();
    expectTypeOf<{ name: 'x' }>().not.toExtend<Params>();
    type Listed = ModernResult<ListToolsResult>;
    expectTypeOf<{ tools: [] }>().not.toExtend<Listed>();
    expectTypeOf<{ tools: []; resultType: 'complete'; ttlMs: 0; cacheScope: 'public' }>().toExtend<Listed>();
    expectTypeOf<ModernResult<CallToolResult>['resultType']>().toEqualTypeOf<'complete'>();
  });
});

describe('method-name constants', () => {
  it('list exactly the methods of the maps', () => {
    expectTypeOf<(typeof RequestMethods)[keyof typeof RequestMethods]>().toEqualTypeOf<RequestMethod>();
    expectTypeOf<(typeof NotificationMethods)[keyof typeof NotificationMethods]>().toEqualTypeOf<NotificationMethod>();
    expect(new Set(Object.values(RequestMethods)).size).toBe(Object.keys(RequestMethods).length);
    expect(new Set(Object.values(NotificationMethods)).size).toBe(Object.keys(NotificationMethods).length);
    expect(RequestMethods.ToolsCall).toBe('tools/call');
    expect(NotificationMethods.SubscriptionsAcknowledged).toBe('notifications/subscriptions/acknowledged');
  });
});

describe('INPUT_REQUIRED_METHODS', () => {
  it('holds exactly the requests whose interim result includes InputRequiredResult', () => {
    type MayRequireInput = {
      [M in RequestMethod]: InputRequiredResult extends InterimResultOf<M> ? M : never;
    }[RequestMethod];
    expectTypeOf<MayRequireInput>().toEqualTypeOf<'tools/call' | 'prompts/get' | 'resources/read'>();
    expect([...INPUT_REQUIRED_METHODS].sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
  });
});

import type { CancelledNotificationParams } from './types/cancellation.js';
import type { EmptyResult, NotificationParams } from './types/common.js';
import type { CompleteRequestParams, CompleteResult } from './types/completion.js';
import type { ElicitationCompleteNotificationParams, ElicitRequestParams, ElicitResult } from './types/elicitation.js';
import type { InputRequiredResult } from './types/input-requests.js';
import type {
  DiscoverRequestParams,
  DiscoverResult,
  InitializedNotificationParams,
  InitializeRequestParams,
  InitializeResult,
  PingRequestParams,
} from './types/lifecycle.js';
import type { LoggingMessageNotificationParams, SetLevelRequestParams } from './types/logging.js';
import type { ProgressNotificationParams } from './types/progress.js';
import type {
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsRequestParams,
  ListPromptsResult,
} from './types/prompts.js';
import type {
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  ResourceUpdatedNotificationParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from './types/resources.js';
import type { ListRootsRequestParams, ListRootsResult, RootsListChangedNotificationParams } from './types/roots.js';
import type { CreateMessageRequestParams, CreateMessageResult } from './types/sampling.js';
import type {
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
} from './types/subscriptions.js';
import type {
  CancelTaskRequestParams,
  CancelTaskResult,
  CreateTaskResult,
  GetTaskPayloadRequestParams,
  GetTaskPayloadResult,
  GetTaskRequestParams,
  GetTaskResult,
  ListTasksRequestParams,
  ListTasksResult,
  ModernCreateTaskResult,
  ModernGetTaskResult,
  ModernTaskNotificationParams,
  TaskStatusNotificationParams,
  UpdateTaskRequestParams,
} from './types/tasks.js';
import type { CallToolRequestParams, CallToolResult, ListToolsRequestParams, ListToolsResult } from './types/tools.js';

/** One request method's entry: its params, its final result, and what it may answer instead (`never` if nothing). */
export interface RequestSpec<Params, Result, Interim = never> {
  params: Params;
  result: Result;
  interim: Interim;
}

/**
 * Requests a client sends to a server, across every revision: method → `{params, result, interim}`.
 *
 * - `result` is the final result of the method.
 * - `interim` is what the server may answer instead of the final result: an `InputRequiredResult` (2026-07-28 MRTR),
 *   a `CreateTaskResult` (2025-11-25 task augmentation) or a `ModernCreateTaskResult` (2026 tasks extension);
 *   `never` when the method has none.
 *
 * Which methods exist in which revision, and which capability gates them, is answered at run time by
 * `methodAvailability` / `requiredCapabilities`.
 *
 * @example
 * ```ts
 * type Params = ClientRequests['tools/call']['params']; // CallToolRequestParams
 * type Final = ResultOf<'tools/call'>; // CallToolResult
 * ```
 */
export interface ClientRequests {
  /** 2024-11-05 … 2025-11-25. */
  initialize: RequestSpec<InitializeRequestParams, InitializeResult>;
  /** 2024-11-05 … 2025-11-25 (either direction). */
  ping: RequestSpec<PingRequestParams, EmptyResult>;
  /** 2026-07-28+. */
  'server/discover': RequestSpec<DiscoverRequestParams, DiscoverResult>;
  'resources/list': RequestSpec<ListResourcesRequestParams, ListResourcesResult>;
  'resources/templates/list': RequestSpec<ListResourceTemplatesRequestParams, ListResourceTemplatesResult>;
  'resources/read': RequestSpec<ReadResourceRequestParams, ReadResourceResult, InputRequiredResult>;
  /** 2024-11-05 … 2025-11-25. */
  'resources/subscribe': RequestSpec<SubscribeRequestParams, EmptyResult>;
  /** 2024-11-05 … 2025-11-25. */
  'resources/unsubscribe': RequestSpec<UnsubscribeRequestParams, EmptyResult>;
  /** 2026-07-28+: long-lived; the result arrives only when the server ends the subscription gracefully. */
  'subscriptions/listen': RequestSpec<SubscriptionsListenRequestParams, SubscriptionsListenResult>;
  'prompts/list': RequestSpec<ListPromptsRequestParams, ListPromptsResult>;
  'prompts/get': RequestSpec<GetPromptRequestParams, GetPromptResult, InputRequiredResult>;
  'tools/list': RequestSpec<ListToolsRequestParams, ListToolsResult>;
  'tools/call': RequestSpec<
    CallToolRequestParams,
    CallToolResult,
    InputRequiredResult | CreateTaskResult | ModernCreateTaskResult
  >;
  /** 2024-11-05 … 2025-11-25. */
  'logging/setLevel': RequestSpec<SetLevelRequestParams, EmptyResult>;
  'completion/complete': RequestSpec<CompleteRequestParams, CompleteResult>;
  /** 2025-11-25 core tasks, and the 2026 tasks extension. */
  'tasks/get': RequestSpec<GetTaskRequestParams, GetTaskResult | ModernGetTaskResult>;
  /** 2025-11-25 only. */
  'tasks/result': RequestSpec<GetTaskPayloadRequestParams, GetTaskPayloadResult>;
  /** 2025-11-25 only. */
  'tasks/list': RequestSpec<ListTasksRequestParams, ListTasksResult>;
  /** 2025-11-25 core tasks (result: the task), and the 2026 tasks extension (result: empty ack). */
  'tasks/cancel': RequestSpec<CancelTaskRequestParams, CancelTaskResult | EmptyResult>;
  /** 2026 tasks extension only. */
  'tasks/update': RequestSpec<UpdateTaskRequestParams, EmptyResult>;
}

/**
 * Requests a server sends to a client (2024-11-05 … 2025-11-25; 2026-07-28 has no server→client requests: sampling,
 * roots and elicitation travel as `InputRequests` inside an `InputRequiredResult`, with the same params and results).
 */
export interface ServerRequests {
  ping: RequestSpec<PingRequestParams, EmptyResult>;
  'sampling/createMessage': RequestSpec<CreateMessageRequestParams, CreateMessageResult, CreateTaskResult>;
  'roots/list': RequestSpec<ListRootsRequestParams, ListRootsResult>;
  /** 2025-06-18+. */
  'elicitation/create': RequestSpec<ElicitRequestParams, ElicitResult, CreateTaskResult>;
  /** 2025-11-25 only (client-side tasks for task-augmented sampling / elicitation). */
  'tasks/get': RequestSpec<GetTaskRequestParams, GetTaskResult>;
  /** 2025-11-25 only. */
  'tasks/result': RequestSpec<GetTaskPayloadRequestParams, GetTaskPayloadResult>;
  /** 2025-11-25 only. */
  'tasks/list': RequestSpec<ListTasksRequestParams, ListTasksResult>;
  /** 2025-11-25 only. */
  'tasks/cancel': RequestSpec<CancelTaskRequestParams, CancelTaskResult>;
}

/** Notifications a client sends to a server: method → `{params}`. */
export interface ClientNotifications {
  'notifications/cancelled': { params: CancelledNotificationParams };
  /** 2024-11-05 … 2025-11-25. */
  'notifications/initialized': { params: InitializedNotificationParams };
  /** Client→server only up to 2025-11-25. */
  'notifications/progress': { params: ProgressNotificationParams };
  /** 2024-11-05 … 2025-11-25. */
  'notifications/roots/list_changed': { params: RootsListChangedNotificationParams };
  /** 2025-11-25 only. */
  'notifications/tasks/status': { params: TaskStatusNotificationParams };
}

/** Notifications a server sends to a client: method → `{params}`. */
export interface ServerNotifications {
  /** 2026-07-28: only to end a `subscriptions/listen` stream on stdio. */
  'notifications/cancelled': { params: CancelledNotificationParams };
  'notifications/progress': { params: ProgressNotificationParams };
  'notifications/message': { params: LoggingMessageNotificationParams };
  'notifications/resources/list_changed': { params: NotificationParams };
  'notifications/resources/updated': { params: ResourceUpdatedNotificationParams };
  'notifications/prompts/list_changed': { params: NotificationParams };
  'notifications/tools/list_changed': { params: NotificationParams };
  /** 2025-11-25 only. */
  'notifications/tasks/status': { params: TaskStatusNotificationParams };
  /** 2025-11-25 only. */
  'notifications/elicitation/complete': { params: ElicitationCompleteNotificationParams };
  /** 2026-07-28+. */
  'notifications/subscriptions/acknowledged': { params: SubscriptionsAcknowledgedNotificationParams };
  /** 2026 tasks extension. */
  'notifications/tasks': { params: ModernTaskNotificationParams };
}

/** A method a client may send as a request. */
export type ClientRequestMethod = keyof ClientRequests;
/** A method a server may send as a request. */
export type ServerRequestMethod = keyof ServerRequests;
/** Any MCP request method. */
export type RequestMethod = ClientRequestMethod | ServerRequestMethod;
/** A method a client may send as a notification. */
export type ClientNotificationMethod = keyof ClientNotifications;
/** A method a server may send as a notification. */
export type ServerNotificationMethod = keyof ServerNotifications;
/** Any MCP notification method. */
export type NotificationMethod = ClientNotificationMethod | ServerNotificationMethod;

/**
 * The `{params, result, interim}` entry of a request method. Methods in both maps (`ping`, `tasks/*`) resolve to the
 * client→server entry.
 */
export type RequestSpecOf<M extends RequestMethod> = M extends ClientRequestMethod
  ? ClientRequests[M]
  : M extends ServerRequestMethod
    ? ServerRequests[M]
    : never;

/**
 * The params type of a request method.
 *
 * @example
 * ```ts
 * const params: RequestParamsOf<'tools/call'> = { name: 'get_weather', arguments: { city: 'Paris' } };
 * ```
 */
export type RequestParamsOf<M extends RequestMethod> = RequestSpecOf<M>['params'];

/**
 * The final result type of a request method.
 *
 * @example
 * ```ts
 * const result: ResultOf<'tools/call'> = { content: [{ type: 'text', text: '21 °C' }] };
 * ```
 */
export type ResultOf<M extends RequestMethod> = RequestSpecOf<M>['result'];

/** What a request method may answer instead of its final result (`never` if nothing). */
export type InterimResultOf<M extends RequestMethod> = RequestSpecOf<M>['interim'];

/** Everything a request method may answer on the wire: the final result or an interim one. */
export type WireResultOf<M extends RequestMethod> = ResultOf<M> | InterimResultOf<M>;

/** The params type of a notification method. */
export type NotificationParamsOf<M extends NotificationMethod> = M extends ClientNotificationMethod
  ? ClientNotifications[M]['params']
  : M extends ServerNotificationMethod
    ? ServerNotifications[M]['params']
    : never;

/** A request body (`{method, params}`) of one method. */
export interface McpRequest<M extends RequestMethod = RequestMethod> {
  method: M;
  params: RequestParamsOf<M>;
}

/** A notification body (`{method, params}`) of one method. */
export interface McpNotification<M extends NotificationMethod = NotificationMethod> {
  method: M;
  params: NotificationParamsOf<M>;
}

/** The `{method, params}` bodies of a method map, as one union discriminated on `method`. */
type BodyOf<Map extends { [M in keyof Map]: { params: unknown } }> = {
  [M in keyof Map & string]: { method: M; params: Map[M]['params'] };
}[keyof Map & string];

/** Any client→server request body, discriminated on `method` (`ClientRequest`). */
export type ClientRequest = BodyOf<ClientRequests>;

/** Any server→client request body, discriminated on `method` (`ServerRequest`). */
export type ServerRequest = BodyOf<ServerRequests>;

/** Any client→server notification body, discriminated on `method` (`ClientNotification`). */
export type ClientNotification = BodyOf<ClientNotifications>;

/** Any server→client notification body, discriminated on `method` (`ServerNotification`). */
export type ServerNotification = BodyOf<ServerNotifications>;

/**
 * Request method names as constants, so call sites do not repeat string literals.
 *
 * @example
 * ```ts
 * router.request(RequestMethods.ToolsCall, handler);
 * ```
 */
export const RequestMethods = {
  Initialize: 'initialize',
  Ping: 'ping',
  ServerDiscover: 'server/discover',
  ResourcesList: 'resources/list',
  ResourcesTemplatesList: 'resources/templates/list',
  ResourcesRead: 'resources/read',
  ResourcesSubscribe: 'resources/subscribe',
  ResourcesUnsubscribe: 'resources/unsubscribe',
  SubscriptionsListen: 'subscriptions/listen',
  PromptsList: 'prompts/list',
  PromptsGet: 'prompts/get',
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  LoggingSetLevel: 'logging/setLevel',
  CompletionComplete: 'completion/complete',
  SamplingCreateMessage: 'sampling/createMessage',
  RootsList: 'roots/list',
  ElicitationCreate: 'elicitation/create',
  TasksGet: 'tasks/get',
  TasksResult: 'tasks/result',
  TasksList: 'tasks/list',
  TasksCancel: 'tasks/cancel',
  TasksUpdate: 'tasks/update',
} as const satisfies Record<string, RequestMethod>;

/**
 * The requests that may answer `input_required` (2026-07-28, SEP-2322: no other method may): the methods whose
 * `interim` includes `InputRequiredResult`. A server runs their handlers in input rounds; a client answers their
 * input requests and retries.
 */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set<RequestMethod>([
  'tools/call',
  'prompts/get',
  'resources/read',
]);

/** Notification method names as constants. */
export const NotificationMethods = {
  Cancelled: 'notifications/cancelled',
  Initialized: 'notifications/initialized',
  Progress: 'notifications/progress',
  Message: 'notifications/message',
  ResourcesListChanged: 'notifications/resources/list_changed',
  ResourcesUpdated: 'notifications/resources/updated',
  PromptsListChanged: 'notifications/prompts/list_changed',
  ToolsListChanged: 'notifications/tools/list_changed',
  RootsListChanged: 'notifications/roots/list_changed',
  TasksStatus: 'notifications/tasks/status',
  ElicitationComplete: 'notifications/elicitation/complete',
  SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
  Tasks: 'notifications/tasks',
} as const satisfies Record<string, NotificationMethod>;

import type { JSONObject } from './json.js';

/**
 * What a client supports (`ClientCapabilities`). The wire allows unknown keys; non-standard capabilities belong in
 * `experimental` or `extensions`.
 *
 * - `roots`, `sampling`, `experimental`: all revisions (`roots.listChanged` up to 2025-11-25).
 * - `elicitation`: 2025-06-18+; `elicitation.form` / `elicitation.url` 2025-11-25+ (an empty `elicitation: {}` means
 *   form only).
 * - `sampling.context` / `sampling.tools`: 2025-11-25+.
 * - `tasks`: 2025-11-25 only. `extensions`: 2026-07-28+.
 * - 2026-07-28: sent per request in `_meta["io.modelcontextprotocol/clientCapabilities"]`; earlier, once in
 *   `initialize`.
 *
 * @example
 * ```ts
 * const caps: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: { tools: {} } };
 * ```
 */
export interface ClientCapabilities {
  /** Experimental, non-standard capabilities. */
  experimental?: { [name: string]: JSONObject };
  /** The client can answer `roots/list`. */
  roots?: {
    /** Up to 2025-11-25: the client sends `notifications/roots/list_changed`. */
    listChanged?: boolean;
  };
  /** The client can answer `sampling/createMessage`. */
  sampling?: {
    /** 2025-11-25+: `includeContext` other than `"none"` is supported. */
    context?: JSONObject;
    /** 2025-11-25+: `tools` / `toolChoice` are supported. */
    tools?: JSONObject;
  };
  /** 2025-06-18+: the client can answer `elicitation/create`. */
  elicitation?: {
    /** 2025-11-25+: form mode. Implied when `elicitation` has neither `form` nor `url`. */
    form?: JSONObject;
    /** 2025-11-25+: URL mode. */
    url?: JSONObject;
  };
  /** 2025-11-25 only: the client's core task support. */
  tasks?: {
    /** Supports `tasks/list`. */
    list?: JSONObject;
    /** Supports `tasks/cancel`. */
    cancel?: JSONObject;
    /** Which of its requests a server may task-augment. */
    requests?: {
      sampling?: { createMessage?: JSONObject };
      elicitation?: { create?: JSONObject };
    };
  };
  /** 2026-07-28+: extension id (e.g. `io.modelcontextprotocol/tasks`) → settings (SEP-2133). */
  extensions?: { [extensionId: string]: JSONObject };
}

/**
 * What a server supports (`ServerCapabilities`). The wire allows unknown keys; non-standard capabilities belong in
 * `experimental` or `extensions`.
 *
 * - `prompts`, `resources`, `tools`, `logging`, `experimental`: all revisions.
 * - `completions`: 2025-03-26+ (in 2024-11-05 completion has no capability of its own).
 * - `tasks`: 2025-11-25 only. `extensions`: 2026-07-28+.
 * - 2026-07-28: advertised by `server/discover`; earlier, in `InitializeResult`.
 *
 * @example
 * ```ts
 * const caps: ServerCapabilities = { tools: { listChanged: true }, resources: { subscribe: true } };
 * ```
 */
export interface ServerCapabilities {
  /** Experimental, non-standard capabilities. */
  experimental?: { [name: string]: JSONObject };
  /** The server can send `notifications/message` (and, up to 2025-11-25, answer `logging/setLevel`). */
  logging?: JSONObject;
  /** 2025-03-26+: the server answers `completion/complete`. */
  completions?: JSONObject;
  /** The server offers prompts. */
  prompts?: {
    /** The server sends `notifications/prompts/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers resources. */
  resources?: {
    /** Resource update subscriptions (`resources/subscribe`; in 2026-07-28 listen `resourceSubscriptions`). */
    subscribe?: boolean;
    /** The server sends `notifications/resources/list_changed`. */
    listChanged?: boolean;
  };
  /** The server offers tools. */
  tools?: {
    /** The server sends `notifications/tools/list_changed`. */
    listChanged?: boolean;
  };
  /** 2025-11-25 only: the server's core task support. */
  tasks?: {
    list?: JSONObject;
    cancel?: JSONObject;
    requests?: {
      tools?: { call?: JSONObject };
    };
  };
  /** 2026-07-28+: extension id → settings. */
  extensions?: { [extensionId: string]: JSONObject };
}

// What follows the upstream's era when a request crosses: what a forwarded request declares and who answers its
// questions, whether its messages need the requests in flight to find their caller, and how its tools run as tasks.
// One object per era, picked once per call from the upstream client's era.

import type { InputHandlers } from '@mcpkit/client';
import { isJsonObject } from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities, Era, ServerCapabilities, ToolExecution } from '@mcpkit/protocol';
import { TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';

/** What a forwarded request carries that only some upstream eras read. */
export interface UpstreamCallOptions {
  clientCapabilities?: ClientCapabilities;
  inputHandlers?: InputHandlers;
}

/** The upstream's era, as a crossing sees it. */
export interface UpstreamEra {
  /**
   * Whether the upstream's questions and log messages come outside its calls, tied to one only by `relatedRequestId`
   * (legacy), so the mount must keep the requests it sent in flight; a 2026-07-28 upstream asks within input rounds.
   */
  readonly asksOutsideCalls: boolean;
  /**
   * What a forwarded request declares for `ctx`'s caller and who answers its input rounds. `crossed`: the extensions
   * the mount crosses; `task`: the call crosses as a task (the tasks extension is declared too).
   */
  callOptions(
    ctx: ServerRequestContext,
    crossed: Readonly<Record<string, unknown>> | undefined,
    task: boolean,
  ): UpstreamCallOptions;
  /** How an upstream tool may run as a task, as the downstream should see it. */
  taskExecution(
    capabilities: ServerCapabilities | undefined,
    execution: ToolExecution | undefined,
  ): ToolExecution | undefined;
}

const legacyUpstream: UpstreamEra = {
  asksOutsideCalls: true,
  // No per-request capabilities nor input rounds in these revisions: the upstream asks with its own requests.
  callOptions: () => ({}),
  // A 2025-11-25 upstream lists it (`execution.taskSupport`, with `capabilities.tasks.requests.tools.call`).
  taskExecution(capabilities, execution) {
    const augments = isJsonObject(capabilities?.tasks) && isJsonObject(capabilities.tasks.requests);
    return augments ? execution : undefined;
  },
};

const modernUpstream: UpstreamEra = {
  asksOutsideCalls: false,
  callOptions: (ctx, crossed, task) => ({
    clientCapabilities: declaredFor(ctx, crossed, task),
    inputHandlers: askerFor(ctx),
  }),
  // Its `Tool` has no `execution`, but it may answer any call with a task once the extension is declared, so every tool
  // of one that declares the extension is `optional` here and the upstream decides.
  taskExecution: (capabilities) =>
    capabilities?.extensions?.[TASKS_EXTENSION_ID] === undefined ? undefined : { taskSupport: 'optional' },
};

const UPSTREAM_ERAS: Readonly<Record<Era, UpstreamEra>> = { legacy: legacyUpstream, modern: modernUpstream };

/** The crossing rules of an upstream speaking `era` (none yet: not connected, read as legacy, which asks nothing extra). */
export function upstreamEra(era: Era | undefined): UpstreamEra {
  return UPSTREAM_ERAS[era ?? 'legacy'];
}

/** What a caller that can answer nothing declares, and the handlers that answer for it: shared, never written. */
const DECLARES_NOTHING: ClientCapabilities = Object.freeze({});
const ANSWERS_NOTHING: InputHandlers = Object.freeze({});

/**
 * What a forwarded request declares to a 2026-07-28 upstream: what its caller can answer of what the gateway passes on
 * (sampling, elicitation, roots, and the extensions the mount crosses), so the upstream asks only what will be answered.
 */
function declaredFor(
  ctx: ServerRequestContext,
  crossed: Readonly<Record<string, unknown>> | undefined,
  task: boolean,
): ClientCapabilities {
  const caller = ctx.clientCapabilities;
  const extensions = caller.extensions;
  // Most callers declare none of it: no object per call for them.
  if (caller.sampling === undefined && caller.elicitation === undefined && caller.roots === undefined) {
    if (extensions === undefined) return DECLARES_NOTHING;
  }
  const declared: ClientCapabilities = {};
  if (caller.sampling !== undefined) declared.sampling = caller.sampling;
  if (caller.elicitation !== undefined) declared.elicitation = caller.elicitation;
  if (caller.roots !== undefined) declared.roots = caller.roots;
  if (extensions !== undefined) {
    // The tasks extension for a call crossing as a task: the gateway's own task follows the upstream's.
    for (const id of task ? [TASKS_EXTENSION_ID, ...Object.keys(crossed ?? {})] : Object.keys(crossed ?? {})) {
      if (extensions[id] === undefined) continue;
      declared.extensions ??= {};
      declared.extensions[id] = extensions[id];
    }
  }
  return declared;
}

/**
 * The upstream's input rounds, asked of `ctx`'s caller: a handler for each kind the caller declared (the upstream was
 * told it may ask only those), none for a caller that declared none (one shared empty object, so the gateway client's
 * own handlers never answer for a caller).
 */
function askerFor(ctx: ServerRequestContext): InputHandlers {
  const caller = ctx.clientCapabilities;
  if (caller.sampling === undefined && caller.elicitation === undefined && caller.roots === undefined) {
    return ANSWERS_NOTHING;
  }
  const handlers: InputHandlers = {};
  if (caller.elicitation !== undefined) {
    handlers.elicitation = (params, context) => ctx.elicit(params, { key: context.key });
  }
  if (caller.sampling !== undefined) {
    handlers.sampling = (params, context) => ctx.createMessage(params, { key: context.key });
  }
  if (caller.roots !== undefined) handlers.roots = (params, context) => ctx.listRoots(params, { key: context.key });
  return handlers;
}

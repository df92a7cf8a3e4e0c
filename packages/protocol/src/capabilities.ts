import { defineCodedError } from '@mcpkit/jsonrpc-core';
import {
  type CapabilityPath,
  type CapabilityRequirement,
  type CapabilitySide,
  type Gate,
  type MessageDirection,
  type MethodRule,
  otherGateFor,
  ruleFor,
  type Span,
  TASKS_EXTENSION_ID,
} from './method-rules.js';
import type { ClientCapabilities, ServerCapabilities } from './types/capabilities.js';
import type { SubscriptionFilter } from './types/subscriptions.js';
import { isSupportedVersion } from './versions.js';

export {
  type CapabilityPath,
  type CapabilityRequirement,
  type CapabilitySide,
  type MessageDirection,
  TASKS_EXTENSION_ID,
} from './method-rules.js';

/**
 * How a method exists in a revision:
 *
 * - `request` / `notification`: a JSON-RPC message on the wire;
 * - `inputRequest`: 2026-07-28's sampling, roots and elicitation, which travel only inside an `InputRequiredResult`.
 *
 * `extension` names the extension that defines the method in that revision (the 2026 tasks methods).
 */
export type MethodAvailability =
  | {
      available: true;
      kind: 'request' | 'notification' | 'inputRequest';
      direction: MessageDirection;
      extension?: string;
    }
  | { available: false; reason: string };

function spanFor(rule: MethodRule, version: string): Span | undefined {
  for (const span of rule.spans) {
    if (version >= span.since && (span.removedIn === undefined || version < span.removedIn)) return span;
  }
  return undefined;
}

/**
 * Whether and how `method` exists in revision `version`.
 *
 * @example
 * ```ts
 * methodAvailability('ping', '2025-11-25'); // { available: true, kind: 'request', direction: 'both' }
 * methodAvailability('ping', '2026-07-28'); // { available: false, reason: "'ping' was removed in 2026-07-28" }
 * methodAvailability('roots/list', '2026-07-28').kind; // 'inputRequest'
 * ```
 */
export function methodAvailability(method: string, version: string): MethodAvailability {
  // Asked for every request on both sides: answered once per known method and revision, then from the table (the
  // answers are frozen and shared; unknown methods and versions are not kept, so the table stays bounded).
  const known = AVAILABILITY.get(version)?.get(method);
  if (known !== undefined) return known;
  const availability = computeAvailability(method, version);
  if (isSupportedVersion(version) && ruleFor(method) !== undefined) {
    let byMethod = AVAILABILITY.get(version);
    if (byMethod === undefined) {
      byMethod = new Map();
      AVAILABILITY.set(version, byMethod);
    }
    byMethod.set(method, Object.freeze(availability));
  }
  return availability;
}

const AVAILABILITY = new Map<string, Map<string, MethodAvailability>>();

function computeAvailability(method: string, version: string): MethodAvailability {
  if (!isSupportedVersion(version)) {
    return { available: false, reason: `Unknown protocol version '${version}'` };
  }
  const rule = ruleFor(method);
  if (rule === undefined) return { available: false, reason: `'${method}' is not an MCP method` };
  const span = spanFor(rule, version);
  if (span === undefined) {
    const first = rule.spans[0]!;
    const last = rule.spans[rule.spans.length - 1]!;
    const reason =
      version < first.since
        ? `'${method}' does not exist in ${version}; it was added in ${first.since}`
        : `'${method}' was removed in ${last.removedIn}`;
    return { available: false, reason };
  }
  return span.extension === undefined
    ? { available: true, kind: span.kind, direction: span.direction }
    : { available: true, kind: span.kind, direction: span.direction, extension: span.extension };
}

/**
 * Whether `method` is an MCP request method (either direction) in any revision: the table an application's own
 * methods are told apart from, without a list of names beside it.
 *
 * @example
 * ```ts
 * isRequestMethod('tools/call'); // true
 * isRequestMethod('notifications/progress'); // false: a notification
 * isRequestMethod('com.example/alerts/list'); // false: not MCP's
 * ```
 */
export function isRequestMethod(method: string): boolean {
  const rule = ruleFor(method);
  if (rule === undefined) return false;
  // Asked for every request on both sides: a loop, not a callback made per call.
  for (const span of rule.spans) if (span.kind !== 'notification') return true;
  return false;
}

/**
 * Whether `method` exists as a JSON-RPC request or notification in `version`. False for 2026-07-28's input requests
 * (sampling, roots, elicitation), which never travel as JSON-RPC requests.
 *
 * @example
 * ```ts
 * methodExists('initialize', '2025-06-18'); // true
 * methodExists('initialize', '2026-07-28'); // false
 * methodExists('sampling/createMessage', '2026-07-28'); // false: an input request there
 * ```
 */
export function methodExists(method: string, version: string): boolean {
  const availability = methodAvailability(method, version);
  return availability.available && availability.kind !== 'inputRequest';
}

/** Options of {@link requiredCapability}. */
export interface RequiredCapabilityOptions {
  /**
   * Who receives the message, for methods that travel both ways (`ping`, 2025-11-25 `tasks/*`,
   * `notifications/tasks/status`). Defaults to the receiver implied by the direction, or `'server'`.
   */
  receiver?: CapabilitySide;
}

/**
 * The capabilities `method` needs in `version`, all of which must be present:
 *
 * - for requests (and 2026 input requests), the receiver's capabilities;
 * - for notifications, the capability REVISIONS.md names (mostly the sender's, e.g. server `tools.listChanged`).
 *
 * `params` refines the answer: task augmentation (2025-11-25), sampling `tools` / `toolChoice` / `includeContext`,
 * elicitation `mode`. Returns `[]` when nothing is needed and `undefined` when the method does not exist in that
 * revision (see {@link methodAvailability} for why).
 *
 * @example
 * ```ts
 * requiredCapability('completion/complete', '2024-11-05'); // []
 * requiredCapability('completion/complete', '2025-03-26'); // [{ side: 'server', path: ['completions'] }]
 * requiredCapability('elicitation/create', '2025-11-25', { mode: 'url', url: 'https://x', message: 'm' });
 * // [{ side: 'client', path: ['elicitation', 'url'] }]
 * requiredCapability('logging/setLevel', '2026-07-28'); // undefined
 * ```
 */
export function requiredCapability(
  method: string,
  version: string,
  params?: unknown,
  options?: RequiredCapabilityOptions,
): CapabilityRequirement[] | undefined {
  return requirementsOf(method, version, params, options?.receiver, otherGateFor);
}

/**
 * The server capabilities a request a server receives needs in `version`: what {@link requiredCapability} answers for
 * it, `undefined` when `method` is not such a request in that revision (it does not exist, or only a server sends
 * it). The check of every inbound request; unlike `requiredCapability` it does not carry the rules of what a server
 * sends (sampling, elicitation, roots), so a server bundle that never asks the client stays without them.
 *
 * @example
 * ```ts
 * requiredServerCapability('tools/call', '2025-11-25', { name: 'x' }); // [{ side: 'server', path: ['tools'] }]
 * requiredServerCapability('ping', '2025-11-25'); // []
 * requiredServerCapability('sampling/createMessage', '2025-11-25'); // undefined: a server sends it
 * ```
 */
export function requiredServerCapability(
  method: string,
  version: string,
  params?: unknown,
): CapabilityRequirement[] | undefined {
  const availability = methodAvailability(method, version);
  if (!availability.available || availability.kind !== 'request' || availability.direction === 'serverToClient') {
    return undefined;
  }
  return requirementsOf(method, version, params, 'server', undefined);
}

/** What a gate reads when a request has no params object: gates only read params, so one object serves every call. */
const NO_PARAMS: Record<string, unknown> = Object.freeze({});

function requirementsOf(
  method: string,
  version: string,
  params: unknown,
  receiver: CapabilitySide | undefined,
  otherGate: ((method: string) => Gate | undefined) | undefined,
): CapabilityRequirement[] | undefined {
  if (!isSupportedVersion(version)) return undefined;
  const rule = ruleFor(method);
  if (rule === undefined) return undefined;
  const span = spanFor(rule, version);
  if (span === undefined) return undefined;
  const gate = rule.gate ?? otherGate?.(method);
  if (gate === undefined) return [];
  const paramsObject =
    params !== null && typeof params === 'object' && !Array.isArray(params)
      ? (params as Record<string, unknown>)
      : NO_PARAMS;
  return gate(version, paramsObject, receiver ?? (span.direction === 'serverToClient' ? 'client' : 'server'));
}

/**
 * Whether `capabilities` has the capability at `path`. A value that is `undefined`, `null` or `false` (as in
 * `listChanged: false`) is absent. One implicit rule applies (2025-11-25+): an `elicitation` object with neither
 * `form` nor `url` means form only, so `['elicitation', 'form']` is present in `{ elicitation: {} }`.
 *
 * @example
 * ```ts
 * hasCapability({ resources: { subscribe: true } }, ['resources', 'subscribe']); // true
 * hasCapability({ elicitation: {} }, ['elicitation', 'form']); // true
 * hasCapability({ elicitation: {} }, ['elicitation', 'url']); // false
 * ```
 */
export function hasCapability(
  capabilities: ClientCapabilities | ServerCapabilities | undefined,
  path: CapabilityPath,
): boolean {
  let node: unknown = capabilities;
  for (let index = 0; index < path.length; index++) {
    if (node === null || typeof node !== 'object') return false;
    const key = path[index]!;
    const next: unknown = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    if (next === undefined || next === null || next === false) {
      return index === 1 && path.length === 2 && path[0] === 'elicitation' && key === 'form' && isFormOnly(node);
    }
    node = next;
  }
  return true;
}

function isFormOnly(elicitation: object): boolean {
  const record = elicitation as Record<string, unknown>;
  return (record.form === undefined || record.form === null) && (record.url === undefined || record.url === null);
}

/** The capabilities objects of both peers, as far as they are known. */
export interface PeerCapabilities {
  client?: ClientCapabilities;
  server?: ServerCapabilities;
}

/**
 * The requirements of `method` in `version` that `capabilities` do not meet; `[]` when all are met. Throws a
 * {@link CapabilityError} (`ERR_METHOD_NOT_AVAILABLE`) when the method does not exist in that revision.
 *
 * @example
 * ```ts
 * const missing = missingCapabilities('sampling/createMessage', '2025-11-25', { client: { sampling: {} } }, { tools: [] });
 * // [{ side: 'client', path: ['sampling', 'tools'] }]
 * ```
 */
export function missingCapabilities(
  method: string,
  version: string,
  capabilities: PeerCapabilities,
  params?: unknown,
  options?: RequiredCapabilityOptions,
): CapabilityRequirement[] {
  const required = requiredCapability(method, version, params, options);
  if (required === undefined) {
    const availability = methodAvailability(method, version) as { reason: string };
    throw new CapabilityError('ERR_METHOD_NOT_AVAILABLE', `${availability.reason}.`, { method, version, missing: [] });
  }
  return required.filter((requirement) => !hasCapability(capabilities[requirement.side], requirement.path));
}

/**
 * Throws a {@link CapabilityError} unless `method` exists in `version` and every capability it needs is present.
 *
 * @example
 * ```ts
 * assertCapability('resources/subscribe', '2025-06-18', { server: serverCapabilities });
 * // throws: "resources/subscribe needs the server capability resources.subscribe, which the server did not declare."
 * ```
 */
export function assertCapability(
  method: string,
  version: string,
  capabilities: PeerCapabilities,
  params?: unknown,
  options?: RequiredCapabilityOptions,
): void {
  const required = requiredCapability(method, version, params, options);
  // Checked on every request a client sends: only a failing check builds the list of what is missing.
  if (required !== undefined && declaresAll(capabilities, required)) return;
  const missing = missingCapabilities(method, version, capabilities, params, options);
  const described = missing
    .map((requirement) => `the ${requirement.side} capability ${formatCapabilityPath(requirement.path)}`)
    .join(' and ');
  const sides = [...new Set(missing.map((requirement) => requirement.side))].join(' and ');
  throw new CapabilityError(
    'ERR_MISSING_CAPABILITY',
    `${method} needs ${described}, which the ${sides} did not declare (protocol version ${version}).`,
    { method, version, missing },
  );
}

/** Whether every requirement is present (a loop: no closure per check). */
function declaresAll(capabilities: PeerCapabilities, required: readonly CapabilityRequirement[]): boolean {
  for (const requirement of required) {
    if (!hasCapability(capabilities[requirement.side], requirement.path)) return false;
  }
  return true;
}

/**
 * Formats a capability path for people: `resources.subscribe`, `extensions["io.modelcontextprotocol/tasks"]`.
 *
 * @example
 * ```ts
 * formatCapabilityPath(['elicitation', 'url']); // 'elicitation.url'
 * ```
 */
export function formatCapabilityPath(path: CapabilityPath): string {
  let text = '';
  for (const key of path) {
    text += /^[A-Za-z_$][\w$]*$/.test(key) ? (text === '' ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
  }
  return text;
}

/**
 * Builds a capabilities object declaring `paths` (each leaf `{}`), e.g. for the `requiredCapabilities` data of a
 * -32021 error.
 *
 * @example
 * ```ts
 * capabilitiesFromPaths([['elicitation', 'url'], ['sampling']]); // { elicitation: { url: {} }, sampling: {} }
 * ```
 */
export function capabilitiesFromPaths(paths: Iterable<CapabilityPath>): ClientCapabilities & ServerCapabilities {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    let node = root;
    for (const key of path) {
      const existing = node[key];
      const next = existing !== null && typeof existing === 'object' ? (existing as Record<string, unknown>) : {};
      node[key] = next;
      node = next;
    }
  }
  return root as ClientCapabilities & ServerCapabilities;
}

/**
 * The part of a `subscriptions/listen` filter the server honours (2026-07-28): each key only with the matching server
 * capability — `toolsListChanged` ← `tools.listChanged`, `promptsListChanged` ← `prompts.listChanged`,
 * `resourcesListChanged` ← `resources.listChanged`, `resourceSubscriptions` ← `resources.subscribe`, `taskIds` ←
 * the tasks extension. `false` and empty entries are dropped. The server acknowledges with this subset.
 *
 * @example
 * ```ts
 * honouredSubscriptionFilter({ toolsListChanged: true, promptsListChanged: true }, { tools: { listChanged: true } });
 * // { toolsListChanged: true }
 * ```
 */
export function honouredSubscriptionFilter(
  requested: SubscriptionFilter,
  capabilities: ServerCapabilities,
): SubscriptionFilter {
  const honoured: Record<string, unknown> = {};
  for (const [key, ...path] of FILTER_CAPABILITIES) {
    const value = requested[key];
    // `…ListChanged` keys are `true` to ask; the others are lists, asked when not empty.
    const asked = key.endsWith('ListChanged') ? value === true : Array.isArray(value) && value.length > 0;
    if (asked && hasCapability(capabilities, path)) honoured[key] = value;
  }
  return honoured;
}

/** Each key of a subscription filter, and the server capability that honours it. */
const FILTER_CAPABILITIES: readonly (readonly [keyof SubscriptionFilter, ...string[]])[] = [
  ['toolsListChanged', 'tools', 'listChanged'],
  ['promptsListChanged', 'prompts', 'listChanged'],
  ['resourcesListChanged', 'resources', 'listChanged'],
  ['resourceSubscriptions', 'resources', 'subscribe'],
  ['taskIds', 'extensions', TASKS_EXTENSION_ID],
];

/** What a {@link CapabilityError} knows. */
export interface CapabilityErrorData {
  method: string;
  version: string;
  /** The requirements that were not met (empty for `ERR_METHOD_NOT_AVAILABLE`). */
  missing: CapabilityRequirement[];
}

/**
 * A local check failed: the method does not exist in the negotiated revision (`ERR_METHOD_NOT_AVAILABLE`) or a peer
 * lacks a capability it needs (`ERR_MISSING_CAPABILITY`). Never sent on the wire; a server answering a peer uses
 * `methodNotFoundError` or `missingRequiredClientCapabilityError`.
 *
 * @example
 * ```ts
 * try { assertCapability('tools/call', version, { server: caps }); }
 * catch (error) { if (error instanceof CapabilityError) console.log(error.data.missing); }
 * ```
 */
export class CapabilityError extends defineCodedError<
  'ERR_METHOD_NOT_AVAILABLE' | 'ERR_MISSING_CAPABILITY',
  CapabilityErrorData
>('CapabilityError', '@mcpkit/protocol/CapabilityError') {}

import { isJsonObject, JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import type { Era } from '@mcpkit/protocol';
import {
  type CacheScope,
  type CapabilityPath,
  type Implementation,
  invalidEnvelopeError,
  invalidParamsError,
  isLegacyVersion,
  isModernVersion,
  isRequestMethod,
  isSupportedVersion,
  MetaKeys,
  messageEra,
  methodAvailability,
  methodNotFoundError,
  negotiateLegacyVersion,
  PROTOCOL_VERSIONS,
  type RequestEnvelope,
  readRequestEnvelope,
  requiredServerCapability,
  unsupportedProtocolVersionError,
} from '@mcpkit/protocol';
import type { ServerSession } from '../session/session';

/** A caching hint for cacheable results (2026-07-28). */
export interface CacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** The methods whose complete results carry `ttlMs` / `cacheScope` in 2026-07-28. */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

const CACHEABLE: ReadonlySet<string> = new Set<CacheableMethod>([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

const DEFAULT_CACHE_HINT: CacheHint = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

// A request's own cache hint, by its context (a resource registered with one): only 2026-07-28 results carry hints, so
// the feature records it for every request and the modern era alone puts it on the result (`complete`).
const ownHints = new WeakMap<object, CacheHint>();

/**
 * Gives the result of the request `ctx` answers its own cache hint (a resource's), over the server's for the method.
 * The result's own `ttlMs` still wins; a legacy result carries none.
 */
export function hintCache(ctx: object, hint: CacheHint): void {
  ownHints.set(ctx, hint);
}

/** What the rules need to know about the server they guard. */
export interface EraRulesOptions {
  serverInfo: Implementation;
  /** Protocol versions the server speaks, of either era. Default: every version `@mcpkit/protocol` knows. */
  protocolVersions?: readonly string[];
  cacheHints?: Partial<Record<CacheableMethod | 'default', CacheHint>>;
  /** Whether the server declares the capability at `path` now (gates are cached until `capabilitiesChanged`). */
  declares(path: CapabilityPath): boolean;
}

/**
 * The rules of both protocol eras, as the server applies them to each request: which era a request is in, what its
 * envelope or session must carry, whether its method exists in its revision with the capability it needs declared,
 * and how a modern result is completed. Holds no per-request state; the `Server` runs handlers around it.
 */
export class EraRules {
  /** The protocol versions spoken, newest first (the order clients read `supportedVersions` in). */
  readonly supported: readonly string[];
  readonly legacyVersions: readonly string[];
  readonly modernVersions: ReadonlySet<string>;
  readonly #serverInfo: Implementation;
  readonly #cacheHints: Partial<Record<string, CacheHint>>;
  readonly #declares: (path: CapabilityPath) => boolean;
  /** Per version, per method: whether the method exists and its server capability is declared. */
  readonly #gates = new Map<string, Map<string, boolean>>();

  constructor(options: EraRulesOptions) {
    const versions = options.protocolVersions ?? PROTOCOL_VERSIONS;
    for (const version of versions) {
      if (!isSupportedVersion(version)) {
        throw new RangeError(`Server: unknown protocol version '${version}'; known: ${PROTOCOL_VERSIONS.join(', ')}`);
      }
    }
    this.supported = [...versions].sort().reverse();
    this.legacyVersions = this.supported.filter(isLegacyVersion);
    this.modernVersions = new Set(this.supported.filter(isModernVersion));
    this.#serverInfo = options.serverInfo;
    this.#cacheHints = options.cacheHints ?? {};
    this.#declares = options.declares;
  }

  /**
   * The era of a request: the connection's when it is fixed, else what the transport decided (`decided`), else the
   * envelope's (`messageEra`: modern exactly when `_meta` names a version).
   */
  eraOf(params: Record<string, unknown> | undefined, session: ServerSession | undefined, decided?: Era): Era {
    if (session?.fixEra && session.era !== undefined) return session.era;
    return decided ?? messageEra(params);
  }

  /**
   * The envelope of a modern request, checked: present and well formed, in a version this server speaks.
   */
  modernEnvelope(params: Record<string, unknown> | undefined): RequestEnvelope {
    const read = readRequestEnvelope(params);
    if (!read.ok) throw invalidEnvelopeError(read.missing, read.invalid);
    const envelope = read.envelope;
    const version = envelope.protocolVersion;
    if (!this.modernVersions.has(version)) throw unsupportedProtocolVersionError(this.supported, version);
    return envelope;
  }

  /**
   * The error for a legacy-era request (not `initialize`, not an early `ping`) that arrives before `initialize`: a
   * server that speaks a modern version reads it as a modern request with a broken envelope.
   */
  uninitializedError(method: string, params: Record<string, unknown> | undefined): JsonRpcError {
    if (this.modernVersions.size > 0) {
      const read = readRequestEnvelope(params);
      return invalidEnvelopeError(read.ok ? [] : read.missing, read.ok ? [] : read.invalid);
    }
    return new JsonRpcError(JsonRpcErrorCode.InvalidRequest, `'${method}' before initialize: send initialize first`, {
      method,
    });
  }

  /** The legacy version `initialize` negotiates, or the error that refuses it. */
  negotiateInitialize(params: Record<string, unknown> | undefined): string {
    const requested = params?.protocolVersion;
    if (typeof requested !== 'string' || !isJsonObject(params?.capabilities)) {
      throw invalidParamsError(
        'initialize needs params.protocolVersion (a string) and params.capabilities (an object)',
      );
    }
    const version = negotiateLegacyVersion(requested, this.legacyVersions);
    if (version === undefined) throw unsupportedProtocolVersionError(this.supported, requested);
    return version;
  }

  /**
   * Returns `handler` when `method` may run in `version`: it exists there as a client→server request and the server
   * capability it needs is declared. Throws -32601 otherwise (also when there is no handler). An application's own
   * methods pass through.
   */
  gate<H>(method: string, version: string, params: Record<string, unknown> | undefined, handler: H | undefined): H {
    if (handler === undefined) throw methodNotFoundError(method);
    if (!isRequestMethod(method)) return handler;
    // Only task augmentation (2025-11-25 tools/call with params.task) makes a server-side gate depend on params.
    const cacheable = params?.task === undefined;
    let gates = this.#gates.get(version);
    if (gates === undefined) {
      gates = new Map();
      this.#gates.set(version, gates);
    }
    let open = cacheable ? gates.get(method) : undefined;
    if (open === undefined) {
      // Undefined when the method is no request a server receives in this version.
      const required = requiredServerCapability(method, version, params);
      open = required?.every((requirement) => this.#declares(requirement.path)) === true;
      if (cacheable) gates.set(method, open);
    }
    if (!open) {
      const availability = methodAvailability(method, version);
      throw methodNotFoundError(
        method,
        availability.available
          ? `The server does not declare the capability '${method}' needs in ${version}`
          : availability.reason,
      );
    }
    return handler;
  }

  /** Forgets cached gates: the declared capabilities changed. */
  capabilitiesChanged(): void {
    this.#gates.clear();
  }

  /**
   * Completes a modern result: `resultType`, serverInfo, and cache hints on cacheable complete results (the request's
   * own, from `hintCache(request, …)`, else the server's for the method).
   */
  complete(method: string, result: unknown, retried: boolean, request: object): unknown {
    if (!isJsonObject(result)) return result;
    // Every modern result passes here. Known keys before the spread keep V8 on its fast object paths (a spread followed
    // by added or computed keys cost ~1.2 µs per result, a third of Server.handle); the rare cases are fixed after.
    const serverInfo = this.#serverInfo;
    const meta = result._meta;
    let outMeta: Record<string, unknown>;
    if (!isJsonObject(meta)) outMeta = { 'io.modelcontextprotocol/serverInfo': serverInfo };
    else {
      outMeta = { 'io.modelcontextprotocol/serverInfo': serverInfo, ...meta };
      if (MetaKeys.ServerInfo in meta) outMeta[MetaKeys.ServerInfo] = serverInfo;
    }
    const out: Record<string, unknown> = { resultType: 'complete', ...result, _meta: outMeta };
    if (out.resultType === undefined) out.resultType = 'complete';
    if (out.resultType === 'complete' && CACHEABLE.has(method)) {
      if (retried) {
        // Results of MRTR retries must not be cached.
        out.ttlMs = 0;
        out.cacheScope = 'private';
      } else {
        const own = out.ttlMs === undefined ? ownHints.get(request) : undefined;
        if (own !== undefined) {
          out.ttlMs = own.ttlMs;
          out.cacheScope = own.cacheScope;
        } else {
          const hint = this.#cacheHints[method] ?? this.#cacheHints.default ?? DEFAULT_CACHE_HINT;
          if (out.ttlMs === undefined) out.ttlMs = hint.ttlMs;
          if (out.cacheScope === undefined) out.cacheScope = hint.cacheScope;
        }
      }
    }
    return out;
  }
}

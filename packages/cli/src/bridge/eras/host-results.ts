// What a host's era keeps of an upstream result's hints, one object per era, picked once per forwarded result from the
// host request's era.
import type { Era } from '@mcpkit/protocol';

/** The hints of an upstream result the host's era has fields for. */
export interface HostResultEra {
  /** Writes onto `out` (the result being built for the host) the upstream's `ttlMs` and `cacheScope` it keeps. */
  keepHints(out: Record<string, unknown>, ttlMs: unknown, cacheScope: unknown): void;
}

const legacyHost: HostResultEra = {
  // No cache hints in these revisions; a task's `ttlMs` is its retention, not a cache hint: the bridge translates it
  // for a 2025-era host.
  keepHints(out, ttlMs) {
    if (ttlMs !== undefined && typeof out.taskId === 'string') out.ttlMs = ttlMs;
  },
};

const modernHost: HostResultEra = {
  keepHints(out, ttlMs, cacheScope) {
    if (ttlMs !== undefined) out.ttlMs = ttlMs;
    if (cacheScope !== undefined) out.cacheScope = cacheScope;
  },
};

const HOST_RESULT_ERAS: Readonly<Record<Era, HostResultEra>> = { legacy: legacyHost, modern: modernHost };

/** What a host speaking `era` keeps of an upstream result's hints. */
export function hostResultEra(era: Era): HostResultEra {
  return HOST_RESULT_ERAS[era];
}

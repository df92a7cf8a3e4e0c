import type { ClientCapabilities } from './types/capabilities.js';

// The core client capabilities each revision defines (its schema's ClientCapabilities). `experimental` and
// `extensions` are open-ended and pass in every revision: extensions (SEP-2133) are declared in `initialize` too.
const OPEN = ['experimental', 'extensions'];
const CORE_2024 = ['roots', 'sampling'];
const CLIENT_CAPABILITIES: Readonly<Record<string, ReadonlySet<string>>> = {
  '2024-11-05': new Set([...OPEN, ...CORE_2024]),
  '2025-03-26': new Set([...OPEN, ...CORE_2024]),
  '2025-06-18': new Set([...OPEN, ...CORE_2024, 'elicitation']),
  '2025-11-25': new Set([...OPEN, ...CORE_2024, 'elicitation', 'tasks']),
  '2026-07-28': new Set([...OPEN, ...CORE_2024, 'elicitation']),
};

/**
 * What a client declares in `version`: its capabilities less the core ones that revision does not define, so a
 * client pinned to 2025-03-26 never claims `elicitation` (which a server could then use against the negotiated
 * version). An unknown version keeps everything.
 *
 * @example
 * ```ts
 * clientCapabilitiesFor('2025-03-26', { sampling: {}, elicitation: {} }); // { sampling: {} }
 * ```
 */
export function clientCapabilitiesFor(version: string, capabilities: ClientCapabilities): ClientCapabilities {
  const known = CLIENT_CAPABILITIES[version];
  if (known === undefined) return capabilities;
  let declared: Record<string, unknown> | undefined;
  for (const key of Object.keys(capabilities)) {
    if (known.has(key)) continue;
    declared ??= { ...capabilities };
    delete declared[key];
  }
  return (declared as ClientCapabilities | undefined) ?? capabilities;
}

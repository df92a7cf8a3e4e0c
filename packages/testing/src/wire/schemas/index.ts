import { SCHEMA_TEXT as V2024_11_05 } from './2024-11-05';
import { SCHEMA_TEXT as V2025_03_26 } from './2025-03-26';
import { SCHEMA_TEXT as V2025_06_18 } from './2025-06-18';
import { SCHEMA_TEXT as V2025_11_25 } from './2025-11-25';
import { SCHEMA_TEXT as V2026_07_28 } from './2026-07-28';

/** The official JSON Schema text of each MCP revision, as copied by scripts/sync-schemas.mjs. */
export const SCHEMA_TEXTS = {
  '2024-11-05': V2024_11_05,
  '2025-03-26': V2025_03_26,
  '2025-06-18': V2025_06_18,
  '2025-11-25': V2025_11_25,
  '2026-07-28': V2026_07_28,
} as const;

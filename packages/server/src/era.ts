/** Which protocol era a request is handled in: `legacy` (2024-11-05 … 2025-11-25) or `modern` (2026-07-28). */
export type Era = 'legacy' | 'modern';

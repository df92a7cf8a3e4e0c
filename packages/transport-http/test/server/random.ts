/** A seeded pseudo-random source (mulberry32), so a failing randomised run can be replayed with its seed. */
export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

/** Seeded from `MCPKIT_SEED` when set (to replay a failure), else from the clock. */
export function seededRandom(seed = Number(process.env.MCPKIT_SEED ?? Date.now() % 2 ** 31)): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

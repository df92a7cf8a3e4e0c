/**
 * Runs at most `max` tasks at a time; the rest wait in call order.
 *
 * @example
 * const limit = createLimiter(3);
 * await Promise.all(jobs.map((job) => limit(job)));
 */
export function createLimiter(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return async (task) => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}

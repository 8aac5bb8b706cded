// How long to wait before trying again after a transient failure: exponential, capped, with full jitter
// so that many orders (or shops) failing together do not come back together.
export const BACKOFF = { baseMs: 2_000, maxMs: 15 * 60_000 };

/** The wait before attempt `attempts + 1`; `random` is injectable for tests. */
export function backoffMs(attempts: number, random: () => number = Math.random, policy = BACKOFF): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  // Half fixed, half random: never sooner than half the ceiling, spread over the other half.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

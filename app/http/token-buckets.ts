// Token buckets by key, in memory and bounded: the storefront's visitors are many and unknown, so the
// buckets kept are at most `maxKeys`, the least recently seen dropped first (a dropped visitor starts again
// with a full bucket, which costs at most one burst). Pure apart from the clock the caller passes in.

export interface TokenBucketLimits {
  /** The burst a fresh key may spend at once. */
  capacity: number;
  /** Tokens added per second, up to the capacity. */
  refillPerSecond: number;
  /** Keys kept at most. */
  maxKeys: number;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly limits: TokenBucketLimits) {}

  /** Takes one token from the key's bucket, or says how many whole seconds until one is there. */
  take(key: string, nowMs: number): TakeResult {
    const { capacity, refillPerSecond, maxKeys } = this.limits;
    const found = this.buckets.get(key);
    const elapsedSeconds = found ? Math.max(0, nowMs - found.updatedMs) / 1000 : 0;
    const tokens = found ? Math.min(capacity, found.tokens + elapsedSeconds * refillPerSecond) : capacity;
    // Re-inserted so the Map's order is least recently seen first.
    this.buckets.delete(key);
    const allowed = tokens >= 1;
    this.buckets.set(key, { tokens: allowed ? tokens - 1 : tokens, updatedMs: nowMs });
    while (this.buckets.size > maxKeys) {
      const oldest = this.buckets.keys().next().value as string;
      this.buckets.delete(oldest);
    }
    if (allowed) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / refillPerSecond)) };
  }

  get size(): number {
    return this.buckets.size;
  }
}

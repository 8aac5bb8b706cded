// The warehouse rate-limit state in the database, so every process (and the next lease holder after a
// crash) sees the same last minute of requests. Updates are compare-and-set on a version column.
import type { Db } from "../db.server";
import { isUniqueViolation } from "../db.server";
import type { RateLimitState, RateLimitStore } from "../warehouse/limiter.server";

const MAX_CONFLICTS = 20;

export class DatabaseRateLimitStore implements RateLimitStore {
  constructor(
    private readonly db: Db,
    private readonly shop: string,
  ) {}

  async update<R>(
    key: string,
    change: (state: RateLimitState) => { state: RateLimitState; result: R },
  ): Promise<R> {
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const row = await this.db.rateLimitState.findUnique({ where: { key } });
      const current: RateLimitState = row
        ? (JSON.parse(row.state) as RateLimitState)
        : { sent: [], lastReport: {} };
      const { state, result } = change(current);
      const serialized = JSON.stringify(state);
      if (!row) {
        try {
          await this.db.rateLimitState.create({ data: { key, shop: this.shop, state: serialized } });
          return result;
        } catch (error) {
          if (isUniqueViolation(error)) continue;
          throw error;
        }
      }
      if (serialized === row.state) return result;
      const { count } = await this.db.rateLimitState.updateMany({
        where: { key, version: row.version },
        data: { state: serialized, version: row.version + 1 },
      });
      if (count === 1) return result;
    }
    throw new Error(`rate-limit state ${key} kept changing under ${MAX_CONFLICTS} attempts to update it`);
  }
}

// A warehouse client for a request the merchant is waiting on (a connection test, a street look-up), outside
// the work engine: the app's endpoints, and the key's rate limits as every process of the app counts them
// (the engine's own client, app/work/worker.server.ts, shares the same store).
import type { Clock } from "../context.server";
import type { Db } from "../db.server";
import { env } from "../env.server";
import { DatabaseRateLimitStore } from "../work/rate-limit-store.server";
import { createWarehouseClient, type WarehouseClient, type WarehouseEndpoints } from "./client.server";
import { warehouseEndpoints } from "./config.server";
import { WarehouseRateLimiter } from "./limiter.server";

export interface ShopClientOptions {
  db: Db;
  clock: Clock;
  shop: string;
  apiKey: string;
  /** Overrides of the configured endpoints (tests). */
  endpoints?: Partial<WarehouseEndpoints>;
  fetch?: typeof fetch;
  /** How long a request may wait for the key's limits before it is refused as rate limited (0: not at all). */
  maxLimiterWaitMs?: number;
}

export function shopWarehouseClient(options: ShopClientOptions): {
  warehouse: WarehouseClient;
  endpoints: WarehouseEndpoints;
} {
  const { db, clock, shop } = options;
  const endpoints = { ...warehouseEndpoints(), ...options.endpoints };
  const warehouse = createWarehouseClient({
    apiKey: options.apiKey,
    endpoints,
    limiter: new WarehouseRateLimiter(new DatabaseRateLimitStore(db, shop), {
      limits: { windowMs: env().WAREHOUSE_RATE_WINDOW_MS },
      now: () => clock().getTime(),
    }),
    ...(options.maxLimiterWaitMs !== undefined && { maxLimiterWaitMs: options.maxLimiterWaitMs }),
    ...(options.fetch && { fetch: options.fetch }),
  });
  return { warehouse, endpoints };
}

// The one factory of a shop's keyed warehouse client: the engine's, for a lease
// (app/work/machinery.server.ts), and those for a request the merchant is waiting on (a connection test, a
// page's look-up with the saved key, app/work/saved-key-client.server.ts). Each counts the key's rate
// limits in the store every process of the app shares, so none of them can spend the others' requests. That
// store is in the database, which app/warehouse/ knows nothing of: so the factory sits here, beside the store.
import type { Clock } from "../context.server";
import type { Db } from "../db.server";
import { env } from "../env.server";
import {
  createWarehouseClient,
  type WarehouseClient,
  type WarehouseEndpoints,
} from "../warehouse/client.server";
import { warehouseEndpoints } from "../warehouse/config.server";
import { WarehouseRateLimiter, type RateLimits } from "../warehouse/limiter.server";
import { DatabaseRateLimitStore } from "./rate-limit-store.server";

export interface ShopClientOptions {
  db: Db;
  clock: Clock;
  shop: string;
  apiKey: string;
  /**
   * The endpoints and the key's limits as the engine was given them (which a test may have scaled down);
   * absent, the configured ones are read from the environment.
   */
  engine?: { endpoints: WarehouseEndpoints; rateLimits?: Partial<RateLimits> | undefined };
  /** Overrides of the endpoints (tests). */
  endpoints?: Partial<WarehouseEndpoints>;
  /** At most this timeout: shorter than the configured one, for a read that can simply be asked again. */
  maxTimeoutMs?: number;
  /** How long a request may wait for the key's limits before it is refused as rate limited (0: not at all). */
  maxLimiterWaitMs?: number;
  /** The per-account switch for the batch shape of AddOrder. */
  batchAddOrder?: boolean;
  /** Once aborted (the engine's lease is lost), no request leaves. */
  stopSending?: AbortSignal;
  fetch?: typeof fetch;
}

export function shopWarehouseClient(options: ShopClientOptions): {
  warehouse: WarehouseClient;
  endpoints: WarehouseEndpoints;
} {
  const { db, clock, shop, engine } = options;
  const base = engine ? engine.endpoints : warehouseEndpoints();
  const chosen = { ...base, ...options.endpoints };
  const endpoints =
    options.maxTimeoutMs === undefined
      ? chosen
      : {
          ...chosen,
          timeoutMs: Math.min(options.endpoints?.timeoutMs ?? base.timeoutMs, options.maxTimeoutMs),
        };
  const limits = engine ? engine.rateLimits : { windowMs: env().WAREHOUSE_RATE_WINDOW_MS };
  const warehouse = createWarehouseClient({
    apiKey: options.apiKey,
    endpoints,
    limiter: new WarehouseRateLimiter(new DatabaseRateLimitStore(db, shop), {
      ...(limits && { limits }),
      now: () => clock().getTime(),
    }),
    ...(options.maxLimiterWaitMs !== undefined && { maxLimiterWaitMs: options.maxLimiterWaitMs }),
    ...(options.batchAddOrder !== undefined && { batchAddOrder: options.batchAddOrder }),
    ...(options.stopSending && { stopSending: options.stopSending }),
    ...(options.fetch && { fetch: options.fetch }),
  });
  return { warehouse, endpoints };
}

// A warehouse client with the shop's saved key, for a request the merchant is waiting on (a page's loader or
// action: a SKU's movements, a street look-up, an inbound delivery request), sharing the key's rate limits
// with the engine. One place for what each of them needs: the key read (a key that cannot be decrypted is
// logged and taken as none), no client while the shop is paused, and a bounded wait for the limits. The
// client itself is made by the one factory beside it, shop-client.server.ts.
import type { AppContext } from "../context.server";
import type { WarehouseClient, WarehouseEndpoints } from "../warehouse/client.server";
import { shopWarehouseClient } from "./shop-client.server";
import { warehouseAccess, type WarehouseAccess } from "../settings/settings.server";

export interface SavedKeyDeps extends Pick<AppContext, "db" | "log" | "clock" | "encryptionKey"> {
  /** Overrides of the configured endpoints (tests). */
  endpoints?: Partial<WarehouseEndpoints>;
  fetch?: typeof fetch;
}

export interface SavedKeyClient {
  access: WarehouseAccess;
  warehouse: WarehouseClient;
  endpoints: WarehouseEndpoints;
}

/**
 * The client, or null when no usable key is saved (none, the shop paused for a refused key, or one that
 * cannot be read). `maxLimiterWaitMs`: how long the merchant may wait for the key's limits; `timeoutMs`: a
 * shorter timeout than the configured one, for a read that can simply be asked again.
 */
export async function savedKeyClient(
  deps: SavedKeyDeps,
  shop: string,
  options: { maxLimiterWaitMs: number; timeoutMs?: number },
): Promise<SavedKeyClient | null> {
  let access: WarehouseAccess | null;
  try {
    access = await warehouseAccess(deps.db, shop, deps);
  } catch (error) {
    deps.log.warn(
      { shop, event: "warehouse.key_unreadable", err: error },
      "the saved warehouse key could not be read",
    );
    return null;
  }
  if (!access) return null;
  const { warehouse, endpoints } = shopWarehouseClient({
    db: deps.db,
    clock: deps.clock,
    shop,
    apiKey: access.apiKey,
    maxLimiterWaitMs: options.maxLimiterWaitMs,
    ...(deps.endpoints && { endpoints: deps.endpoints }),
    ...(options.timeoutMs !== undefined && { maxTimeoutMs: options.timeoutMs }),
    ...(deps.fetch && { fetch: deps.fetch }),
  });
  return { access, warehouse, endpoints };
}

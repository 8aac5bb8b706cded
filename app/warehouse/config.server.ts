// The warehouse endpoints from the environment, for code that builds a client in the app.
import { env } from "../env.server";
import type { WarehouseEndpoints } from "./client.server";

export function warehouseEndpoints(): WarehouseEndpoints {
  const { WAREHOUSE_API_URL, WAREHOUSE_API_V2_URL, WAREHOUSE_TIMEOUT_MS } = env();
  return { baseUrl: WAREHOUSE_API_URL, baseUrlV2: WAREHOUSE_API_V2_URL, timeoutMs: WAREHOUSE_TIMEOUT_MS };
}

// The warehouse endpoints from the environment, for code that builds a client in the app.
import { env, type Env } from "../env.server";
import type { WarehouseEndpoints } from "./client.server";

export function warehouseEndpoints(source: Env = env()): WarehouseEndpoints {
  return {
    baseUrl: source.WAREHOUSE_API_URL,
    baseUrlV2: source.WAREHOUSE_API_V2_URL,
    timeoutMs: source.WAREHOUSE_TIMEOUT_MS,
  };
}

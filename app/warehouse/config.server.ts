// The warehouse endpoints from the environment, for code that builds a client in the app, and how long a
// shutdown may wait for the requests still out to it.
import { env, type Env } from "../env.server";
import type { WarehouseEndpoints } from "./client.server";

export function warehouseEndpoints(source: Env = env()): WarehouseEndpoints {
  return {
    baseUrl: source.WAREHOUSE_API_URL,
    baseUrlV2: source.WAREHOUSE_API_V2_URL,
    timeoutMs: source.WAREHOUSE_TIMEOUT_MS,
  };
}

/** Beyond the warehouse's timeout: recording the last answers, releasing leases, closing the database. */
export const SHUTDOWN_MARGIN_MS = 5_000;

/**
 * How long the worker process may take to stop: a request it sent just before the signal may take the
 * whole warehouse timeout, and its answer must be recorded, or the order is left in doubt for nothing.
 */
export function workerShutdownGraceMs(source: Env = env()): number {
  return source.WAREHOUSE_TIMEOUT_MS + SHUTDOWN_MARGIN_MS;
}

/**
 * How long the web process may take to stop. It first lets its HTTP requests finish (one may be waiting
 * on the warehouse itself, a key being checked, say), and only then stops its worker, whose requests
 * may take as long again.
 */
export function webShutdownGraceMs(source: Env = env()): number {
  return 2 * source.WAREHOUSE_TIMEOUT_MS + SHUTDOWN_MARGIN_MS;
}

// The one place the work engine is assembled from the parsed environment, for the web process (entry.server)
// and for `npm run worker` alike, so the two can never run with different limits or timings.
import { finishIncompleteComplianceRequests } from "../compliance/compliance.server";
import { personalDataOfIdleShops } from "../compliance/retention.server";
import type { AppContext } from "../context.server";
import { referenceUpkeep, referenceWork } from "../reference/refresh.server";
import type { Env } from "../env.server";
import { createShopAdmin, type AdminWait, type ShopAdmin } from "../shopify/admin-graphql.server";
import { warehouseEndpoints } from "../warehouse/config.server";
import type { PeriodicTask } from "./steps";
import { createWorker, pruneWebhookEvents, type Worker, type WorkerOptions } from "./worker.server";

/** The engine's settings that come from the environment. */
export function engineSettings(
  source: Env,
): Pick<WorkerOptions, "endpoints" | "rateLimits" | "sweepIntervalMs" | "leaseTtlMs" | "inDoubt"> {
  return {
    endpoints: warehouseEndpoints(source),
    rateLimits: { windowMs: source.WAREHOUSE_RATE_WINDOW_MS },
    inDoubt: {
      missBelievedAfterMs: source.WAREHOUSE_IN_DOUBT_AFTER_MS,
      // ReportStatusOrder goes once a rate-limit window: looking again sooner would only wait for it.
      lookupIntervalMs: source.WAREHOUSE_RATE_WINDOW_MS,
    },
    sweepIntervalMs: source.WORKER_SWEEP_MS,
    leaseTtlMs: source.WORKER_LEASE_TTL_MS,
  };
}

/**
 * The shop's Admin API client for background work: the library's offline session for the shop (refreshed
 * when it expires), throttling waited out (by `wait`, the engine's, when given). Imported on first use, so a worker without Shopify work never
 * loads the app's Shopify configuration.
 */
export async function offlineShopAdmin(
  shop: string,
  signal: AbortSignal,
  wait?: AdminWait,
): Promise<ShopAdmin> {
  const { unauthenticated } = await import("../shopify.server");
  const { admin } = await unauthenticated.admin(shop);
  return createShopAdmin(admin.graphql, { signal, ...(wait && { sleep: wait }) });
}

/** Compliance requests recorded but left unfinished (a crash mid-erasure) are finished by the sweep. */
export const finishComplianceRequests: PeriodicTask = {
  name: "finish_compliance_requests",
  everyMs: 5 * 60_000,
  async run(deps) {
    await finishIncompleteComplianceRequests(deps);
  },
};

export function createEngine(
  context: AppContext,
  source: Env,
  overrides: Partial<Omit<WorkerOptions, "db" | "log" | "clock">> = {},
): Worker {
  return createWorker({
    ...context,
    ...engineSettings(source),
    admin: offlineShopAdmin,
    periodic: [pruneWebhookEvents, finishComplianceRequests, referenceUpkeep, personalDataOfIdleShops],
    ...overrides,
    // Here rather than among the worker's own kinds: a worker a test starts fetches the whole branch list
    // (tens of thousands of records) only when the test asks for this kind.
    kinds: [referenceWork, ...(overrides.kinds ?? [])],
  });
}

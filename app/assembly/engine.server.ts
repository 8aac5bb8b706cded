// The one place the work engine is built from the parsed environment, for the web process (entry.server)
// and for `npm run worker` alike, so the two can never run with different limits or timings. Its kinds of
// work and periodic tasks come from the assembly (assembly.server.ts); this module names none of them.
import type { AppContext } from "../context.server";
import { databaseFlavour } from "../db/flavour";
import type { Env } from "../env.server";
import { createShopAdmin, type AdminWait, type ShopAdmin } from "../shopify/admin-graphql.server";
import { warehouseEndpoints } from "../warehouse/config.server";
import { createWorker, ENGINE_KINDS, ENGINE_PERIODIC_TASKS, type WorkerOptions } from "./assembly.server";
import { createWakeListener, type WakeListener, type WakeMessage } from "../work/wake-channel.server";
import type { Worker } from "../work/worker.server";

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

/**
 * The engine, and on PostgreSQL its ear for wake-ups from other processes (decision 022): any process may
 * take a webhook in (web with WORKER=off has no engine of its own) and NOTIFY; every engine on the database
 * hears it and wakes itself, one of them taking the shop's lease. Heard from the engine's start to its stop.
 */
export function createEngine(
  context: AppContext,
  source: Env,
  overrides: Partial<Omit<WorkerOptions, "db" | "log" | "clock">> = {},
): Worker {
  const worker = createWorker({
    ...context,
    ...engineSettings(source),
    admin: offlineShopAdmin,
    periodic: [...ENGINE_PERIODIC_TASKS],
    ...overrides,
    kinds: [...ENGINE_KINDS, ...(overrides.kinds ?? [])],
  });
  if (databaseFlavour(source.DATABASE_URL) !== "postgresql") return worker;
  return withWakeListener(
    worker,
    createWakeListener({
      connectionString: source.DATABASE_URL,
      log: context.log,
      onMessage: (message) => wakeFromMessage(worker, message),
    }),
  );
}

/** What a heard message asks of the engine. */
export function wakeFromMessage(worker: Worker, message: WakeMessage): void {
  if (message.reason === "shop_changed") worker.shopChanged(message.shop, "heard");
  else worker.wake(message.shop, message.reason, "heard");
}

/** The engine, listening while it runs: the listener starts with it and is closed by its graceful stop. */
export function withWakeListener(worker: Worker, listener: WakeListener): Worker {
  return {
    get holder() {
      return worker.holder;
    },
    start() {
      listener.start();
      worker.start();
    },
    async stop() {
      await Promise.all([listener.stop(), worker.stop()]);
    },
    wake: (shop, reason, heard) => worker.wake(shop, reason, heard),
    shopChanged: (shop, heard) => worker.shopChanged(shop, heard),
    sweep: () => worker.sweep(),
  };
}

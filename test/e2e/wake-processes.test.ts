// Waking a worker in another process (decision 022): the compose layout, where the web process that takes
// a webhook in runs no engine (WORKER=off) and `npm run worker` runs apart on PostgreSQL. The worker sweeps
// only once a minute (the most WORKER_SWEEP_MS allows), and the store whose order is awaited appears after
// its first sweep, so no loop of the worker's was running for it: only the web side's NOTIFY (the settings
// save's and the order's) can explain an order accepted within the wait below. Without it, this times out.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { databaseFlavour } from "../../app/db/flavour";
import { takeInOrderDelivery } from "../../app/webhooks/orders.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { createWakeNotifier } from "../../app/work/wake-channel.server";
import { installWakeNotifier, shopChanged, wakeWorker } from "../../app/work/worker.server";
import { saveSettings } from "../../app/settings/settings.server";
import { defaultReferenceData, KYIV_CITY_REF, referenceDataOf } from "../warehouse-sim/reference-data";
import { eventually, orderPayload, SCALED_LIMITS, SHOP, startOrderFlow, type OrderFlow } from "./harness";

const KYIV_ONLY = referenceDataOf(defaultReferenceData(), [defaultReferenceData().cityByRef(KYIV_CITY_REF)!]);
const onPostgres = databaseFlavour(process.env.DATABASE_URL ?? "file:") === "postgresql";
let flow: OrderFlow | undefined;
const children: ChildProcess[] = [];
const workerLog: string[] = [];

afterEach(async () => {
  installWakeNotifier(undefined);
  for (const child of children.splice(0)) child.kill("SIGKILL");
  workerLog.length = 0;
  await flow?.close();
  flow = undefined;
});

function startWorkerProcess(sim: OrderFlow["sim"]): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    env: {
      ...process.env,
      WAREHOUSE_API_URL: sim.url,
      WAREHOUSE_API_V2_URL: sim.urlV2,
      WORKER_SWEEP_MS: "60000",
      WORKER_LEASE_TTL_MS: "300000",
      WAREHOUSE_RATE_WINDOW_MS: String(SCALED_LIMITS.windowMs),
      LOG_LEVEL: "debug",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout!.on("data", (chunk: Buffer) => workerLog.push(...chunk.toString().trim().split("\n")));
  children.push(child);
  return child;
}

/** The web side's intake of one orders/create delivery: the path the webhook route takes. */
async function deliver(shop: string, n: number) {
  const response = await takeInOrderDelivery("orders/create", {
    shop,
    eventId: `event-${shop}-${n}`,
    webhookId: `webhook-${shop}-${n}`,
    payload: shopifyOrderSchema.parse(orderPayload(n)),
  });
  expect(response.status).toBe(200);
}

function acceptedOf(shop: string): Promise<number> {
  return appContext().db.warehouseOrder.count({ where: { shop, state: "accepted" } });
}

/** Another store on the simulator's account (its own id_order prefix), installed and set up from the web side. */
async function installShop(shop: string, prefix: string) {
  const { db } = appContext();
  await db.shop.create({
    data: {
      shop,
      name: shop,
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date(),
    },
  });
  // As Settings saves it: the save tells the workers the shop changed.
  const saved = await saveSettings({ ...appContext(), wake: wakeWorker, shopChanged }, shop, {
    apiKey: flow!.sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: { idOrderPrefix: prefix },
  });
  expect(saved.ok).toBe(true);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  try {
    await eventually(check, what, timeoutMs);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\nworker log (last 30 lines):\n${workerLog.slice(-30).join("\n")}`,
    );
  }
}

describe("waking a worker in another process", () => {
  it.runIf(onPostgres)(
    "an order taken in by a process without an engine is sent by a worker process long before its sweep",
    async () => {
      // This process is the web instance with WORKER=off: no engine, the notifier app/entry.server installs.
      flow = await startOrderFlow({
        noWorker: true,
        simulator: { rateLimits: SCALED_LIMITS, referenceData: KYIV_ONLY },
      });
      installWakeNotifier(createWakeNotifier(appContext()));
      // The first order before the worker starts: its first sweep sends it, so what follows comes after
      // that sweep, with the next a minute away.
      await deliver(SHOP, 1);
      startWorkerProcess(flow.sim);
      await waitFor(
        "the first sweep to send the first order",
        async () => (await acceptedOf(SHOP)) === 1,
        60_000,
      );
      await waitFor(
        "the worker to listen for wake-ups",
        () => Promise.resolve(workerLog.some((line) => line.includes('"worker.wake_listener_ready"'))),
        30_000,
      );

      // A store the sweep has never seen (its loop cannot be running): set up and sent an order from here.
      const other = "lviv-goods.myshopify.com";
      await installShop(other, "L");
      await deliver(other, 2);
      await waitFor(
        "the new store's order to be accepted",
        async () => (await acceptedOf(other)) === 1,
        20_000,
      );
      expect(flow.sim.orders()).toHaveLength(2);
    },
    150_000,
  );
});

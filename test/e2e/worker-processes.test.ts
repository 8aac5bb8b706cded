// The worker as its own process (`npm run worker`): killed with SIGKILL in the middle of a batch and
// started again, nothing is lost or sent twice; two of them on one PostgreSQL database send each order
// exactly once, and make each order's Shopify fulfillment once, one of them killed while they do.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { databaseFlavour } from "../../app/db/flavour";
import { retryOrders } from "../../app/orders/actions.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { ATTENTION } from "../../app/orders/states";
import { saveSettings } from "../../app/settings/settings.server";
import { requestStatusCheck } from "../../app/statuses/kinds.server";
import { saveStatusSettings } from "../../app/statuses/settings.server";
import { startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { addFlowOrder } from "./shopify-shop";
import { defaultReferenceData, KYIV_CITY_REF, referenceDataOf } from "../warehouse-sim/reference-data";
import {
  eventually,
  orderPayload,
  ordersInState,
  SCALED_LIMITS,
  SHOP,
  startOrderFlow,
  type OrderFlow,
} from "./harness";

// The orders go to Kyiv's branches; the workers' reference refresh then stores Kyiv alone, not the country.
const KYIV_ONLY = referenceDataOf(defaultReferenceData(), [defaultReferenceData().cityByRef(KYIV_CITY_REF)!]);
const onPostgres = databaseFlavour(process.env.DATABASE_URL ?? "file:") === "postgresql";
let flow: OrderFlow | undefined;
let fake: ShopifyFake | undefined;
const children: ChildProcess[] = [];
const workerLog: string[] = [];

/** Waits like `eventually`, and on a timeout says where the orders stand and what the workers logged. */
async function waitForAll(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  try {
    await eventually(check, what, timeoutMs);
  } catch (error) {
    const states = await appContext().db.warehouseOrder.groupBy({ by: ["state"], _count: true });
    const leases = await appContext().db.workLease.findMany();
    throw new Error(
      `${(error as Error).message} at ${new Date().toISOString()}\norders: ${JSON.stringify(states)}\nleases: ${JSON.stringify(leases)}\nsimulator: ${JSON.stringify(
        flow?.sim.stats().requests,
      )}\nworker log (last 40 lines):\n${workerLog
        .filter((line) => !line.includes("worker.sweep"))
        .slice(-40)
        .join("\n")}`,
    );
  }
}
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  workerLog.length = 0;
  await flow?.close();
  flow = undefined;
  await fake?.close();
  fake = undefined;
});

/** `shopifyUrl`: the Shopify fake the worker's Admin API calls go to (test/support/child-network.ts). */
function startWorkerProcess(sim: OrderFlow["sim"], shopifyUrl?: string): ChildProcess {
  const preload = shopifyUrl ? ["--import", "./test/support/child-network.ts"] : [];
  const child = spawn(process.execPath, ["--import", "tsx", ...preload, "scripts/worker.ts"], {
    env: {
      ...process.env,
      ...(shopifyUrl && { TEST_SHOPIFY_FAKE_URL: shopifyUrl }),
      WAREHOUSE_API_URL: sim.url,
      WAREHOUSE_API_V2_URL: sim.urlV2,
      WORKER_SWEEP_MS: "100",
      WORKER_LEASE_TTL_MS: "1500",
      WAREHOUSE_RATE_WINDOW_MS: String(SCALED_LIMITS.windowMs),
      // A killed batch that never left is not at the warehouse: believe its misses at once, here.
      WAREHOUSE_IN_DOUBT_AFTER_MS: "0",
      LOG_LEVEL: "debug",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // Kept to explain a failure: what each worker did, one JSON line per event.
  child.stdout!.on("data", (chunk: Buffer) => workerLog.push(...chunk.toString().trim().split("\n")));
  children.push(child);
  return child;
}

async function takeIn(shop: string, n: number, changes: Record<string, unknown> = {}) {
  await takeInOrderWebhook(appContext(), {
    shop,
    topic: "orders/create",
    eventId: `event-${shop}-${n}`,
    order: shopifyOrderSchema.parse(orderPayload(n, changes)),
  });
}

/** Another store on the simulator's warehouse account, told apart by its id_order prefix. */
async function addShop(shop: string, prefix: string) {
  const { db } = appContext();
  if (!(await db.shop.findUnique({ where: { shop } }))) {
    await db.shop.create({
      data: {
        shop,
        name: shop,
        currencyCode: "UAH",
        ianaTimezone: "Europe/Kyiv",
        primaryLocale: "uk",
        scopes: "read_orders",
        installedAt: new Date(Date.now() - 3600_000),
      },
    });
  }
  const saved = await saveSettings(appContext(), shop, {
    apiKey: flow!.sim.apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: { idOrderPrefix: prefix },
  });
  expect(saved.ok).toBe(true);
  // The simulator's account answers batches as expected (test/e2e/order-rules proves it).
  await db.shopSettings.update({ where: { shop }, data: { batchProof: "proven" } });
}

describe("worker processes", () => {
  // PostgreSQL only: separate worker processes are a PostgreSQL deployment (README). On SQLite, with the
  // test process holding the same file open, the restarted worker's queries sometimes stop answering
  // after the kill (no error, no progress); a SQLite deployment runs one process, so it is noted as open.
  it.runIf(onPostgres)(
    "loses and doubles nothing when killed with SIGKILL mid-batch and started again",
    async () => {
      flow = await startOrderFlow({
        noWorker: true,
        simulator: { rateLimits: SCALED_LIMITS, referenceData: KYIV_ONLY },
      });
      for (let n = 1; n <= 250; n++) await takeIn(SHOP, n);
      // Each answer takes a while, so the kill lands while a batch is at the warehouse.
      flow.sim.faults.setDelay(1_000);

      const first = startWorkerProcess(flow.sim);
      await eventually(
        () => (flow!.sim.stats().requests.AddOrder ?? 0) >= 2,
        "the second batch to be sent",
        30_000,
      );
      first.kill("SIGKILL");
      await new Promise((resolve) => first.once("exit", resolve));
      const sentBeforeKill = flow.sim.orders().length;
      expect(await ordersInState("submitting")).toBeGreaterThan(0);
      expect(sentBeforeKill).toBeLessThan(250);

      flow.sim.faults.setDelay(0);
      startWorkerProcess(flow.sim);
      // Orders of the killed batches are found at the warehouse; any claimed but never sent are not, and
      // go to the merchant, who sends them again (never the worker on a guess).
      const { db } = appContext();
      const flagged = () =>
        db.warehouseOrder.findMany({ where: { attention: ATTENTION.notAtWarehouse }, select: { id: true } });
      await waitForAll(
        "every order accepted or handed to the merchant",
        async () => (await ordersInState("accepted")) + (await flagged()).length === 250,
        90_000,
      );
      const toResend = (await flagged()).map((row) => row.id);
      if (toResend.length) await retryOrders(appContext(), SHOP, toResend);
      await waitForAll(
        "all 250 to be accepted",
        async () => (await ordersInState("accepted")) === 250,
        90_000,
      );
      expect(flow.sim.orders()).toHaveLength(250);
      expect(flow.sim.stats().duplicateIdOrders).toBe(0);
      // The interrupted batch was looked up, not blindly sent again.
      expect(await appContext().db.orderEvent.count({ where: { kind: "in_doubt" } })).toBeGreaterThan(0);
    },
    150_000,
  );

  it.runIf(onPostgres)(
    "two workers on PostgreSQL send each of 1,000 orders of four shops exactly once",
    async () => {
      flow = await startOrderFlow({
        noWorker: true,
        simulator: { rateLimits: SCALED_LIMITS, referenceData: KYIV_ONLY },
      });
      const { db } = appContext();
      // Four stores sharing one warehouse account, told apart by their id_order prefix.
      const shops = [
        SHOP,
        "lviv-goods.myshopify.com",
        "odesa-goods.myshopify.com",
        "kharkiv-goods.myshopify.com",
      ];
      for (const [index, shop] of shops.entries()) {
        if (shop !== SHOP) {
          await db.shop.create({
            data: {
              shop,
              name: shop,
              currencyCode: "UAH",
              ianaTimezone: "Europe/Kyiv",
              primaryLocale: "uk",
              scopes: "read_orders",
              installedAt: new Date(Date.now() - 3600_000),
            },
          });
        }
        const saved = await saveSettings(appContext(), shop, {
          apiKey: flow.sim.apiKey,
          environment: "production",
          batchAddOrder: true,
          mapping: { idOrderPrefix: `S${index}-` },
        });
        expect(saved.ok).toBe(true);
        // The simulator's account answers batches as expected (test/e2e/order-rules proves it); proven
        // here, the request count below is the batches' alone, not the proof's.
        await db.shopSettings.update({ where: { shop }, data: { batchProof: "proven" } });
        for (let n = 1; n <= 250; n++) await takeIn(shop, n);
      }
      expect(await ordersInState("ready")).toBe(250);

      startWorkerProcess(flow.sim);
      startWorkerProcess(flow.sim);
      await waitForAll(
        "all 1,000 to be accepted",
        async () => (await db.warehouseOrder.count({ where: { state: "accepted" } })) === 1_000,
        90_000,
      );
      expect(flow.sim.orders()).toHaveLength(1_000);
      expect(flow.sim.stats().duplicateIdOrders).toBe(0);
      expect(flow.sim.stats().requests.AddOrder).toBe(12);
    },
    120_000,
  );

  it.runIf(onPostgres)(
    "two workers on PostgreSQL make each order's Shopify fulfillment once, one of them killed meanwhile",
    async () => {
      flow = await startOrderFlow({
        noWorker: true,
        simulator: { rateLimits: SCALED_LIMITS, referenceData: KYIV_ONLY },
      });
      fake = await startShopifyFake();
      const { db } = appContext();
      const shops = [SHOP, "lviv-goods.myshopify.com", "odesa-goods.myshopify.com"];
      const perShop = 40;
      const fakeOrders: { fulfillmentIds: string[] }[] = [];
      for (const [index, shop] of shops.entries()) {
        await addShop(shop, `F${index}-`);
        const store = fake.state.addShop({ domain: shop, accessToken: `shpat_two_workers_${index}` });
        await db.session.create({
          data: { id: `offline_${shop}`, shop, state: "", accessToken: store.shop.accessToken, scope: "" },
        });
        const warehouse = store.addLocation({ name: "Склад" });
        const located = await saveStatusSettings(appContext(), shop, { locationId: warehouse.id }, [
          { id: warehouse.id, name: warehouse.name },
        ]);
        expect(located.ok).toBe(true);
        for (let n = 1; n <= perShop; n++) {
          const { order } = addFlowOrder(store, warehouse.id);
          fakeOrders.push(order);
          const id = Number(order.id.split("/").at(-1));
          await takeIn(shop, n, { id, admin_graphql_api_id: order.id });
        }
      }
      const total = shops.length * perShop;

      const first = startWorkerProcess(flow.sim, fake.url);
      startWorkerProcess(flow.sim, fake.url);
      await waitForAll(
        "every order to be accepted",
        async () => (await db.warehouseOrder.count({ where: { state: "accepted" } })) === total,
        90_000,
      );
      // Shipped at the warehouse, each with its waybill, and notified: what the notification address
      // records (test/e2e/warehouse-notify.test.ts), a hint on each order and a check asked for now.
      for (const row of await db.warehouseOrder.findMany({ select: { idOrder: true } })) {
        flow.sim.advanceOrder({ id_order: row.idOrder, to: "shipped" });
      }
      const notifiedAt = new Date();
      await db.warehouseOrder.updateMany({ data: { statusHintAt: notifiedAt } });
      for (const shop of shops) await requestStatusCheck(db, shop, notifiedAt);

      const fulfilled = () => fakeOrders.filter((order) => order.fulfillmentIds.length > 0).length;
      await waitForAll("the first fulfillments", async () => fulfilled() > 0, 60_000);
      first.kill("SIGKILL");
      await waitForAll(
        "every order fulfilled in Shopify and recorded",
        async () =>
          (await db.warehouseOrder.count({
            where: { fulfillmentId: { not: null }, fulfillmentDueAt: null },
          })) === total,
        90_000,
      );
      expect(fulfilled()).toBe(total);
      // Once each: a fulfillment whose answer the kill lost was found again by its waybill.
      expect(fakeOrders.filter((order) => order.fulfillmentIds.length !== 1)).toEqual([]);
      const rows = await db.warehouseOrder.findMany({ select: { fulfillmentId: true } });
      expect(new Set(rows.map((row) => row.fulfillmentId)).size).toBe(total);
    },
    180_000,
  );
});

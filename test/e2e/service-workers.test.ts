// Fulfillment-service mode with two worker processes (`npm run worker`) on one PostgreSQL database: the
// merchant's fulfillment requests are made in the Shopify fake, Shopify's signed pings reach the app's own
// callback route over HTTP (each sent twice, as a redelivery), and every request is accepted exactly once,
// after the warehouse took its order, whichever worker read it first.
import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { databaseFlavour } from "../../app/db/flavour";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { saveSettings } from "../../app/settings/settings.server";
import {
  configureServiceCallbacks,
  createFulfillmentService,
  deliverServiceCallbacks,
  serviceAnswers,
  startShopifyFake,
  submitFulfillmentRequest,
  type ShopifyFake,
} from "../shopify-fake";
import { startRouteServer, type RouteServer } from "../support/route-server";
import { defaultReferenceData, KYIV_CITY_REF, referenceDataOf } from "../warehouse-sim/reference-data";
import { eventually, SCALED_LIMITS, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { addFlowOrder, flowOrderPayload } from "./shopify-shop";

const KYIV_ONLY = referenceDataOf(defaultReferenceData(), [defaultReferenceData().cityByRef(KYIV_CITY_REF)!]);
const onPostgres = databaseFlavour(process.env.DATABASE_URL ?? "file:") === "postgresql";
const ORDERS = 30;

let flow: OrderFlow | undefined;
let fake: ShopifyFake | undefined;
let appRoutes: RouteServer | undefined;
const children: ChildProcess[] = [];
const workerLog: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  workerLog.length = 0;
  await flow?.close();
  flow = undefined;
  await fake?.close();
  fake = undefined;
  await appRoutes?.close();
  appRoutes = undefined;
});

function startWorkerProcess(sim: OrderFlow["sim"], shopifyUrl: string): ChildProcess {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", "./test/support/child-network.ts", "scripts/worker.ts"],
    {
      env: {
        ...process.env,
        TEST_SHOPIFY_FAKE_URL: shopifyUrl,
        WAREHOUSE_API_URL: sim.url,
        WAREHOUSE_API_V2_URL: sim.urlV2,
        WORKER_SWEEP_MS: "100",
        WORKER_LEASE_TTL_MS: "1500",
        WAREHOUSE_RATE_WINDOW_MS: String(SCALED_LIMITS.windowMs),
        LOG_LEVEL: "debug",
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  child.stdout!.on("data", (chunk: Buffer) => workerLog.push(...chunk.toString().trim().split("\n")));
  children.push(child);
  return child;
}

/** Waits like `eventually`, and on a timeout says where the orders and answers stand. */
async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  try {
    await eventually(check, what, timeoutMs);
  } catch (error) {
    const { db } = appContext();
    const states = await db.warehouseOrder.groupBy({ by: ["state", "waitReason"], _count: true });
    const rows = await db.shopifyFulfillmentOrder.groupBy({
      by: ["requestStatus", "answered"],
      _count: true,
    });
    throw new Error(
      `${(error as Error).message}\norders: ${JSON.stringify(states)}\nfulfillment orders: ${JSON.stringify(rows)}\nworker log (last 30 lines):\n${workerLog
        .filter((line) => !line.includes("worker.sweep"))
        .slice(-30)
        .join("\n")}`,
    );
  }
}

// PostgreSQL only: separate worker processes are a PostgreSQL deployment (README; worker-processes.test.ts).
it.runIf(onPostgres)(
  "two workers on PostgreSQL accept each fulfillment request exactly once, its pings redelivered",
  async () => {
    flow = await startOrderFlow({
      noWorker: true,
      simulator: { rateLimits: SCALED_LIMITS, referenceData: KYIV_ONLY },
    });
    fake = await startShopifyFake();
    appRoutes = await startRouteServer();
    // The service's callbackUrl reaches the app's routes on loopback; pings are signed with the app's secret.
    configureServiceCallbacks(fake.state, { callbackOrigin: appRoutes.url });
    const { db } = appContext();
    const saved = await saveSettings(appContext(), SHOP, {
      apiKey: flow.sim.apiKey,
      environment: "production",
      batchAddOrder: true,
      mapping: { idOrderPrefix: "SV-" },
    });
    expect(saved.ok).toBe(true);
    await db.shopSettings.update({ where: { shop: SHOP }, data: { batchProof: "proven" } });
    const store = fake.state.addShop({ domain: SHOP, accessToken: "shpat_service_workers" });
    await db.session.create({
      data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken: store.shop.accessToken, scope: "" },
    });
    store.addLocation({ name: "Магазин" });
    const made = createFulfillmentService(store, {
      name: "Sklad Sync",
      callbackUrl: "https://app.test/fulfillment-service",
      trackingSupport: true,
    });
    const service = made.service!;
    // Service mode, as the settings' choice saves it: the service's location stands for the warehouse.
    await db.shopSettings.update({
      where: { shop: SHOP },
      data: {
        fulfillmentMode: "service",
        fulfillmentServiceId: service.id,
        locationId: service.locationId,
        onlineLocations: JSON.stringify([service.locationId]),
      },
    });

    const fulfillmentOrders: string[] = [];
    for (let n = 1; n <= ORDERS; n++) {
      const { order, fulfillmentOrder } = addFlowOrder(store, service.locationId, `#${1000 + n}`);
      fulfillmentOrders.push(fulfillmentOrder.id);
      await takeInOrderWebhook(appContext(), {
        shop: SHOP,
        topic: "orders/create",
        eventId: `service-workers-${n}`,
        order: shopifyOrderSchema.parse(flowOrderPayload(store, order.id)),
      });
    }
    startWorkerProcess(flow.sim, fake.url);
    startWorkerProcess(flow.sim, fake.url);

    // The merchant requests fulfillment of each; Shopify pings the service twice for each request.
    for (const id of fulfillmentOrders) {
      expect(submitFulfillmentRequest(store, id).userErrors).toEqual([]);
    }
    const first = await deliverServiceCallbacks(fake.state, store);
    expect(first.map((ping) => ping.status)).toEqual(fulfillmentOrders.map(() => 200));
    const again = await fetch(`${fake.url}/__control/services/notifications`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shop: SHOP, kind: "FULFILLMENT_REQUEST", times: 3 }),
    });
    expect(again.status).toBe(200);

    const accepted = () =>
      fulfillmentOrders.filter((id) => store.fulfillmentOrders.get(id)?.requestStatus === "ACCEPTED").length;
    await waitFor("every request accepted", () => accepted() === ORDERS, 120_000);
    // Every order went to the warehouse once, and each request was answered once, by one worker's one call.
    expect(flow.sim.orders()).toHaveLength(ORDERS);
    expect(flow.sim.stats().duplicateIdOrders).toBe(0);
    await waitFor(
      "every answer recorded",
      async () =>
        (await db.shopifyFulfillmentOrder.count({
          where: { shop: SHOP, answered: "accept", answer: null },
        })) === ORDERS,
      30_000,
    );
    const answers = serviceAnswers(store);
    expect(answers.filter((answer) => answer.refused !== null)).toEqual([]);
    for (const id of fulfillmentOrders) {
      expect(answers.filter((answer) => answer.fulfillmentOrderId === id).map((a) => a.mutation)).toEqual([
        "fulfillmentOrderAcceptFulfillmentRequest",
      ]);
    }
    expect(await db.warehouseOrder.count({ where: { shop: SHOP, state: "accepted" } })).toBe(ORDERS);
  },
  180_000,
);

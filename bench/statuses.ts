// `npm run bench:statuses`: 10,000 accepted orders all shipped at the warehouse at once, and the time until
// every one is fulfilled in the Shopify fake with its waybill. The warehouse (the simulator, its own
// process) allows one ReportStatusOrder a window, and the window is scaled from a minute to four seconds
// (BENCH_WINDOW_MS): at a shorter one, the limiter's own margin (about 0.27 s a report, docs/benchmarks.md)
// is more than a tenth of the window, a share it never is of the real minute; Shopify's bucket restores BENCH_SHOPIFY_RESTORE points a second. No notification
// reaches the app: every order is found by polling, as if each notification had been lost, so the report
// pacing is what is measured. `minimumS` is the least time those limits allow: the reports the orders
// need, one a window after the first, or the Shopify points they cost at the restore rate, whichever is
// longer. Then, at the simulator's real limits, `notifyToFulfilledP50S`: 20 orders of an idle shop shipped
// and notified, each from its notification's arrival to its fulfillment in the fake. The fake runs in a
// process of its own too, so the app's thread carries only the app.
// Prints one JSON object as its last line.
import {
  percentile,
  prepareBenchEnvironment,
  round,
  benchShopInFake,
  startShopifyFakeProcess,
  startSimulatorProcess,
} from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 4_000);
const RESTORE = Number(process.env.BENCH_SHOPIFY_RESTORE ?? 20_000);
const IDLE_ORDERS = Number(process.env.BENCH_IDLE_ORDERS ?? 20);
const TARGET_RATIO = 1.1;

await prepareBenchEnvironment();
const { installNetworkGuard, routeShopifyTo } = await import("../test/support/network");
const { FLOW_LINES, FLOW_PRODUCTS, orderPayload, startOrderFlow, SHOP } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { offlineShopAdmin } = await import("../app/assembly/engine.server");
const { takeInOrderWebhook } = await import("../app/orders/intake.server");
const { shopifyOrderSchema } = await import("../app/orders/payload");
const { saveStatusSettings } = await import("../app/statuses/settings.server");
const { requestStatusCheck } = await import("../app/statuses/kinds.server");
const { notifyAddress } = await import("../app/statuses/notify-token.server");
const { wakeWorker } = await import("../app/work/worker.server");
const { DEFAULT_STATUS_SETTINGS } = await import("../app/statuses/settings");
const { WAREHOUSE_RATE_LIMITS } = await import("../app/warehouse/limiter.server");
const { db } = appContext();

installNetworkGuard();
const fake = await startShopifyFakeProcess({
  restoreRate: RESTORE,
  maximumAvailable: Math.max(2_000, RESTORE),
});
routeShopifyTo(fake.url);
const warehouse = await benchShopInFake(fake, db, SHOP);
// The store's orders hold what the app's do, by SKU: a fulfillment carries what the warehouse was sent.
await fake.control("products", {
  shop: SHOP,
  locationId: warehouse.id,
  products: FLOW_PRODUCTS.map(({ sku, name, quantity }) => ({
    title: name,
    variants: [{ sku, available: quantity }],
  })),
});

/** Waits (bounded) until `check` holds, looking every `everyMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs: number, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Takes in `count` orders (each also in the fake store) through intake, and waits until all are accepted. */
async function acceptedOrders(first: number, count: number): Promise<void> {
  const accepted = await db.warehouseOrder.count({ where: { state: "accepted" } });
  const { ids } = await fake.addOrders({
    shop: SHOP,
    count,
    lineItems: FLOW_LINES,
    locationId: warehouse.id,
  });
  for (const [i, id] of ids.entries()) {
    const payload = orderPayload(first + i, {
      id: Number(id.split("/").at(-1)),
      admin_graphql_api_id: id,
    });
    await takeInOrderWebhook(
      { ...appContext(), wake: wakeWorker },
      {
        shop: SHOP,
        topic: "orders/create",
        order: shopifyOrderSchema.parse(payload),
        eventId: `bench-${first + i}`,
      },
    );
  }
  await until(
    async () => (await db.warehouseOrder.count({ where: { state: "accepted" } })) === accepted + count,
    "the orders to be accepted",
    10 * 60_000,
  );
}

// Part 1: the throughput, at scaled limits.
const sim = await startSimulatorProcess();
await sim.control("limits", { windowMs: WINDOW_MS, requestsPerWindow: 60, reportRequestsPerWindow: 1 });
const limits = { windowMs: WINDOW_MS, requestsPerWindow: 60, reportRequestsPerWindow: 1 };
let flow = await startOrderFlow({
  warehouse: sim,
  worker: { rateLimits: limits, admin: offlineShopAdmin, sweepIntervalMs: 1_000 },
});
const location = [{ id: warehouse.id, name: warehouse.name }];
const saved = await saveStatusSettings(appContext(), SHOP, { locationId: warehouse.id }, location);
if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
await acceptedOrders(100_000, ORDERS);
await sim.control("orders/advance-all", { to: "shipped" });
// Every notification lost: each order has gone longer than the polling interval without a look.
await db.warehouseOrder.updateMany({ data: { statusCheckedAt: new Date(Date.now() - 24 * 60 * 60_000) } });
const reportsBefore = (await sim.stats()).requests.ReportStatusOrder ?? 0;
const costBefore = (await fake.stats()).actualCost;
const started = performance.now();
await requestStatusCheck(db, SHOP, new Date());
wakeWorker(SHOP);
await until(
  async () => (await fake.stats()).fulfilledOrders >= ORDERS,
  "every order to be fulfilled",
  60 * 60_000,
  100,
);
const elapsedS = (performance.now() - started) / 1000;
const reportStatusOrderRequests = ((await sim.stats()).requests.ReportStatusOrder ?? 0) - reportsBefore;
const throughput = await fake.stats();
const shopifyPoints = throughput.actualCost - costBefore;
const reportsNeeded = Math.ceil(ORDERS / DEFAULT_STATUS_SETTINGS.idsPerReport);
const minimumS = Math.max(((reportsNeeded - 1) * WINDOW_MS) / 1000, shopifyPoints / RESTORE);
// Closes the simulator too.
await flow.close();

// Part 2: an idle shop at the simulator's real limits, notified.
const realSim = await startSimulatorProcess();
// The flow records the shop afresh, with the new simulator's key. That key is the first simulator's too,
// and the new simulator has seen none of its requests: the shop starts idle on our side as well.
await db.shop.delete({ where: { shop: SHOP } });
await db.rateLimitState.deleteMany();
flow = await startOrderFlow({
  warehouse: realSim,
  // The simulator's real limits on our side too: at the harness's scaled ones, a second report for the
  // notifications that arrive after the first has gone out is sent within the minute and refused 429.
  worker: { admin: offlineShopAdmin, sweepIntervalMs: 2_000, rateLimits: WAREHOUSE_RATE_LIMITS },
});
await saveStatusSettings(appContext(), SHOP, { locationId: warehouse.id }, location);
await acceptedOrders(500_000, IDLE_ORDERS);
const address = await notifyAddress(db, SHOP);
if (!address.ok) throw new Error(address.message.key);
await realSim.control("notification-url", { url: `${flow.app.url}${new URL(address.url).pathname}` });
// Every earlier order is fulfilled by now, so each one more the fake counts is one of the idle shop's.
const fulfilledBefore = (await fake.stats()).fulfilledOrders;
const notifiedAt = Date.now();
await realSim.control("orders/advance-all", { to: "shipped" });
const waits: number[] = [];
await until(
  async () => {
    const fulfilled = (await fake.stats()).fulfilledOrders - fulfilledBefore;
    while (waits.length < fulfilled) waits.push((Date.now() - notifiedAt) / 1000);
    return waits.length >= IDLE_ORDERS;
  },
  "the idle shop's orders to be fulfilled",
  3 * 60_000,
  20,
);
await flow.close();
await fake.close();

console.log(
  JSON.stringify({
    benchmark: "statuses",
    database: process.env.DATABASE_URL?.startsWith("postgres") ? "postgresql" : "sqlite",
    orders: ORDERS,
    fulfilled: throughput.fulfilledOrders,
    duplicates: throughput.extraFulfillments,
    reportStatusOrderRequests,
    windowMs: WINDOW_MS,
    shopifyRestorePerS: RESTORE,
    shopifyPoints,
    elapsedS: round(elapsedS, 1),
    minimumS: round(minimumS, 1),
    ratio: round(elapsedS / minimumS, 3),
    targetRatio: TARGET_RATIO,
    notifyToFulfilledP50S: round(percentile(waits, 50), 2),
    notifyToFulfilledMaxS: round(waits.at(-1) ?? Number.NaN, 2),
    targetNotifyToFulfilledP50S: 65,
  }),
);
process.exit(0);

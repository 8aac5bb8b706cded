// `npm run bench:routing`: 10,000 orders over two locations, the warehouse's and a Kyiv showroom (a fifth wholly
// at the showroom, a tenth split, the rest wholly at the warehouse), placed in the Shopify fake (in this process:
// its routing, its REST orders/create payloads, its fulfillment-order webhooks delivered signed to the app's
// routes), the fake's bucket at a standard shop's (100 points a second restored, its default 2,000 held), the
// warehouse simulator in its own process with its real limits (60 requests a minute), the app's worker with the
// real limits. The orders are recorded and their webhooks delivered first; the clock runs from the worker's
// start until every order the warehouse should get is accepted there, as bench:submit's does.
// Prints (last line, one JSON object): orders, warehouseOrders, linesSentForElsewhere (units the warehouse was
// sent of SKUs the fake assigned elsewhere, from the simulator's orders against the fake's fulfillment orders:
// target 0), duplicates (0), shopifyCostPerOrder (the fake's actual cost over the orders: target <= 5), elapsedS,
// minimumS (the least time the warehouse's limit allows for the warehouse's orders, as bench:submit computes it)
// and ratio (target <= 1.10). BENCH_ORDERS shrinks it for a quick run; BENCH_PROFILE=file writes a CPU profile of
// the measured stretch (the worker's start until the last order is settled), BENCH_CENSUS=1 prints its SQL
// statements' count and CPU per order.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { benchDatabase, prepareBenchEnvironment, round, startSimulatorProcess } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const WINDOW_MS = 60_000;
const SHOWROOM_SKU = "VYSH-KYIV";

await prepareBenchEnvironment();
const census = process.env.BENCH_CENSUS === "1" ? await import("./census") : undefined;
await census?.installStatementCensus();
const { installNetworkGuard, routeShopifyTo } = await import("../test/support/network");
// Before the Shopify library is imported: it keeps the fetch it finds.
installNetworkGuard();
const { FLOW_PRODUCTS, orderPayload, startOrderFlow, SHOP } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { takeInOrderWebhook } = await import("../app/orders/intake.server");
const { shopifyOrderSchema } = await import("../app/orders/payload");
const { WAREHOUSE_RATE_LIMITS } = await import("../app/warehouse/limiter.server");
const { offlineShopAdmin } = await import("../app/assembly/engine.server");
const { FULFILLMENT_ORDERS_KIND } = await import("../app/routing/kinds.server");
const { readRoutingCursor } = await import("../app/routing/work.server");
const { saveStatusSettings } = await import("../app/statuses/settings.server");
const { adminSchema, orderWebhookPayload, startShopifyFake } = await import("../test/shopify-fake");

const fake = await startShopifyFake({ restoreRate: 100, maximumAvailable: 2_000 });
// Built by the fake on its first request otherwise (read from .cache: half a second), inside the clock: the
// fake's own start, not Shopify's answer time nor the app's work.
adminSchema();
routeShopifyTo(fake.url);
// The simulator in its own process, with its real limits: the warehouse does not share our CPU.
const warehouse = await startSimulatorProcess();
const flow = await startOrderFlow({
  noWorker: true,
  warehouse,
  worker: {
    rateLimits: WAREHOUSE_RATE_LIMITS,
    backoff: undefined,
    sweepIntervalMs: 2_000,
    admin: offlineShopAdmin,
  },
});
// The showroom's goods are known to the warehouse too: sent by mistake, they would be taken, and counted here.
await warehouse.seedProducts([{ sku: SHOWROOM_SKU, name: "Вишиванка", quantity: 1_000_000 }]);
const { db } = appContext();

// The shop: the warehouse's location first in routing, the showroom second; the warehouse stocks the cups and
// the tea, the showroom the embroidered shirts only, so routing sends each line to one of them.
const accessToken = "shpat_bench_routing";
const store = fake.state.addShop({ domain: SHOP, accessToken });
await db.session.create({ data: { id: `offline_${SHOP}`, shop: SHOP, state: "", accessToken, scope: "" } });
const depot = store.addLocation({ name: "Склад" });
const showroom = store.addLocation({ name: "Шоурум Київ" });
for (const { sku, name } of FLOW_PRODUCTS)
  store.addProduct({
    title: name,
    variants: [{ sku, price: "100.00", inventory: [{ locationId: depot.id, available: 1_000_000 }] }],
  });
store.addProduct({
  title: "Вишиванка",
  variants: [
    { sku: SHOWROOM_SKU, price: "900.00", inventory: [{ locationId: showroom.id, available: 1_000_000 }] },
  ],
});
const saved = await saveStatusSettings(appContext(), SHOP, { locationId: depot.id }, [
  { id: depot.id, name: depot.name },
]);
if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
await db.shopSettings.update({
  where: { shop: SHOP },
  data: {
    onlineLocations: JSON.stringify([depot.id, showroom.id]),
    onlineLocationsAt: new Date(),
    // A split order paid on delivery collects the warehouse parcel's share: the merchant's rule, not a hold.
    mapping: JSON.stringify({ splitCashOnDelivery: "parcel_share" }),
  },
});

/** The order's kind by its number: a fifth at the showroom, a tenth split, the rest at the warehouse. */
const kindOf = (n: number) =>
  n % 10 === 1 || n % 10 === 6 ? "showroom" : n % 10 === 3 ? "split" : "warehouse";
const LINES = {
  warehouse: [
    { sku: "CUP-KARP-BLUE", quantity: 2 },
    { sku: "TEA-POL-100", quantity: 1 },
  ],
  showroom: [{ sku: SHOWROOM_SKU, quantity: 1 }],
  split: [
    { sku: "CUP-KARP-BLUE", quantity: 2 },
    { sku: SHOWROOM_SKU, quantity: 1 },
  ],
};

console.error(`placing and recording ${ORDERS} orders...`);
const { note_attributes } = orderPayload(0);
let warehouseOrders = 0;
for (let n = 1; n <= ORDERS; n++) {
  const kind = kindOf(n);
  if (kind !== "showroom") warehouseOrders++;
  const { order } = store.addOrder({ name: `#${100_000 + n}`, lineItems: LINES[kind] });
  const payload = shopifyOrderSchema.parse(orderWebhookPayload(store, order.id, { note_attributes }));
  await takeInOrderWebhook(appContext(), {
    shop: SHOP,
    topic: "orders/create",
    eventId: `e${n}`,
    order: payload,
  });
}
console.error("delivering the fulfillment-order webhooks...");
// The fake posts a topic to `/webhooks/<topic>`; the app subscribes every fulfillment_orders/* topic at one URI
// (shopify.app.toml): a forwarder on loopback passes each body and its signed headers on unchanged.
const forwarder = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const target = new URL(
      request.url!.replace(/^\/webhooks\/fulfillment_orders\/.*$/, "/webhooks/fulfillment_orders"),
      flow.app.url,
    );
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([name, value]) =>
        typeof value === "string" && name !== "host" ? [[name, value]] : [],
      ),
    );
    fetch(target, { method: "POST", headers, body: Buffer.concat(chunks) })
      .then(async (answer) => {
        response.writeHead(answer.status);
        response.end(await answer.text());
      })
      .catch((error: unknown) => {
        response.writeHead(502);
        response.end(String(error));
      });
  });
});
await new Promise<void>((resolve) => forwarder.listen(0, "127.0.0.1", resolve));
const { port } = forwarder.address() as AddressInfo;
fake.webhooks.deliverTo({ appUrl: `http://127.0.0.1:${port}`, secret: process.env.SHOPIFY_API_SECRET! });
await fake.webhooks.idle();
const undelivered = fake.webhooks.deliveries.filter((delivery) => !delivery.delivered);
if (undelivered.length)
  throw new Error(`${undelivered.length} webhooks not delivered: ${JSON.stringify(undelivered[0])}`);

const requests = Math.ceil(warehouseOrders / 100);
const minimumMs = requests <= 60 ? 0 : Math.ceil(requests / 60 - 1) * WINDOW_MS;
console.error(`sending (${warehouseOrders} orders are the warehouse's)...`);
const { Session } = await import("node:inspector/promises");
const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.start");
}
census?.countStatements(true);
const started = performance.now();
flow.worker.start();
let accepted = 0;
let elsewhere = 0;
let polls = 0;
while (accepted < warehouseOrders || elsewhere < ORDERS - warehouseOrders) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  accepted = await db.warehouseOrder.count({ where: { shop: SHOP, state: "accepted" } });
  elsewhere = await db.warehouseOrder.count({ where: { shop: SHOP, state: "elsewhere" } });
  if (++polls % 50 === 0) {
    const states = await db.warehouseOrder.groupBy({
      by: ["state", "waitReason", "holdReasons"],
      where: { shop: SHOP },
      _count: true,
    });
    const schedules = await db.shopSchedule.findMany({
      where: { shop: SHOP },
      select: { kind: true, nextRunAt: true, lastError: true },
    });
    console.error(
      `${round((performance.now() - started) / 1000)} s: ${JSON.stringify({ states, schedules })}`,
    );
  }
}
const elapsedMs = performance.now() - started;
census?.countStatements(false);
if (census) console.error(JSON.stringify(census.statementCensus(ORDERS).slice(0, 25), null, 1));
if (profiler) {
  const { profile } = await profiler.post("Profiler.stop");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}
// The settle pass that reads every change again (app/routing/work.server.ts) is part of what an order costs:
// waited for (SETTLE_AFTER_TIP_MS after the last tip pass) before the fake's cost is read.
console.error("waiting for the settle pass...");
for (;;) {
  const row = await db.shopSchedule.findUnique({
    where: { shop_kind: { shop: SHOP, kind: FULFILLMENT_ORDERS_KIND } },
  });
  const cursor = readRoutingCursor(row?.cursor ?? null);
  if (cursor && !cursor.pass && !cursor.unsettledTipAt) break;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}
await flow.worker.stop();

// What the warehouse was sent, against what the fake assigned to the warehouse's location.
const sent = (await warehouse.control(`orders?apiKey=${encodeURIComponent(warehouse.apiKey)}`)) as Array<{
  id_order: string;
  submitted: { products?: Array<{ sku: string; count: number }> };
}>;
const rows = await db.warehouseOrder.findMany({
  where: { shop: SHOP },
  select: { idOrder: true, shopifyOrderId: true },
});
const shopifyIdOf = new Map(rows.map((row) => [row.idOrder, row.shopifyOrderId]));
const atDepot = new Map<string, Map<string, number>>();
for (const fo of store.fulfillmentOrders.values()) {
  if (fo.assignedLocationId !== depot.id) continue;
  const order = store.orders.get(fo.orderId)!;
  const units = atDepot.get(fo.orderId) ?? new Map<string, number>();
  for (const line of fo.lineItems) {
    const sku = order.lineItems.find((item) => item.id === line.lineItemId)?.sku ?? "";
    units.set(sku, (units.get(sku) ?? 0) + line.totalQuantity);
  }
  atDepot.set(fo.orderId, units);
}
let linesSentForElsewhere = 0;
for (const order of sent) {
  const shopifyId = shopifyIdOf.get(order.id_order);
  const units = atDepot.get(`gid://shopify/Order/${shopifyId}`) ?? new Map<string, number>();
  for (const product of order.submitted.products ?? [])
    linesSentForElsewhere += Math.max(0, product.count - (units.get(product.sku) ?? 0));
}
const stats = await warehouse.stats();
const actualCost = fake.requests.reduce((sum, request) => sum + (request.actualCost ?? 0), 0);
const operations: Record<string, number> = {};
for (const request of fake.requests) {
  const name = request.operationName ?? "(anonymous)";
  operations[name] = (operations[name] ?? 0) + (request.actualCost ?? 0);
}
console.error(`Shopify cost by operation: ${JSON.stringify(operations)}`);
await flow.close();
await fake.close();
forwarder.close();
console.log(
  JSON.stringify({
    benchmark: "routing",
    database: benchDatabase(),
    orders: ORDERS,
    warehouseOrders,
    acceptedAtWarehouse: stats.ordersAccepted,
    linesSentForElsewhere,
    duplicates: stats.duplicateIdOrders,
    shopifyCost: actualCost,
    shopifyCostPerOrder: round(actualCost / ORDERS, 2),
    targetCostPerOrder: 5,
    elapsedS: round(elapsedMs / 1000),
    minimumS: round(minimumMs / 1000),
    ratio: minimumMs ? round(elapsedMs / minimumMs, 3) : null,
    targetRatio: 1.1,
  }),
);
process.exit(0);

// `npm run bench:submit`: a burst of 10,000 ready orders sent to the simulator, in its own process, with
// its real limits (60 requests a minute). The least time those limits allow for 100 AddOrder requests of
// 100 is one window: 60 leave at once, the other 40 a minute later. Reports elapsed / that minimum (target ≤ 1.05),
// the 429 answers (target 0) and duplicates (target 0). One JSON object on the last line.
import { benchDatabase, prepareBenchEnvironment, round, startSimulatorProcess } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const WINDOW_MS = 60_000;

await prepareBenchEnvironment();
const { FLOW_PRODUCTS, orderPayload, startOrderFlow, SHOP } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { takeInOrderWebhook } = await import("../app/orders/intake.server");
const { shopifyOrderSchema } = await import("../app/orders/payload");

const { MemoryRateLimitStore, WAREHOUSE_RATE_LIMITS, WarehouseRateLimiter } =
  await import("../app/warehouse/limiter.server");
const { createWarehouseClient } = await import("../app/warehouse/client.server");
const { idOrderFor, mapOrder } = await import("../app/orders/mapping");
const { orderSettingsSchema } = await import("../app/orders/settings");

// The simulator in its own process, with its real limits: the warehouse does not share our CPU.
const warehouse = await startSimulatorProcess();
// Both sides with the warehouse's real limits (the harness scales them down for tests).
const flow = await startOrderFlow({
  noWorker: true,
  warehouse,
  // The production sweep interval, not the tests' quick one.
  worker: { rateLimits: WAREHOUSE_RATE_LIMITS, backoff: undefined, sweepIntervalMs: 2_000 },
});
const { db } = appContext();
console.error(`recording ${ORDERS} orders...`);
for (let n = 1; n <= ORDERS; n++) {
  const order = shopifyOrderSchema.parse(orderPayload(n));
  await takeInOrderWebhook(appContext(), { shop: SHOP, topic: "orders/create", eventId: `e${n}`, order });
}
const requests = Math.ceil(ORDERS / 100);
const minimumMs = requests <= 60 ? 0 : Math.ceil(requests / 60 - 1) * WINDOW_MS;

// Just before the worker starts: a connection left idle while the orders were recorded (the recording
// keeps the event loop busy) can be closed by the simulator under the first batch.
await warmUp(warehouse);
console.error("sending...");
const started = performance.now();
flow.worker.start();
let accepted = 0;
while (accepted < ORDERS) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  accepted = await db.warehouseOrder.count({ where: { shop: SHOP, state: "accepted" } });
}
const elapsedMs = performance.now() - started;
const stats = await flow.sim.stats();
await flow.close();
console.log(
  JSON.stringify({
    benchmark: "submit",
    database: benchDatabase(),
    orders: ORDERS,
    addOrderRequests: stats.requests.AddOrder ?? 0,
    elapsedS: round(elapsedMs / 1000),
    minimumS: round(minimumMs / 1000),
    ratio: minimumMs ? round(elapsedMs / minimumMs, 3) : null,
    targetRatio: 1.05,
    answers429: stats.statuses["429"] ?? 0,
    duplicates: stats.duplicateIdOrders,
    acceptedAtWarehouse: stats.ordersAccepted,
  }),
);
process.exit(0);

/**
 * The real warehouse is a server that has been running; a freshly started simulator answered its first
 * AddOrder batches in half a second while its process compiled them. A few batches of other orders, sent
 * straight to it, then a reset (orders, stock, limit windows, counters) leave it warm and as it was.
 */
async function warmUp(sim: Awaited<ReturnType<typeof startSimulatorProcess>>) {
  const client = createWarehouseClient({
    apiKey: sim.apiKey,
    endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 10_000 },
    limiter: new WarehouseRateLimiter(new MemoryRateLimitStore()),
    batchAddOrder: true,
  });
  const settings = orderSettingsSchema.parse({});
  for (let batch = 0; batch < 3; batch++) {
    const orders = Array.from({ length: 100 }, (_, i) => {
      const order = shopifyOrderSchema.parse(orderPayload(900_000 + batch * 100 + i));
      const mapped = mapOrder({ order, settings, idOrder: idOrderFor(order, settings) });
      if (!mapped.ok) throw new Error(`warm-up order not mapped: ${JSON.stringify(mapped.hold)}`);
      return mapped.order;
    });
    const outcomes = await client.submitOrders(orders);
    if (outcomes.some((outcome) => outcome.status !== "accepted"))
      throw new Error(`warm-up batch not accepted: ${JSON.stringify(outcomes[0])}`);
  }
  await sim.reset();
  await sim.seedProducts(FLOW_PRODUCTS);
}

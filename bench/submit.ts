// `npm run bench:submit`: a burst of 10,000 ready orders sent to the simulator, in its own process, with
// its real limits (60 requests a minute). The least time those limits allow for 100 AddOrder requests of
// 100 is one window: 60 leave at once, the other 40 a minute later. Reports elapsed / that minimum (target ≤ 1.05),
// the 429 answers (target 0) and duplicates (target 0). One JSON object on the last line.
import { benchDatabase, prepareBenchEnvironment, round, startSimulatorProcess } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const WINDOW_MS = 60_000;

await prepareBenchEnvironment();
const { orderPayload, startOrderFlow, SHOP } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { takeInOrderWebhook } = await import("../app/orders/intake.server");
const { shopifyOrderSchema } = await import("../app/orders/payload");

const { WAREHOUSE_RATE_LIMITS } = await import("../app/warehouse/limiter.server");
// Both sides with the warehouse's real limits (the harness scales them down for tests).
const flow = await startOrderFlow({
  noWorker: true,
  // The simulator in its own process, with its real limits: the warehouse does not share our CPU.
  warehouse: await startSimulatorProcess(),
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

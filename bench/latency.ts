// `npm run bench:latency`: how long a new order takes, on an idle system, from its orders/create webhook
// to its acceptance by the warehouse: HTTP with real signatures in, the worker in the same process (as it
// runs by default) with the production sweep interval, the simulator (own process, real limits) out. Orders
// come one at a time, 1.2 s apart by default (BENCH_GAP_MS): further apart than the even pace of the
// warehouse's limits (one request a second), within which a small batch waits for the one before it.
// Target: p50 < 1 s. Prints one JSON object as its last line.
import { benchDatabase, percentile, prepareBenchEnvironment, round, startSimulatorProcess } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 30);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 1_200);
const POLL_MS = 5;

await prepareBenchEnvironment();
const { orderPayload, startOrderFlow } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { WAREHOUSE_RATE_LIMITS } = await import("../app/warehouse/limiter.server");
const flow = await startOrderFlow({
  // The simulator in its own process, with its real limits: the warehouse does not share our CPU.
  warehouse: await startSimulatorProcess(),
  worker: { rateLimits: WAREHOUSE_RATE_LIMITS, backoff: undefined, sweepIntervalMs: 2_000 },
});
const { db } = appContext();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const latencies: number[] = [];
for (let n = 1; n <= ORDERS; n++) {
  const payload = orderPayload(50_000 + n);
  const started = performance.now();
  const response = await flow.post({ topic: "orders/create", payload });
  if (response.status !== 200) throw new Error(`the webhook was answered ${response.status}`);
  for (;;) {
    const row = await db.warehouseOrder.findFirst({
      where: { shopifyOrderId: String(payload.id) },
      select: { state: true },
    });
    if (row?.state === "accepted") break;
    if (performance.now() - started > 30_000) throw new Error(`order ${n} was not accepted within 30 s`);
    await sleep(POLL_MS);
  }
  latencies.push(performance.now() - started);
  await sleep(GAP_MS);
}
const stats = await flow.sim.stats();
await flow.close();

const sorted = [...latencies].sort((a, b) => a - b);
console.log(
  JSON.stringify({
    benchmark: "latency",
    database: benchDatabase(),
    orders: ORDERS,
    gapMs: GAP_MS,
    addOrderRequests: stats.requests.AddOrder ?? 0,
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    maxMs: round(sorted.at(-1) ?? Number.NaN),
    targetP50Ms: 1000,
  }),
);
process.exit(0);

// `npm run bench:intake`: webhook answer latency at a steady 100 orders/create a second for 30 s, over
// HTTP with real signatures, on SQLite, with the worker sending to the simulator (real limits) meanwhile.
// Target: p99 < 50 ms. Prints progress, then one JSON object as its last line.
import { percentile, prepareBenchEnvironment, round } from "./support";

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);

await prepareBenchEnvironment();
const { orderPayload, startOrderFlow } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const flow = await startOrderFlow({
  simulator: { rateLimits: undefined },
  worker: { rateLimits: { windowMs: 60_000, marginMs: 200 }, backoff: undefined, sweepIntervalMs: 2_000 },
});

// Warm-up: the first requests load and compile the route modules.
for (let i = 0; i < 20; i++)
  await (await flow.post({ topic: "orders/create", payload: orderPayload(90_000 + i) })).arrayBuffer();

const latencies: number[] = [];
const statuses: Record<number, number> = {};
const total = RATE * SECONDS;
const started = performance.now();
const inFlight: Promise<void>[] = [];
for (let i = 0; i < total; i++) {
  // Open loop: each request leaves on its schedule whether or not the earlier ones were answered.
  const due = started + (i * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const payload = orderPayload(100_000 + i);
  inFlight.push(
    (async () => {
      const sent = performance.now();
      const response = await flow.post({ topic: "orders/create", payload });
      await response.arrayBuffer();
      latencies.push(performance.now() - sent);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    })(),
  );
  if (i % (RATE * 5) === 0) console.error(`sent ${i} of ${total}`);
}
await Promise.all(inFlight);
const elapsed = (performance.now() - started) / 1000;
const recorded = await appContext().db.warehouseOrder.count();
await flow.close();

latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    benchmark: "intake",
    database: "sqlite",
    requests: total,
    targetRate: RATE,
    achievedRate: round(total / elapsed, 1),
    statuses,
    ordersRecorded: recorded,
    p50Ms: round(percentile(latencies, 50)),
    p95Ms: round(percentile(latencies, 95)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? Number.NaN),
    targetP99Ms: 50,
  }),
);
process.exit(0);

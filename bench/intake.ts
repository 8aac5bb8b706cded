// `npm run bench:intake`: webhook answer latency at a steady 100 orders/create a second for 30 s, over
// HTTP with real signatures, on SQLite, with the worker sending to the simulator (its own process, real
// limits) meanwhile. The load comes from a separate process (bench/intake-load.ts), as Shopify's would.
// Target: p99 < 50 ms. Prints one JSON object as its last line.
import { benchDatabase, percentile, prepareBenchEnvironment, round, startSimulatorProcess } from "./support";

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);

await prepareBenchEnvironment();
const { orderPayload, startOrderFlow } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { WAREHOUSE_RATE_LIMITS } = await import("../app/warehouse/limiter.server");
const flow = await startOrderFlow({
  noWorker: process.env.BENCH_NO_WORKER === "1",
  // The simulator in its own process, with its real limits: the warehouse does not share our CPU.
  warehouse: await startSimulatorProcess(),
  worker: { rateLimits: WAREHOUSE_RATE_LIMITS, backoff: undefined, sweepIntervalMs: 2_000 },
});
// Warm-up, as a running app would be: the first requests load the route modules, and the worker's first
// batch (when it runs) loads and compiles its own path. Measured, a cold worker made the first second of
// the load the slowest 1%.
const WARM_UP = 20;
for (let i = 0; i < WARM_UP; i++)
  await (await flow.post({ topic: "orders/create", payload: orderPayload(90_000 + i) })).arrayBuffer();
if (process.env.BENCH_NO_WORKER !== "1") {
  const deadline = Date.now() + 30_000;
  while ((await appContext().db.warehouseOrder.count({ where: { state: "accepted" } })) < WARM_UP) {
    if (Date.now() > deadline) throw new Error("the warm-up orders were not accepted within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Run asynchronously so this process keeps answering while the load generator waits for it.
const { spawn } = await import("node:child_process");
const load = spawn(
  process.execPath,
  [
    "--import",
    "tsx",
    "bench/intake-load.ts",
    JSON.stringify({ url: flow.app.url, rate: RATE, seconds: SECONDS }),
  ],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
let output = "";
load.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
await new Promise((resolve) => load.once("exit", resolve));
const result = JSON.parse(output.trim().split("\n").at(-1)!) as {
  elapsedS: number;
  latencies: number[];
  statuses: Record<string, number>;
};
const recorded = await appContext().db.warehouseOrder.count();
await flow.close();

const latencies = result.latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    benchmark: "intake",
    database: benchDatabase(),
    requests: RATE * SECONDS,
    targetRate: RATE,
    achievedRate: round((RATE * SECONDS) / result.elapsedS, 1),
    answers: result.statuses,
    ordersRecorded: recorded - WARM_UP,
    p50Ms: round(percentile(latencies, 50)),
    p95Ms: round(percentile(latencies, 95)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? Number.NaN),
    targetP99Ms: 50,
  }),
);
process.exit(0);

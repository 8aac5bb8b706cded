// `npm run bench:intake`: webhook answer latency at a steady 100 orders/create a second for 30 s, over
// HTTP with real signatures, on SQLite, with the worker sending to the simulator (its own process, real
// limits) meanwhile. The load comes from a separate process (bench/intake-load.ts), as Shopify's would.
// Also what each order costs: this process's CPU over the orders taken in and sent, against the floor (the
// least an order can cost, bench/floor.ts) measured here too, since the machine's speed drifts; and the
// capacity, the highest of a few steady rates whose p99 stays under 50 ms. Targets: p99 < 50 ms at 100/s,
// costRatio ≤ 4, capacityPerS ≥ 300. Prints one JSON object as its last line.
import { cpuMs, measureFloor } from "./floor";
import { benchDatabase, percentile, prepareBenchEnvironment, round, startSimulatorProcess } from "./support";

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const NO_WORKER = process.env.BENCH_NO_WORKER === "1";
/** The capacity search's rates, each for BENCH_STEP_SECONDS; empty to skip it. */
const STEPS = (process.env.BENCH_CAPACITY_STEPS ?? "100,150,200,300,400")
  .split(",")
  .filter(Boolean)
  .map(Number);
const STEP_SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 4);
const TARGET_P99_MS = 50;
/** Writes a CPU profile of the measured stretch (the 100/s load and the sending after it) to this file. */
const PROFILE = process.env.BENCH_PROFILE;

await prepareBenchEnvironment();
const census = process.env.BENCH_CENSUS === "1" ? await import("./census") : undefined;
await census?.installStatementCensus();
const { orderPayload, startOrderFlow, SHOP } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { WAREHOUSE_RATE_LIMITS } = await import("../app/warehouse/limiter.server");
const { db } = appContext();
// The app's one connection with another `synchronous` than the app's NORMAL (FULL waits for an fsync at
// every commit, on the event loop, since libSQL runs SQLite there).
if (process.env.BENCH_SQLITE_SYNCHRONOUS)
  await db.$executeRawUnsafe(
    `PRAGMA synchronous = ${process.env.BENCH_SQLITE_SYNCHRONOUS.replace(/\W/g, "")}`,
  );
const flow = await startOrderFlow({
  noWorker: NO_WORKER,
  // The simulator in its own process, with its real limits: the warehouse does not share our CPU.
  warehouse: await startSimulatorProcess(),
  worker: { rateLimits: WAREHOUSE_RATE_LIMITS, backoff: undefined, sweepIntervalMs: 2_000 },
});
// Warm-up, as a running app would be: the first requests load the route modules, and the worker's first
// batch (when it runs) loads and compiles its own path. Measured, a cold worker made the first second of
// the load the slowest 1%.
const { API_SECRET_KEY } = await import("@shopify/shopify-api/test-helpers");
const target = flow.app.url;
const { signedWebhookRequest } = await import("../test/support/webhooks");
const WARM_UP = 20;
for (let i = 0; i < WARM_UP; i++) {
  const request = signedWebhookRequest({
    topic: "orders/create",
    shop: SHOP,
    payload: orderPayload(90_000 + i),
  });
  const answer = await fetch(new URL(new URL(request.url).pathname, target), {
    method: "POST",
    headers: request.headers,
    body: await request.text(),
  });
  if (answer.status !== 200) throw new Error(`a warm-up order was answered ${answer.status}`);
}

/** Waits (bounded) until the worker has had `count` orders accepted; answers whether it did. */
async function acceptedAtLeast(count: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while ((await db.warehouseOrder.count({ where: { state: "accepted" } })) < count) {
    if (Date.now() > deadline) return false;
    // Not too often: this process's CPU is what is measured.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}
if (!NO_WORKER && !(await acceptedAtLeast(WARM_UP, 30_000)))
  throw new Error("the warm-up orders were not accepted within 30 s");

const [{ synchronous }] = await db.$queryRawUnsafe<[{ synchronous: number | bigint }]>("PRAGMA synchronous");
// "table" sorts after "index" descending, so the table comes first.
const ddl = await db.$queryRawUnsafe<{ sql: string }[]>(
  "SELECT sql FROM sqlite_master WHERE tbl_name = 'WarehouseOrder' AND sql IS NOT NULL ORDER BY type DESC",
);
const floorInput = {
  ddl: ddl.map((row) => row.sql),
  synchronous: Number(synchronous),
  secret: API_SECRET_KEY,
  shop: SHOP,
  body: (n: number) => JSON.stringify(orderPayload(n)),
};
const floorBefore = await measureFloor(floorInput);

const { spawn } = await import("node:child_process");
/** Runs the load generator with `options`; this process keeps answering meanwhile. */
async function load<Result>(options: object): Promise<Result> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/intake-load.ts", JSON.stringify({ url: target, ...options })],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  return JSON.parse(output.trim().split("\n").at(-1)!) as Result;
}

const { Session } = await import("node:inspector/promises");
const profiler = PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.start");
}
census?.countStatements(true);
const cpuBefore = cpuMs();
const result = await load<{ elapsedS: number; latencies: number[]; statuses: Record<string, number> }>({
  rate: RATE,
  seconds: SECONDS,
  first: 100_000,
});
const recorded = (await db.warehouseOrder.count()) - WARM_UP;
const loadCpuMs = cpuMs() - cpuBefore;
// The orders taken in are sent too before the clock stops: sending is part of what an order costs.
const allSent = NO_WORKER || (await acceptedAtLeast(WARM_UP + recorded, 60_000));
const cpuMsTotal = cpuMs() - cpuBefore;
census?.countStatements(false);
if (profiler) {
  const { profile } = await profiler.post("Profiler.stop");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}

const capacity = STEPS.length
  ? await load<{
      steps: { rate: number; achievedRate: number; p50Ms: number; p99Ms: number; met: boolean }[];
    }>({ steps: STEPS, seconds: STEP_SECONDS, maxP99Ms: TARGET_P99_MS, first: 200_000 })
  : undefined;
const floorAfter = await measureFloor(floorInput);
await flow.close();

if (census) console.log(JSON.stringify(census.statementCensus(recorded), null, 1));
const floorMsPerOrder = (floorBefore.msPerOrder + floorAfter.msPerOrder) / 2;
const cpuMsPerOrder = cpuMsTotal / recorded;
const latencies = result.latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    benchmark: "intake",
    database: benchDatabase(),
    worker: !NO_WORKER,
    requests: RATE * SECONDS,
    targetRate: RATE,
    achievedRate: round((RATE * SECONDS) / result.elapsedS, 1),
    answers: result.statuses,
    ordersRecorded: recorded,
    allSent,
    p50Ms: round(percentile(latencies, 50)),
    p95Ms: round(percentile(latencies, 95)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? Number.NaN),
    targetP99Ms: TARGET_P99_MS,
    cpuMsPerOrder: round(cpuMsPerOrder),
    // The same, counting only the load's own seconds (intake and what the worker sent meanwhile).
    cpuMsPerOrderDuringLoad: round(loadCpuMs / recorded),
    floorMsPerOrder: round(floorMsPerOrder, 3),
    floorParts: Object.fromEntries(
      Object.entries(floorBefore.parts).map(([part, ms]) => [
        part,
        round((ms + floorAfter.parts[part as keyof typeof floorAfter.parts]) / 2, 3),
      ]),
    ),
    floorDriftRatio: round(floorAfter.msPerOrder / floorBefore.msPerOrder),
    costRatio: round(cpuMsPerOrder / floorMsPerOrder, 1),
    targetCostRatio: 4,
    capacityPerS: capacity ? (capacity.steps.filter((step) => step.met).at(-1)?.rate ?? 0) : null,
    capacitySteps: capacity?.steps,
    targetCapacityPerS: 300,
  }),
);
process.exit(0);

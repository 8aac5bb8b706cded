// `npm run bench:intake`: webhook answer latency at a steady 100 orders/create a second for 30 s, over
// HTTP with real signatures, on SQLite, with the worker sending to the simulator (its own process, real
// limits) meanwhile. The load comes from a separate process (bench/intake-load.ts), as Shopify's would.
// Also what each order costs: this process's CPU over the orders taken in and sent, against the floor
// measured here too before and after (the machine's speed drifts): the same signed requests from the same
// generator at the same rate, over keep-alive, received by a bare node:http handler in this process that
// reads the body, verifies the HMAC, JSON.parse, zod, maps and makes one insert (bench/floor.ts,
// `floorMsPerOrder`; `floorNoHttpMsPerOrder` and `costRatioNoHttp` are the floor before issue 25, the same
// steps without HTTP). And the capacity, the highest of a few steady rates whose p99 stays under 50 ms.
// Targets (issue 25): p99 < 50 ms at 100/s, costRatio ≤ 3, capacityPerS ≥ 400. Knobs: BENCH_RATE,
// BENCH_SECONDS, BENCH_NO_WORKER=1, BENCH_CAPACITY_STEPS, BENCH_STEP_SECONDS, BENCH_FLOOR_SECONDS (5),
// BENCH_PROFILE=file, BENCH_CENSUS=1, BENCH_SQLITE_SYNCHRONOUS, BENCH_ORDER_EDGE=fetch (the order webhooks
// through the Remix route instead of their bare edge, to compare). Prints one JSON object as its last line.
import { cpuMs, measureFloor, startHttpFloor } from "./floor";
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
const TARGET_COST_RATIO = 3;
const TARGET_CAPACITY_PER_S = 400;
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
  // BENCH_ORDER_EDGE=fetch: the order webhooks through the Remix route's Fetch conversion, as before the
  // bare edge (issue 25), to compare the two side by side.
  orderEdge: process.env.BENCH_ORDER_EDGE === "fetch" ? "fetch" : "bare",
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
/**
 * Runs the load generator with `options` (at the app unless `options.url` says otherwise); this process
 * keeps answering meanwhile. `onStart` runs once the generator is loaded, right before it starts sending.
 */
async function load<Result>(options: object, onStart?: () => void): Promise<Result> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/intake-load.ts", JSON.stringify({ url: target, ...options, waitForGo: true })],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (output.startsWith("ready\n") && !child.stdin.writableEnded) {
      onStart?.();
      child.stdin.end("go\n");
    }
  });
  await new Promise((resolve) => child.once("exit", resolve));
  return JSON.parse(output.trim().split("\n").at(-1)!) as Result;
}

/** CPU ms a second this process spends with no requests (the worker's sweeps, timers), over `ms`. */
async function idleCpuMsPerS(ms = 2_000): Promise<number> {
  const before = cpuMs();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return ((cpuMs() - before) * 1000) / ms;
}

const FLOOR_SECONDS = Number(process.env.BENCH_FLOOR_SECONDS ?? 5);
/**
 * The HTTP floor (bench/floor.ts): the same load generator sends the same signed requests at the same rate
 * to a bare node:http server in this process; its CPU an order, less this process's idle CPU over the
 * same seconds (the app's worker and timers keep running; the floor's orders do not wake them).
 */
async function measureHttpFloor(first: number) {
  const floor = await startHttpFloor(floorInput);
  const run = { url: floor.url, rate: RATE };
  // Warm-up: the JIT, and the generator's connections.
  await load({ ...run, seconds: 3, first });
  const idle = await idleCpuMsPerS();
  const answeredBefore = floor.answered();
  let cpuStart = 0;
  let wallStart = 0;
  await load({ ...run, seconds: FLOOR_SECONDS, first: first + 10_000 }, () => {
    cpuStart = cpuMs();
    wallStart = performance.now();
  });
  const cpu = cpuMs() - cpuStart;
  const wallS = (performance.now() - wallStart) / 1000;
  const orders = floor.answered() - answeredBefore;
  await floor.close();
  if (orders !== Math.round(RATE * FLOOR_SECONDS))
    throw new Error(`the HTTP floor answered ${orders} orders of ${RATE * FLOOR_SECONDS}`);
  return { msPerOrder: (cpu - idle * wallS) / orders, idleCpuMsPerS: idle };
}
const httpFloorBefore = await measureHttpFloor(1_000_000);

const { Session } = await import("node:inspector/promises");
const profiler = PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.start");
}
census?.countStatements(true);
let cpuBefore = cpuMs();
const result = await load<{ elapsedS: number; latencies: number[]; statuses: Record<string, number> }>(
  { rate: RATE, seconds: SECONDS, first: 100_000 },
  () => (cpuBefore = cpuMs()),
);
const recorded = (await db.warehouseOrder.count()) - WARM_UP;
const loadCpuMs = cpuMs() - cpuBefore;
// The orders taken in are sent too before the clock stops: sending is part of what an order costs.
// Bounded generously: on a loaded machine the worker took more than a minute, and an order not yet
// sent when the clock stops makes cpuMsPerOrder look cheaper than it is (allSent says so).
const allSent = NO_WORKER || (await acceptedAtLeast(WARM_UP + recorded, 180_000));
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
const httpFloorAfter = await measureHttpFloor(1_100_000);
await flow.close();

if (census) console.log(JSON.stringify(census.statementCensus(recorded), null, 1));
const floorNoHttpMsPerOrder = (floorBefore.msPerOrder + floorAfter.msPerOrder) / 2;
const floorMsPerOrder = (httpFloorBefore.msPerOrder + httpFloorAfter.msPerOrder) / 2;
const cpuMsPerOrder = cpuMsTotal / recorded;
const latencies = result.latencies.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    benchmark: "intake",
    database: benchDatabase(),
    worker: !NO_WORKER,
    orderEdge: process.env.BENCH_ORDER_EDGE === "fetch" ? "fetch" : "bare",
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
    // The HTTP floor: a bare node:http handler in this process, same requests, same generator.
    floorMsPerOrder: round(floorMsPerOrder, 3),
    floorDriftRatio: round(httpFloorAfter.msPerOrder / httpFloorBefore.msPerOrder),
    idleCpuMsPerS: round((httpFloorBefore.idleCpuMsPerS + httpFloorAfter.idleCpuMsPerS) / 2),
    costRatio: round(cpuMsPerOrder / floorMsPerOrder, 1),
    targetCostRatio: TARGET_COST_RATIO,
    // The floor before issue 25 (the same steps in a loop, no HTTP), and the ratio against it, for
    // comparison with the earlier rows of docs/benchmarks.md.
    floorNoHttpMsPerOrder: round(floorNoHttpMsPerOrder, 3),
    floorNoHttpParts: Object.fromEntries(
      Object.entries(floorBefore.parts).map(([part, ms]) => [
        part,
        round((ms + floorAfter.parts[part as keyof typeof floorAfter.parts]) / 2, 3),
      ]),
    ),
    floorNoHttpDriftRatio: round(floorAfter.msPerOrder / floorBefore.msPerOrder),
    costRatioNoHttp: round(cpuMsPerOrder / floorNoHttpMsPerOrder, 1),
    capacityPerS: capacity ? (capacity.steps.filter((step) => step.met).at(-1)?.rate ?? 0) : null,
    capacitySteps: capacity?.steps,
    targetCapacityPerS: TARGET_CAPACITY_PER_S,
  }),
);
process.exit(0);

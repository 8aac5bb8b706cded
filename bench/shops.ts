// `npm run bench:shops`: what many shops cost one server. BENCH_SHOPS shops (1,000 unless told; 100 for a quick
// run) are installed in a fresh database, each with its own warehouse key (one simulator process holding an
// account per shop, each with its own limits: the real ones, 60 requests a minute) and its own store in the
// Shopify fake (its own process, its own bucket: 100 points a second, 2,000 held), a session row each, 200 SKUs
// (in the store at its location and at the warehouse) and 20 orders in flight at the warehouse (accepted, not
// yet shipped). The app's real engine (createEngine: every kind, every periodic task, the real limits) runs in
// this process with the webhook routes; the CPU measured is this process's (process.cpuUsage), the
// simulator's and the fake's are not in it.
//
// Stage 1, idle. The app runs on an injected clock (the context's, which the engine, its limiter and intake
// read). Two stretches: one with the clock stopped (BENCH_FROZEN_S real seconds, 20 unless told), in which no
// schedule comes due and what runs is what runs per real second whatever the shops do (the sweep every 2 s,
// its due-work queries, timers); then one with the clock running BENCH_CLOCK_SCALE times real time (10 unless
// told) for BENCH_IDLE_MINUTES minutes of clock time (40 unless told: statuses every 30 minutes, stock every 10,
// returns every 30, reference data's 5-minute rests each come due at least once; the daily reference list and
// personal-data sweeps do not, unless the stretch is made longer than a day). The simulator's rate window is
// scaled the same way meanwhile (the minute over the scale: 6 s at 10x), so the key's limits hold as they would in real time.
// The scale must leave the app able to keep up: at 60x, 100 shops' schedules fell behind on a shared 2-core
// machine (settledBeforeIdle false, fewer requests by operation than due: see docs/benchmarks.md).
// Per real hour, a figure is (frozen rate per real second) + (scaled rate - frozen rate) / scale, times 3,600:
// the per-second machinery counted once, the schedules' work at its real pace. Printed: idleCpuPctOfCore (target
// < 5 at 1,000 shops), idleStatementsPerShopHour (SQLite: bench/census.ts), idleWarehouseRequestsPerShopHour
// (the simulator's counters), idleShopifyCostPerShopHour (the fake's actual cost). BENCH_PROFILE=file writes a
// CPU profile of the scaled stretch.
//
// Stage 2, flash sale (clock at real time again). Shop 0 takes BENCH_SALE_ORDERS orders (10,000 unless told;
// 100 AddOrder requests of 100, which its key's limit lets out in no less than a minute) through the intake
// function, as bench:submit does, while every other shop takes one order a minute over the real webhook route,
// signed (for at least two minutes, until the sale is accepted). othersP95AcceptS: the others' time from webhook
// to accepted (target < 5); saleRatio: the sale's elapsed time (its first order taken in to its last accepted)
// over the least its key's limit allows, bench:submit's minimum (target <= 1.05). The sale is taken in by this
// process one order at a time, so it arrives over saleIntakeS; saleMinimumGivenIntakeS is the least the limit
// allows given those arrivals (each batch of 100 once its orders exist and once the request 60 before it is a
// window old), and saleRatioGivenIntake the elapsed time over it: how far the engine's sending is from the
// best any schedule could do with the orders as they came.
//
// Stage 3, burst: 20 orders in every shop at once (through the intake function). allRatio: elapsed (first
// order taken in to the last accepted) over the least the app's own capacity allows, measured as the CPU the
// app's process spent on the burst: at 100 % of a core, it could not have been done sooner (target <= 1.2);
// duplicates (the simulator's duplicate id_orders over the whole run) and lost (orders taken in that the
// warehouse never accepted), both 0; heapMb (this process's heap) and dbMb (the SQLite files) at the end.
//
// BENCH_WORKERS=N (2 or more; PostgreSQL only: BENCH_DATABASE_URL, and BENCH_DATABASE_NAME for a database of
// its own) runs compose.yaml's layout without containers. This process is the web process: the webhook
// routes and the intake function, no engine in it (WORKER=off): it wakes the workers by NOTIFY, as a web
// instance does (decision 022); BENCH_WAKE=off leaves that out, as before it, so the workers find new orders
// by their sweep alone (every 2 s), to compare. A child web process
// (`npm start`) would need a production build and would change nothing the stages measure: the intake is the
// same code. N workers are child processes of the script `npm run worker` runs (scripts/worker.ts under tsx,
// NODE_ENV production, a random SKLAD_ENCRYPTION_KEY, this process's database, simulator and Shopify fake;
// the default lease of 30 s and sweep of 2 s), with two preloads: the tests' network guard that sends Admin
// API calls to the fake, and bench/worker-clock.ts, the benchmark's clock at real time. The scaled clock
// cannot reach them, so with workers stage 1 runs only its setup (installs, orders in flight, warm-up: this
// process's engine, then stopped) and the idle figures are null: measure them without BENCH_WORKERS. Stages
// 2 and 3 run on the workers. Once BENCH_KILL_AT (0.3 unless told) of the sale is accepted, the worker
// holding the sale shop's lease is killed with SIGKILL; takeoverS is, over the shops it held with orders not
// yet accepted, the longest from the kill to that shop's next order accepted (takeoverSaleShopS the sale
// shop's), to compare with leaseTtlS and killedLeaseLeftS (what its leases had left). Orders of a batch
// claimed but never sent go to the merchant after the in-doubt wait (10 minutes) and are sent again here as
// a merchant would (resentByMerchant). After the sale a new worker takes the killed one's place.
// workerShares, per worker process from its log: AddOrder batches, the orders they had accepted and the
// shops served (orders.submitted) in the sale and in the burst, orders of the killed worker's batch it found
// at the warehouse (orders.looked_up), and its CPU in the burst (from /proc). burstCpuS is then the least
// the processes' CPU allows: the busiest process's, or all of it over the machine's cores, whichever is
// more.
// One JSON object on the last line.
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import {
  benchDatabase,
  percentile,
  prepareBenchEnvironment,
  round,
  startShopifyFakeProcess,
  startSimulatorProcess,
  startWorkerProcess,
} from "./support";

const SHOPS = Number(process.env.BENCH_SHOPS ?? 1_000);
const SKUS = 200;
const IN_FLIGHT = 20;
const BURST = 20;
const SCALE = Number(process.env.BENCH_CLOCK_SCALE ?? 10);
const IDLE_MINUTES = Number(process.env.BENCH_IDLE_MINUTES ?? 40);
const FROZEN_S = Number(process.env.BENCH_FROZEN_S ?? 20);
const SALE_ORDERS = Number(process.env.BENCH_SALE_ORDERS ?? 10_000);
const WINDOW_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Worker processes beside this one (then the web process, WORKER=off); 0: the engine in this process. */
const WORKERS = Number(process.env.BENCH_WORKERS ?? 0);
/** With worker processes: the share of the sale accepted when the sale shop's worker is killed. */
const KILL_AT = Number(process.env.BENCH_KILL_AT ?? 0.3);
/** With worker processes: whether this process wakes them by NOTIFY, as a web instance does ("off": sweep only). */
const WAKE = process.env.BENCH_WAKE === "off" ? "off" : "notify";
if (WORKERS) {
  if (benchDatabase() !== "postgresql") {
    console.error(
      "bench:shops: BENCH_WORKERS runs separate worker processes, a PostgreSQL deployment (README): " +
        "set BENCH_DATABASE_URL=postgresql://... as well",
    );
    process.exit(2);
  }
  if (!Number.isInteger(WORKERS) || WORKERS < 2) {
    console.error("bench:shops: BENCH_WORKERS must be at least 2 (one of them is killed mid-run)");
    process.exit(2);
  }
  // The workers run as deployed (NODE_ENV=production), which needs a key of its own; this process uses it too.
  process.env.SKLAD_ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
}

console.error(
  `bench:shops: ${SHOPS} shops, ${SKUS} SKUs and ${IN_FLIGHT} orders in flight each; ${
    WORKERS ? "no idle stretch (worker processes)" : `idle ${IDLE_MINUTES} clock minutes at ${SCALE}x`
  }; a sale of ${SALE_ORDERS} orders; a burst of ${BURST} orders a shop${
    WORKERS ? `; ${WORKERS} worker processes, the sale shop's killed at ${KILL_AT * 100} % of the sale` : ""
  }`,
);

await prepareBenchEnvironment();

/** The app's clock: real time, stopped, or running `rate` times as fast, always without a jump. */
let clockBase = Date.now();
let realBase = performance.now();
let clockRate = 1;
const benchClock = () => new Date(clockBase + (performance.now() - realBase) * clockRate);
function runClockAt(rate: number) {
  clockBase = benchClock().getTime();
  realBase = performance.now();
  clockRate = rate;
}

const census = benchDatabase() === "sqlite" ? await import("./census") : undefined;
// Statements counted, not timed: timing each would add its own CPU to what the idle stretch measures.
await census?.installStatementCensus({ timing: false });
const { appContext } = await import("../app/context.server");
globalThis.skladSyncContext = { ...appContext(), clock: benchClock };
const context = appContext();
const { db } = context;

const { installNetworkGuard, routeShopifyTo } = await import("../test/support/network");
// Before the Shopify library is imported: it keeps the fetch it finds.
installNetworkGuard();
const { orderPayload } = await import("../test/e2e/harness");
const { startRouteServer } = await import("../test/support/route-server");
const { signedWebhookRequest } = await import("../test/support/webhooks");
const { numberedAccounts } = await import("../test/warehouse-sim/server");
const { takeInOrderWebhook } = await import("../app/orders/intake.server");
const { installWakeNotifier, wakeWorker } = await import("../app/work/worker.server");
const { createWakeNotifier } = await import("../app/work/wake-channel.server");
const { shopifyOrderSchema } = await import("../app/orders/payload");
const { saveSettings } = await import("../app/settings/settings.server");
const { saveStatusSettings } = await import("../app/statuses/settings.server");
const { createEngine } = await import("../app/assembly/engine.server");
const { env } = await import("../app/env.server");
const { retryOrders } = await import("../app/orders/actions.server");
const { ATTENTION } = await import("../app/orders/states");

const warehouse = await startSimulatorProcess({ accounts: SHOPS });
const fake = await startShopifyFakeProcess({ restoreRate: 100, maximumAvailable: 2_000 });
routeShopifyTo(fake.url);
const accounts = numberedAccounts(SHOPS);
const shops = accounts.map((_, index) => `bench-${index}.myshopify.com`);
const keyOf = new Map(shops.map((shop, index) => [shop, accounts[index]!.apiKey]));

// ---------------------------------------------------------------------------------------------------
// Installing the shops.
const skus = Array.from({ length: SKUS }, (_, n) =>
  n === 0 ? "CUP-KARP-BLUE" : n === 1 ? "TEA-POL-100" : `SKU-${String(n).padStart(4, "0")}`,
);
async function install(shop: string, index: number) {
  const apiKey = keyOf.get(shop)!;
  const accessToken = `shpat_bench_${index}`;
  await fake.addShop({ domain: shop, accessToken });
  const location = await fake.addLocation({ shop, name: "Склад" });
  await fake.control("products", {
    shop,
    locationId: location.id,
    products: skus.map((sku) => ({ title: `Товар ${sku}`, variants: [{ sku, available: 1_000 }] })),
  });
  await warehouse.control("products", {
    apiKey,
    products: skus.map((sku) => ({ sku, name: `Товар ${sku}`, quantity: 1_000_000 })),
  });
  await db.shop.create({
    data: {
      shop,
      name: `Крамниця ${index}`,
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date(benchClock().getTime() - HOUR_MS),
    },
  });
  await db.session.create({ data: { id: `offline_${shop}`, shop, state: "", accessToken, scope: "" } });
  const saved = await saveSettings(context, shop, {
    apiKey,
    environment: "production",
    batchAddOrder: true,
    mapping: {},
  });
  if (!saved.ok) throw new Error(`settings refused: ${JSON.stringify(saved.errors)}`);
  await db.shopSettings.update({ where: { shop }, data: { batchProof: "proven" } });
  const statuses = await saveStatusSettings(context, shop, { locationId: location.id }, [
    { id: location.id, name: location.name },
  ]);
  if (!statuses.ok) throw new Error(JSON.stringify(statuses.errors));
}
const setupStarted = performance.now();
for (let index = 0; index < SHOPS; index += 10)
  await Promise.all(shops.slice(index, index + 10).map((shop, n) => install(shop, index + n)));
console.error(`installed ${SHOPS} shops in ${round((performance.now() - setupStarted) / 1000)} s`);

const app = await startRouteServer();
/**
 * The app's engine, as createEngine builds it for the web process and `npm run worker`. `holdWaitMs`: see the
 * idle stretch, which alone changes it.
 */
function startEngine(holdWaitMs?: number) {
  const started = createEngine(context, env(), {
    endpoints: { baseUrl: warehouse.url, baseUrlV2: warehouse.urlV2, timeoutMs: 30_000 },
    ...(holdWaitMs !== undefined && { holdWaitMs }),
  });
  globalThis.skladSyncWorker = started;
  started.start();
  return started;
}

let orderNumber = 0;
/** An order as Shopify would send it, placed now by the app's clock. */
function nextOrder() {
  const n = ++orderNumber;
  const at = benchClock().toISOString();
  return { n, payload: orderPayload(n, { created_at: at, updated_at: at }) };
}
async function takeIn(shop: string) {
  const { n, payload } = nextOrder();
  // Woken as the webhook route wakes it.
  await takeInOrderWebhook(
    { ...context, wake: wakeWorker },
    {
      shop,
      topic: "orders/create",
      eventId: `e${n}`,
      order: shopifyOrderSchema.parse(payload),
    },
  );
}
/** The real route: a signed orders/create over HTTP; answers the order's id. */
async function post(shop: string): Promise<string> {
  const { n, payload } = nextOrder();
  const request = signedWebhookRequest({ shop, topic: "orders/create", payload, eventId: `e${n}` });
  const response = await fetch(new URL(new URL(request.url).pathname, app.url), {
    method: "POST",
    headers: request.headers,
    body: await request.text(),
  });
  if (response.status !== 200) throw new Error(`orders/create answered ${response.status}`);
  await response.arrayBuffer();
  return String(payload.id);
}
const acceptedCount = (where: object = {}) =>
  db.warehouseOrder.count({ where: { state: "accepted", ...where } });
async function until(check: () => Promise<boolean>, what: string, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  let polls = 0;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (++polls % 40 === 0) {
      const states = await db.warehouseOrder.groupBy({ by: ["state"], _count: true });
      const due = await db.shopSchedule.groupBy({
        by: ["kind"],
        where: { nextRunAt: { lte: benchClock() } },
        _count: true,
      });
      console.error(
        `  ${round((performance.now() - setupStarted) / 1000)} s, waiting for ${what}: orders ${JSON.stringify(
          states.map((s) => [s.state, s._count]),
        )}, due ${JSON.stringify(due.map((d) => [d.kind, d._count]))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Waits until `expected` orders (of `where`) are accepted. With worker processes, one killed, an order whose
 * batch was claimed but never sent is not at the warehouse, and goes to the merchant after the in-doubt wait
 * (WAREHOUSE_IN_DOUBT_AFTER_MS, 10 minutes unless told), never sent again on a guess: here the merchant sends
 * it again (retryOrders, as the orders page does), and `resentByMerchant` counts it.
 */
let resentByMerchant = 0;
async function settleOrders(where: object, expected: number, what: string, timeoutMs: number) {
  const flagged = () =>
    db.warehouseOrder.findMany({
      where: { ...where, attention: ATTENTION.notAtWarehouse },
      select: { id: true, shop: true },
    });
  if (!WORKERS) return until(async () => (await acceptedCount(where)) >= expected, what, timeoutMs);
  await until(
    async () => (await acceptedCount(where)) + (await flagged()).length >= expected,
    what,
    timeoutMs,
  );
  const toResend = await flagged();
  if (!toResend.length) return;
  resentByMerchant += toResend.length;
  console.error(
    `  ${toResend.length} orders not at the warehouse after the kill: sent again, as a merchant would`,
  );
  for (const shop of new Set(toResend.map((row) => row.shop)))
    await retryOrders(
      context,
      shop,
      toResend.filter((row) => row.shop === shop).map((row) => row.id),
    );
  await until(async () => (await acceptedCount(where)) >= expected, `${what}, sent again`, timeoutMs);
}

let taken = 0;
console.error(`taking in ${IN_FLIGHT} orders a shop (in flight at the warehouse for the idle stretch)...`);
// The engine first, so that each shop's orders wake it as the webhook route does: orders found only by the
// sweep wait for one of the engine's four slots, which the installs' first reference downloads held (a
// 100-shop run: 16 shops' orders accepted in five minutes).
let engine: ReturnType<typeof startEngine> | undefined = startEngine();
for (const shop of shops) for (let i = 0; i < IN_FLIGHT; i++) await takeIn(shop);
taken += SHOPS * IN_FLIGHT;
await until(async () => (await acceptedCount()) >= taken, "the orders in flight", 30 * 60_000);
console.error(`all ${taken} in flight after ${round((performance.now() - setupStarted) / 1000)} s`);

// ---------------------------------------------------------------------------------------------------
// Stage 1: idle.
async function reading() {
  const [sim, shopify] = await Promise.all([warehouse.stats(), fake.stats()]);
  const statements = census
    ? census.statementCensus(1).reduce((sum, entry) => sum + entry.perOrder, 0)
    : Number.NaN;
  const cpu = process.cpuUsage();
  return {
    at: performance.now(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    statements,
    warehouseRequests: Object.values(sim.requests).reduce((sum, count) => sum + count, 0),
    shopifyCost: shopify.actualCost,
    simRequests: sim.requests,
  };
}
type Reading = Awaited<ReturnType<typeof reading>>;
/** Each figure per real second between two readings. */
function perSecond(from: Reading, to: Reading) {
  const seconds = (to.at - from.at) / 1000;
  return {
    cpuMs: (to.cpuMs - from.cpuMs) / seconds,
    statements: (to.statements - from.statements) / seconds,
    warehouseRequests: (to.warehouseRequests - from.warehouseRequests) / seconds,
    shopifyCost: (to.shopifyCost - from.shopifyCost) / seconds,
  };
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// What installing asked for (first stock syncs, reference data, returns' first sweep) is done at the scaled
// pace before anything is measured: BENCH_WARM_MINUTES of clock time (30 unless told).
const WARM_MINUTES = Number(process.env.BENCH_WARM_MINUTES ?? 30);
const scaledLimits = { windowMs: Math.round(WINDOW_MS / SCALE) };
await warehouse.control("limits", scaledLimits);
census?.countStatements(true);
// A shop loop whose next work is due within holdWaitMs (65 s) keeps its lease and one of the engine's slots
// while it sleeps, and its sleep is real time (a timer): at 60x, a minute's wait held a slot for an hour of
// clock time, and four shops waiting on their reference refresh's next question held all four slots while
// the other 96 shops' schedules stayed due (a 100-shop run, the process idle). So the scaled stretches run an
// engine that keeps no lease waiting (holdWaitMs 0: the sweep, every 2 s, that is 2 clock minutes, takes a
// shop up again when its work is due); the real-time stages run the engine as built.
await engine.stop();
engine = startEngine(0);
runClockAt(SCALE);
console.error(`warming up: ${WARM_MINUTES} clock minutes at ${SCALE}x...`);
await sleep((WARM_MINUTES * 60_000) / SCALE);
// Then until nothing is due: on a loaded machine the first syncs can outlast the warm-up.
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 300);
let settled = true;
await until(
  async () => (await db.shopSchedule.count({ where: { nextRunAt: { lte: benchClock() } } })) === 0,
  "the installs' work to be done",
  SETTLE_S * 1000,
).catch(() => (settled = false));
console.error(
  `${settled ? "settled" : `not settled after ${SETTLE_S} s more: measuring anyway`} at ${round((performance.now() - setupStarted) / 1000)} s`,
);

/** Stage 1's measurements, with the engine in this process (see the header). */
async function measureIdle() {
  runClockAt(0);
  console.error(
    `idle, clock stopped: ${FROZEN_S} s (at ${round((performance.now() - setupStarted) / 1000)} s)...`,
  );
  await sleep(2_000);
  const frozenFrom = await reading();
  await sleep(FROZEN_S * 1000);
  const frozenTo = await reading();

  const { Session } = await import("node:inspector/promises");
  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }
  runClockAt(SCALE);
  console.error(`idle, clock at ${SCALE}x: ${IDLE_MINUTES} clock minutes...`);
  const scaledFrom = await reading();
  await sleep((IDLE_MINUTES * 60_000) / SCALE);
  const scaledTo = await reading();
  if (profiler) {
    const { profile } = await profiler.post("Profiler.stop");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
    profiler.disconnect();
  }
  await engine?.stop();
  runClockAt(1);
  await warehouse.control("limits", { windowMs: WINDOW_MS });
  engine = startEngine();
  census?.countStatements(false);
  const frozen = perSecond(frozenFrom, frozenTo);
  const scaled = perSecond(scaledFrom, scaledTo);
  /** Per real second at real time: the per-second machinery once, the schedules' work at 1/SCALE its pace. */
  const realRate = (name: keyof typeof frozen) => frozen[name] + (scaled[name] - frozen[name]) / SCALE;
  const perShopHour = (name: keyof typeof frozen) => round((realRate(name) * 3600) / SHOPS, 2);
  const idle = {
    idleCpuPctOfCore: round(realRate("cpuMs") / 10, 2),
    idleMachineryCpuPctOfCore: round(frozen.cpuMs / 10, 2),
    idleStatementsPerShopHour: census ? perShopHour("statements") : null,
    idleWarehouseRequestsPerShopHour: perShopHour("warehouseRequests"),
    idleShopifyCostPerShopHour: perShopHour("shopifyCost"),
  };
  const idleRequestsByOperation = Object.fromEntries(
    Object.entries(scaledTo.simRequests).map(([operation, count]) => [
      operation,
      round((((count - (scaledFrom.simRequests[operation] ?? 0)) / IDLE_MINUTES) * 60) / SHOPS, 2),
    ]),
  );
  console.error(`idle: ${JSON.stringify({ ...idle, frozen, scaled })}`);
  console.error(
    `idle warehouse requests per shop-hour by operation: ${JSON.stringify(idleRequestsByOperation)}`,
  );
  if (census)
    console.error(
      `statements of the whole idle run (warm-up included), most frequent first:\n${JSON.stringify(
        census
          .statementCensus(1)
          .sort((a, b) => b.perOrder - a.perOrder)
          .slice(0, 15)
          .map(({ sql, perOrder }) => ({ sql, count: perOrder })),
        null,
        1,
      )}`,
    );
  return idle;
}

/**
 * Worker processes beside this one (BENCH_WORKERS): each as `npm run worker` runs it (bench/support.ts), on
 * this process's database, simulator and Shopify fake, and on the benchmark's clock at real time.
 */
const workers: ReturnType<typeof startWorkerProcess>[] = [];
/** Which stage a worker's log line counts for. */
let stage = "setup";
async function addWorker() {
  const started = startWorkerProcess(
    {
      NODE_ENV: "production",
      TEST_SHOPIFY_FAKE_URL: fake.url,
      WAREHOUSE_API_URL: warehouse.url,
      WAREHOUSE_API_V2_URL: warehouse.urlV2,
      // As this process's engine (startEngine).
      WAREHOUSE_TIMEOUT_MS: "30000",
      BENCH_CLOCK_OFFSET_MS: String(benchClock().getTime() - Date.now()),
    },
    () => stage,
  );
  workers.push(started);
  await started.started;
  return started;
}

let idle;
if (!WORKERS) idle = await measureIdle();
else {
  // The scaled clock cannot reach other processes (each reads its own), and a real-time idle hour is more
  // than a run can spend: the idle stretch is not measured with worker processes (its figures are the
  // single process's, bench:shops without BENCH_WORKERS). The installs' warm-up above ran in this process;
  // from here this process is the web process alone (no engine: as WORKER=off, it wakes the workers by
  // NOTIFY, as app/entry.server installs it, unless BENCH_WAKE=off) and the workers do every shop's work.
  console.error("idle: not measured with worker processes (the scaled clock is this process's alone)");
  idle = {
    idleCpuPctOfCore: null,
    idleMachineryCpuPctOfCore: null,
    idleStatementsPerShopHour: null,
    idleWarehouseRequestsPerShopHour: null,
    idleShopifyCostPerShopHour: null,
  };
  await engine?.stop();
  engine = undefined;
  globalThis.skladSyncWorker = undefined;
  if (WAKE === "notify") installWakeNotifier(createWakeNotifier(context));
  runClockAt(1);
  await warehouse.control("limits", { windowMs: WINDOW_MS });
  census?.countStatements(false);
  for (let i = 0; i < WORKERS; i++) await addWorker();
  console.error(`${WORKERS} worker processes started: ${workers.map((each) => each.pid).join(", ")}`);
}

/**
 * With workers: once BENCH_KILL_AT of the sale is accepted, the worker holding the sale shop's lease is killed
 * (SIGKILL: no lease released, a batch perhaps at the warehouse). Answers what it held and when.
 */
async function killDuringSale() {
  const threshold = saleBefore + Math.ceil(SALE_ORDERS * KILL_AT);
  let holder: string | undefined;
  await until(
    async () => {
      if ((await acceptedCount({ shop: saleShop })) < threshold) return false;
      holder = (await db.workLease.findUnique({ where: { shop: saleShop } }))?.holder;
      return holder !== undefined;
    },
    "the sale's first part, its shop leased",
    20 * 60_000,
  );
  // The holder's name carries its process id (createWorker).
  const victim = workers.find((each) => holder!.includes(`:${each.pid}:`));
  if (!victim) throw new Error(`the sale shop's lease is held by ${holder}, none of the workers`);
  const held = await db.workLease.findMany({ where: { holder } });
  const at = benchClock();
  const realAt = Date.now();
  await victim.kill("SIGKILL");
  const pending = await db.warehouseOrder.groupBy({
    by: ["shop"],
    where: { shop: { in: held.map((lease) => lease.shop) }, state: { not: "accepted" } },
    _count: true,
  });
  console.error(
    `killed worker ${victim.pid} (SIGKILL) at ${round((performance.now() - saleStarted) / 1000)} s into the sale: ` +
      `it held ${held.length} shops' leases, ${pending.length} with orders not yet accepted`,
  );
  return {
    pid: victim.pid,
    at,
    heldShops: held.length,
    pendingShops: pending.map((row) => row.shop),
    // Expiry is by the database's clock, on this machine the same as this process's real time.
    leaseLeftS: Math.max(0, ...held.map((lease) => (lease.expiresAt.getTime() - realAt) / 1000)),
  };
}

/** For each shop the killed worker held with orders left: from the kill to its next order accepted. */
async function measureTakeover(kill: Awaited<ReturnType<typeof killDuringSale>>) {
  const gaps: Record<string, number> = {};
  for (const shop of kill.pendingShops) {
    const next = await db.warehouseOrder.aggregate({
      where: { shop, acceptedAt: { gt: kill.at } },
      _min: { acceptedAt: true },
    });
    if (next._min.acceptedAt) gaps[shop] = (next._min.acceptedAt.getTime() - kill.at.getTime()) / 1000;
  }
  const values = Object.values(gaps);
  return {
    killedPid: kill.pid,
    killedHeldShops: kill.heldShops,
    killedPendingShops: kill.pendingShops.length,
    killedLeaseLeftS: round(kill.leaseLeftS),
    takeoverSaleShopS: gaps[saleShop] === undefined ? null : round(gaps[saleShop]),
    takeoverS: values.length ? round(Math.max(...values)) : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Stage 2: a flash sale in shop 0 while every other shop takes an order a minute.
const saleShop = shops[0]!;
const others = shops.slice(1);
const saleBefore = await acceptedCount({ shop: saleShop });
const posted = new Map<string, number>();
let othersDone = false;
let postFailures = 0;
const stageStarted = performance.now();
const othersPosting = others.map(async (shop, index) => {
  // Spread over the minute: shop i's orders come at its own second of every minute.
  await sleep((index / others.length) * WINDOW_MS);
  while (!othersDone) {
    const at = benchClock().getTime();
    try {
      posted.set(`${shop} ${await post(shop)}`, at);
    } catch (error) {
      postFailures++;
      console.error(`  ${shop}: ${String(error)}`);
    }
    await sleep(WINDOW_MS);
  }
});
console.error(
  `flash sale: ${SALE_ORDERS} orders in ${saleShop}, one a minute in each of the other ${others.length}...`,
);
stage = "sale";
const saleStarted = performance.now();
const killed = WORKERS ? killDuringSale() : undefined;
// When each AddOrder's hundredth order had been taken in: no schedule can send a batch before its orders exist.
const batchFilledMs: number[] = [];
for (let i = 0; i < SALE_ORDERS; i++) {
  await takeIn(saleShop);
  if ((i + 1) % 100 === 0 || i + 1 === SALE_ORDERS) batchFilledMs.push(performance.now() - saleStarted);
}
const saleIntakeMs = performance.now() - saleStarted;
taken += SALE_ORDERS;
await settleOrders({ shop: saleShop }, saleBefore + SALE_ORDERS, "the sale", 20 * 60_000);
const saleElapsedMs = performance.now() - saleStarted;
const saleRequests = Math.ceil(SALE_ORDERS / 100);
const saleMinimumMs = saleRequests <= 60 ? 0 : Math.ceil(saleRequests / 60 - 1) * WINDOW_MS;
// The least the key's limit allows given when the orders came (this process takes them in one by one, so the
// sale arrives over saleIntakeS): each batch leaves once its orders exist and once the request 60 before it
// is a window old.
const leftAt: number[] = [];
batchFilledMs.forEach((filled, k) =>
  leftAt.push(Math.max(filled, k >= 60 ? leftAt[k - 60]! + WINDOW_MS : 0)),
);
const saleMinimumGivenIntakeMs = leftAt.at(-1) ?? 0;
const leftToRun = 2 * WINDOW_MS - (performance.now() - stageStarted);
if (leftToRun > 0) await sleep(leftToRun);
othersDone = true;
await Promise.all(othersPosting);
taken += posted.size;
await settleOrders({}, taken, "the others' orders", 10 * 60_000);
const takeover = killed && (await measureTakeover(await killed));
if (takeover) console.error(`takeover: ${JSON.stringify(takeover)}`);
const acceptedRows = await db.warehouseOrder.findMany({
  where: {
    shop: { in: others },
    shopifyOrderId: { in: [...posted.keys()].map((key) => key.split(" ")[1]!) },
  },
  select: { shop: true, shopifyOrderId: true, acceptedAt: true },
});
const acceptS = acceptedRows
  .flatMap((row) => {
    const at = posted.get(`${row.shop} ${row.shopifyOrderId}`);
    return at === undefined || !row.acceptedAt ? [] : [(row.acceptedAt.getTime() - at) / 1000];
  })
  .sort((a, b) => a - b);
const sale = {
  othersOrders: posted.size,
  othersP50AcceptS: round(percentile(acceptS, 50), 2),
  othersP95AcceptS: round(percentile(acceptS, 95), 2),
  othersMaxAcceptS: round(acceptS.at(-1) ?? Number.NaN, 2),
  saleElapsedS: round(saleElapsedMs / 1000),
  saleMinimumS: round(saleMinimumMs / 1000),
  saleRatio: saleMinimumMs ? round(saleElapsedMs / saleMinimumMs, 3) : null,
  saleIntakeS: round(saleIntakeMs / 1000),
  saleMinimumGivenIntakeS: round(saleMinimumGivenIntakeMs / 1000),
  saleRatioGivenIntake: saleMinimumGivenIntakeMs ? round(saleElapsedMs / saleMinimumGivenIntakeMs, 3) : null,
  postFailures,
};
console.error(`flash sale: ${JSON.stringify(sale)}`);
if (WORKERS) {
  // The killed worker started again (as compose's restart would), so that the burst has as many as the sale had.
  await addWorker();
  console.error(`worker ${workers.at(-1)!.pid} started in the killed one's place`);
}

// ---------------------------------------------------------------------------------------------------
// Stage 3: a burst of 20 orders in every shop at once.
console.error(`burst: ${BURST} orders in each of ${SHOPS} shops...`);
stage = "burst";
const burstCpu = process.cpuUsage();
const workersCpuBefore = workers.map((each) => each.cpuMs());
const burstStarted = performance.now();
for (let i = 0; i < BURST; i++) for (const shop of shops) await takeIn(shop);
taken += SHOPS * BURST;
await settleOrders({}, taken, "the burst", 30 * 60_000);
const burstElapsedMs = performance.now() - burstStarted;
const burstCpuUsed = process.cpuUsage(burstCpu);
const webBurstCpuMs = (burstCpuUsed.user + burstCpuUsed.system) / 1000;
const workersBurstCpuMs = workers.map((each, index) => each.cpuMs() - workersCpuBefore[index]!);
// One process: its CPU. With workers, the least time the processes' CPU allows on this machine's cores: no
// less than the busiest process's CPU (each on one thread), nor than all of it spread over every core.
const processesCpuMs = [webBurstCpuMs, ...workersBurstCpuMs.filter((ms) => !Number.isNaN(ms))];
const burstCpuMs = WORKERS
  ? Math.max(...processesCpuMs, processesCpuMs.reduce((sum, ms) => sum + ms, 0) / cpus().length)
  : webBurstCpuMs;

await engine?.stop();
globalThis.skladSyncWorker = undefined;
await globalThis.skladSyncWakeNotifier?.settled();
installWakeNotifier(undefined);
const workerShares = workers.map((each, index) => ({
  pid: each.pid,
  killed: each.pid === takeover?.killedPid,
  restarted: index >= WORKERS,
  saleBatches: each.share.batches.sale ?? 0,
  saleAccepted: each.share.accepted.sale ?? 0,
  saleFoundInDoubt: each.share.foundInDoubt.sale ?? 0,
  saleShops: each.share.shops.sale?.size ?? 0,
  burstBatches: each.share.batches.burst ?? 0,
  burstAccepted: each.share.accepted.burst ?? 0,
  burstShops: each.share.shops.burst?.size ?? 0,
  burstCpuS: Number.isNaN(workersBurstCpuMs[index]!) ? null : round(workersBurstCpuMs[index]! / 1000),
}));
if (WORKERS) console.error(`worker shares: ${JSON.stringify(workerShares)}`);
for (const each of workers) await each.kill("SIGTERM");
const stats = await warehouse.stats();
const notAccepted = await db.warehouseOrder.count({ where: { state: { not: "accepted" } } });
const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
let dbMb: number | null = null;
if (benchDatabase() === "sqlite") {
  const file = process.env.DATABASE_URL!.replace(/^file:/, "");
  dbMb = [file, `${file}-wal`].reduce((sum, each) => {
    try {
      return sum + statSync(each).size / 2 ** 20;
    } catch {
      return sum;
    }
  }, 0);
}
await app.close();
await warehouse.close();
await fake.close();
console.log(
  JSON.stringify({
    benchmark: "shops",
    database: benchDatabase(),
    layout: WORKERS ? `web (WORKER=off) + ${WORKERS} worker processes` : "one process",
    shops: SHOPS,
    skusPerShop: SKUS,
    inFlightPerShop: IN_FLIGHT,
    clockScale: SCALE,
    settledBeforeIdle: settled,
    idleClockMinutes: IDLE_MINUTES,
    loadAverage: loadavg().map((value) => round(value, 2)),
    ...idle,
    targetIdleCpuPctOfCore: 5,
    ...sale,
    targetOthersP95AcceptS: 5,
    targetSaleRatio: 1.05,
    burstOrders: SHOPS * BURST,
    burstElapsedS: round(burstElapsedMs / 1000),
    burstCpuS: round(burstCpuMs / 1000),
    ...(WORKERS && { webBurstCpuS: round(webBurstCpuMs / 1000) }),
    allRatio: round(burstElapsedMs / burstCpuMs, 3),
    targetAllRatio: 1.2,
    ordersTakenIn: taken,
    acceptedAtWarehouse: stats.ordersAccepted,
    duplicates: stats.duplicateIdOrders,
    lost: Math.max(0, taken - stats.ordersAccepted),
    notAcceptedRows: notAccepted,
    answers429: stats.statuses["429"] ?? 0,
    ...(WORKERS && {
      workers: WORKERS,
      wake: WAKE,
      workerShares,
      ...takeover,
      leaseTtlS: env().WORKER_LEASE_TTL_MS / 1000,
      resentByMerchant,
    }),
    heapMb: round(heapMb, 1),
    dbMb: dbMb === null ? null : round(dbMb, 1),
  }),
);
process.exit(0);

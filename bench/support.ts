// What the order benchmarks share: a fresh, migrated database (SQLite in a temporary folder, or a
// PostgreSQL database when BENCH_DATABASE_URL names a server: sklad_sync_bench, or BENCH_DATABASE_NAME),
// the app's environment, then the same end-to-end setup as the tests (routes over HTTP, simulator, worker).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { databaseFlavour } from "../app/db/flavour";
import type { Db } from "../app/db.server";

/** The database the benchmark runs on: SQLite unless BENCH_DATABASE_URL names a PostgreSQL server. */
export function benchDatabase(): "sqlite" | "postgresql" {
  const server = process.env.BENCH_DATABASE_URL;
  return server && databaseFlavour(server) === "postgresql" ? "postgresql" : "sqlite";
}

export async function prepareBenchEnvironment(): Promise<void> {
  if (benchDatabase() === "postgresql") {
    const { freshPostgresDatabase } = await import("../test/support/databases");
    process.env.DATABASE_URL = await freshPostgresDatabase(
      process.env.BENCH_DATABASE_URL!,
      // Its own name when told, so that two benchmarks on one server do not drop each other's database.
      process.env.BENCH_DATABASE_NAME ?? "sklad_sync_bench",
    );
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), "sklad-bench-"));
    process.env.DATABASE_URL = `file:${path.join(dir, "bench.sqlite")}`;
  }
  // The test helpers' app credentials, which the harness signs webhooks with.
  const { API_KEY, API_SECRET_KEY, APP_URL } = await import("@shopify/shopify-api/test-helpers");
  process.env.SHOPIFY_API_KEY = API_KEY;
  process.env.SHOPIFY_API_SECRET = API_SECRET_KEY;
  process.env.SHOPIFY_APP_URL = APP_URL;
  process.env.LOG_LEVEL = "silent";
  execFileSync("npm", ["run", "--silent", "setup"], { stdio: "ignore", env: process.env });
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/**
 * A test server in a process of its own: `script` (run by tsx) prints one JSON line with its addresses, and
 * is seeded and read through its control routes. It is killed on `close`, or when this process exits, so a
 * benchmark that fails leaves none behind.
 */
async function startServerProcess<Started extends { controlUrl: string }>(
  name: string,
  script: string,
  args: string[],
) {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const killOnExit = () => child.kill();
  process.once("exit", killOnExit);
  const exited = once(child, "exit");
  const line = await Promise.race([
    once(createInterface({ input: child.stdout! }), "line").then(([first]) => first as string),
    exited.then(([code]) => {
      throw new Error(`${name} exited (${String(code)}) before printing its addresses`);
    }),
  ]);
  const started = JSON.parse(line) as Started;
  const control = async (route: string, body?: object) => {
    const response = await fetch(`${started.controlUrl}/${route}`, {
      method: body ? "POST" : "GET",
      ...(body && { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`${name} control ${route}: HTTP ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  const close = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    await exited;
  };
  return { started, control, close };
}

/**
 * The warehouse simulator in a process of its own (as `npm run sim` runs it), as the real warehouse is:
 * its work then does not share the benchmarked process's thread. Real limits unless `limits` is false.
 */
export async function startSimulatorProcess(options: { limits?: boolean; accounts?: number } = {}) {
  const { started, control, close } = await startServerProcess<{
    url: string;
    urlV2: string;
    apiKey: string;
    controlUrl: string;
  }>("simulator", "test/warehouse-sim/cli.ts", [
    "--port",
    "0",
    ...(options.limits === false ? ["--no-limits"] : []),
    ...(options.accounts ? ["--accounts", String(options.accounts)] : []),
  ]);
  return {
    ...started,
    seedProducts: (products: { sku: string; name?: string; barcode?: string; quantity?: number }[]) =>
      control("products", { products }),
    /** Any control route (test/warehouse-sim/control.ts), for what a benchmark needs beyond these. */
    control,
    /** Forgets every order, product, limit window and counter, as a fresh start would. */
    reset: () => control("reset", {}),
    stats: () =>
      control("stats") as Promise<{
        requests: Record<string, number>;
        statuses: Record<string, number>;
        duplicateIdOrders: number;
        ordersAccepted: number;
      }>,
    close,
  };
}

/**
 * The Shopify fake in a process of its own, for the same reason: its schema validation and execution then
 * do not share the app's thread. The app reaches it as any fake, through `routeShopifyTo(url)`.
 */
export async function startShopifyFakeProcess(bucket: { restoreRate: number; maximumAvailable: number }) {
  const { started, control, close } = await startServerProcess<{
    url: string;
    graphqlUrl: string;
    controlUrl: string;
  }>("Shopify fake", "test/shopify-fake/cli.ts", [
    "--restore-rate",
    String(bucket.restoreRate),
    "--maximum-available",
    String(bucket.maximumAvailable),
  ]);
  return {
    ...started,
    addShop: (shop: { domain: string; accessToken: string }) =>
      control("shops", shop) as Promise<{ domain: string; id: string }>,
    addLocation: (location: { shop: string; name?: string }) =>
      control("locations", location) as Promise<{ id: string; name: string }>,
    /** `count` orders alike, answered with their order GIDs in the order they were made. */
    addOrders: (orders: {
      shop: string;
      count: number;
      lineItems: Array<{ title: string; quantity: number } | { sku: string; quantity: number }>;
      locationId?: string;
    }) => control("orders", orders) as Promise<{ ids: string[] }>,
    /** Counters since the fake started (test/shopify-fake/control.ts). */
    stats: () =>
      control("stats") as Promise<{
        requests: number;
        actualCost: number;
        orders: number;
        fulfilledOrders: number;
        extraFulfillments: number;
        /** Requests by their operation's name. */
        operations: Record<string, number>;
      }>,
    /** Any control route (test/shopify-fake/control.ts), for what a benchmark needs beyond these. */
    control,
    close,
  };
}

/**
 * The shop in the fake (its own process), with a location standing for the warehouse, and the shop's
 * offline session in the app's database, so the worker's Admin client reaches the fake as the shop.
 */
export async function benchShopInFake(
  fake: Awaited<ReturnType<typeof startShopifyFakeProcess>>,
  db: Db,
  shop: string,
): Promise<{ id: string; name: string }> {
  const accessToken = "shpat_bench";
  await fake.addShop({ domain: shop, accessToken });
  const warehouse = await fake.addLocation({ shop, name: "Склад" });
  await db.session.create({ data: { id: `offline_${shop}`, shop, state: "", accessToken, scope: "" } });
  return warehouse;
}

/**
 * What one worker process did, from its log, by stage: AddOrder batches and the orders they had accepted,
 * orders of a batch in doubt (a killed worker's) it found at the warehouse, and the shops it sent for.
 */
export interface WorkerShare {
  pid: number;
  batches: Record<string, number>;
  accepted: Record<string, number>;
  foundInDoubt: Record<string, number>;
  shops: Record<string, Set<string>>;
}

/**
 * A worker process as `npm run worker` runs it (scripts/worker.ts under tsx, as compose.yaml's worker
 * command), with this process's environment (DATABASE_URL, SKLAD_ENCRYPTION_KEY) and `env` on top, and two
 * preloads a benchmark needs: the tests' network guard, which sends Admin API traffic to the Shopify fake
 * (test/support/child-network.ts), and the benchmark's clock (bench/worker-clock.ts). Its log (info) is read
 * for what it sent; `stage()` says which stage a line counts for. Killed when this process exits.
 */
export function startWorkerProcess(env: Record<string, string>, stage: () => string) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      "./test/support/child-network.ts",
      "--import",
      "./bench/worker-clock.ts",
      "scripts/worker.ts",
    ],
    { env: { ...process.env, LOG_LEVEL: "info", ...env }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const share: WorkerShare = { pid: child.pid!, batches: {}, accepted: {}, foundInDoubt: {}, shops: {} };
  let stopping = false;
  let resolveStarted: (holder: string) => void;
  const started = new Promise<string>((resolve) => (resolveStarted = resolve));
  const exited = once(child, "exit");
  void exited.then(([code, signal]) => {
    process.off("exit", killOnExit);
    if (!stopping) console.error(`worker ${child.pid} exited (${String(code)}, ${String(signal)})`);
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    let entry: { event?: string; holder?: string; shop?: string; accepted?: number; listed?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return;
    }
    if (entry.event === "worker.started" && entry.holder) resolveStarted(entry.holder);
    if (entry.event === "orders.submitted" && entry.shop) {
      const at = stage();
      share.batches[at] = (share.batches[at] ?? 0) + 1;
      share.accepted[at] = (share.accepted[at] ?? 0) + (entry.accepted ?? 0);
      (share.shops[at] ??= new Set()).add(entry.shop);
    }
    if (entry.event === "orders.looked_up" && entry.listed) {
      const at = stage();
      share.foundInDoubt[at] = (share.foundInDoubt[at] ?? 0) + entry.listed;
    }
  });
  return {
    pid: child.pid!,
    share,
    /** The worker's lease holder name, once it has started. */
    started: Promise.race([
      started,
      exited.then(([code]) => {
        throw new Error(`worker exited (${String(code)}) before it started`);
      }),
    ]),
    /** The process's CPU so far (user + system, from /proc), in milliseconds. */
    cpuMs: () => processCpuMs(child.pid!),
    kill: async (signal: NodeJS.Signals) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopping = true;
      child.kill(signal);
      await exited;
    },
  };
}

/** A process's CPU (user + system) in milliseconds, from /proc (Linux; 100 ticks a second). */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

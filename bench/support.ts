// What the order benchmarks share: a fresh, migrated database (SQLite in a temporary folder, or a
// PostgreSQL database when BENCH_DATABASE_URL names a server), the app's environment, then the same
// end-to-end setup as the tests (routes over HTTP, simulator, worker).
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { databaseFlavour } from "../app/db/flavour";

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
      "sklad_sync_bench",
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
 * The warehouse simulator in a process of its own (as `npm run sim` runs it), as the real warehouse is:
 * its work then does not share the benchmarked process's thread. Real limits unless `limits` is false.
 */
export async function startSimulatorProcess(options: { limits?: boolean } = {}) {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "test/warehouse-sim/cli.ts",
      "--port",
      "0",
      ...(options.limits === false ? ["--no-limits"] : []),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  const started = JSON.parse(line) as { url: string; urlV2: string; apiKey: string; controlUrl: string };
  const control = async (route: string, body?: object) => {
    const response = await fetch(`${started.controlUrl}/${route}`, {
      method: body ? "POST" : "GET",
      ...(body && { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`simulator control ${route}: HTTP ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  return {
    ...started,
    seedProducts: (products: { sku: string; name?: string; quantity?: number }[]) =>
      control("products", { products }),
    /** Forgets every order, product, limit window and counter, as a fresh start would. */
    reset: () => control("reset", {}),
    stats: () =>
      control("stats") as Promise<{
        requests: Record<string, number>;
        statuses: Record<string, number>;
        duplicateIdOrders: number;
        ordersAccepted: number;
      }>,
    async close() {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

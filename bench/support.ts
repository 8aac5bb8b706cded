// What the order benchmarks share: a fresh, migrated database (SQLite in a temporary folder, or a
// PostgreSQL database when BENCH_DATABASE_URL names a server), the app's environment, then the same
// end-to-end setup as the tests (routes over HTTP, simulator, worker).
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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

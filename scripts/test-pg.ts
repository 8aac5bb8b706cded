// `npm run test:pg`: the test suite against PostgreSQL. DATABASE_URL names the server (default: the local
// one on 127.0.0.1:5432, database `test`); each test worker gets a database of its own cloned from a
// migrated template. A server that does not answer is a failure with a clear message, never a skip.
import { spawnSync } from "node:child_process";
import pg from "pg";

const DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test";
const url = /^postgres(ql)?:/.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL! : DEFAULT_URL;
const where = new URL(url).host;

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
try {
  await client.connect();
  await client.query("SELECT 1");
} catch (error) {
  console.error(
    `PostgreSQL at ${where} does not answer (${(error as Error).message}).\n` +
      `Start it, or set DATABASE_URL to a PostgreSQL server whose user may create databases.`,
  );
  process.exit(1);
} finally {
  await client.end().catch(() => undefined);
}

const result = spawnSync("vitest", ["run", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, DATABASE_URL: url },
});
process.exit(result.status ?? 1);

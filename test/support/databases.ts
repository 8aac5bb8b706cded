// Real databases for the tests: a SQLite template migrated once per run and copied for each worker, or
// (when DATABASE_URL names PostgreSQL) a template database cloned into one database per worker.
import { execFileSync } from "node:child_process";
import { useWriteAheadLog } from "../../app/db/sqlite";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { databaseFlavour } from "../../app/db/flavour";

// Overridable so that two test runs in one checkout (a developer and an editor, say) do not clash.
export const TEST_DB_DIR = path.resolve(process.env.TEST_DB_DIR ?? ".cache/test-db");
const SQLITE_TEMPLATE = path.join(TEST_DB_DIR, "template.sqlite");
const PG_TEMPLATE = "sklad_sync_test_template";

function migrate(url: string): void {
  execFileSync("prisma", ["migrate", "deploy"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Run once per test run: builds the migrated template. Answers the URL workers derive theirs from. */
export async function prepareTemplateDatabase(baseUrl: string | undefined): Promise<string> {
  if (!baseUrl || databaseFlavour(baseUrl) === "sqlite") {
    rmSync(TEST_DB_DIR, { recursive: true, force: true });
    mkdirSync(TEST_DB_DIR, { recursive: true });
    migrate(`file:${SQLITE_TEMPLATE}`);
    await useWriteAheadLog(`file:${SQLITE_TEMPLATE}`);
    return `file:${SQLITE_TEMPLATE}`;
  }
  return freshPostgresDatabase(baseUrl, PG_TEMPLATE);
}

/** A new, migrated PostgreSQL database `name` on the server `serverUrl` names (dropped first if there). */
export async function freshPostgresDatabase(serverUrl: string, name: string): Promise<string> {
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  migrate(withDatabase(serverUrl, name));
  return withDatabase(serverUrl, name);
}

/**
 * Run once per worker: a database of its own, copied from the template. The copy is made over a
 * connection to the server's own database (`serverUrl`), never to the template: PostgreSQL refuses to
 * copy a database anyone is connected to, and the workers start side by side.
 */
export async function createWorkerDatabase(
  templateUrl: string,
  serverUrl: string,
  worker: string,
): Promise<string> {
  if (databaseFlavour(templateUrl) === "sqlite") {
    const file = path.join(TEST_DB_DIR, `worker-${worker}.sqlite`);
    // The previous file's write-ahead log would otherwise be replayed into the fresh copy.
    for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
    copyFileSync(templateUrl.slice("file:".length), file);
    return `file:${file}`;
  }
  const name = `sklad_sync_test_${worker}`;
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE}`);
  });
  return withDatabase(templateUrl, name);
}

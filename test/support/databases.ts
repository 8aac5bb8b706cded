// Real databases for the tests: a SQLite template migrated once per run and copied for each worker, or
// (when DATABASE_URL names PostgreSQL) a template database cloned into one database per worker.
import { execFileSync } from "node:child_process";
import { useWriteAheadLog } from "../../app/db/sqlite";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { databaseFlavour } from "../../app/db/flavour";

// Each SQLite run has a folder of its own under this one, so that two runs in one checkout (`npm test` and
// `npm run test:browser` in two terminals, say) never copy, wipe or migrate each other's files.
const TEST_DB_ROOT = path.resolve(process.env.TEST_DB_DIR ?? ".cache/test-db");
const RUN_PREFIX = "run-";
// PostgreSQL databases are named per run as well (`sklad_sync_test_<pid>_template`, `…_<pid>_w<worker>`), so two
// runs against one server never drop each other's databases.
const PG_PREFIX = "sklad_sync_test_";
const PG_TEMPLATE_SUFFIX = "_template";

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

/** Whether the process is still running (a run's folder is removed only once its run is gone). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The folders of SQLite runs that ended without removing theirs (stopped by Ctrl-C, say). */
function removeAbandonedRuns(): void {
  for (const entry of readdirSync(TEST_DB_ROOT, { withFileTypes: true })) {
    const pid = Number(entry.name.slice(RUN_PREFIX.length));
    if (!entry.isDirectory() || !entry.name.startsWith(RUN_PREFIX) || !Number.isInteger(pid)) continue;
    if (!running(pid)) rmSync(path.join(TEST_DB_ROOT, entry.name), { recursive: true, force: true });
  }
}

export interface TemplateDatabase {
  /** The URL workers derive theirs from. */
  url: string;
  /** Removes what the run left: its SQLite folder, or its PostgreSQL databases. */
  remove(): void | Promise<void>;
}

/** Run once per test run: builds the migrated template. */
export async function prepareTemplateDatabase(baseUrl: string | undefined): Promise<TemplateDatabase> {
  if (!baseUrl || databaseFlavour(baseUrl) === "sqlite") {
    mkdirSync(TEST_DB_ROOT, { recursive: true });
    removeAbandonedRuns();
    const dir = path.join(TEST_DB_ROOT, `${RUN_PREFIX}${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const url = `file:${path.join(dir, "template.sqlite")}`;
    migrate(url);
    await useWriteAheadLog(url);
    return { url, remove: () => rmSync(dir, { recursive: true, force: true }) };
  }
  await removeAbandonedPostgresRuns(baseUrl);
  const run = `${PG_PREFIX}${process.pid}`;
  return {
    url: await freshPostgresDatabase(baseUrl, `${run}${PG_TEMPLATE_SUFFIX}`),
    remove: () => dropPostgresRun(baseUrl, run),
  };
}

async function runDatabases(serverUrl: string, run: string | null): Promise<string[]> {
  return admin(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1",
      [`${run ?? PG_PREFIX}%`],
    );
    return rows.map((row) => row.datname);
  });
}

/** Drops one run's databases, its workers' first (each was copied from the template). */
async function dropPostgresRun(serverUrl: string, run: string): Promise<void> {
  const names = await runDatabases(serverUrl, `${run}_`);
  names.sort((a, b) => Number(a.endsWith(PG_TEMPLATE_SUFFIX)) - Number(b.endsWith(PG_TEMPLATE_SUFFIX)));
  await admin(serverUrl, async (client) => {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** The databases of runs that ended without dropping theirs, and those of the older, run-less naming. */
async function removeAbandonedPostgresRuns(serverUrl: string): Promise<void> {
  const runs = new Set<string>();
  for (const name of await runDatabases(serverUrl, null)) {
    const pid = Number(/^sklad_sync_test_(\d+)_/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0) {
      await admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    } else if (!running(pid)) runs.add(`${PG_PREFIX}${pid}`);
  }
  for (const run of runs) await dropPostgresRun(serverUrl, run);
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
    const template = templateUrl.slice("file:".length);
    const file = path.join(path.dirname(template), `worker-${worker}.sqlite`);
    // The previous file's write-ahead log would otherwise be replayed into the fresh copy.
    for (const suffix of ["-wal", "-shm"]) rmSync(file + suffix, { force: true });
    copyFileSync(template, file);
    return `file:${file}`;
  }
  const template = new URL(templateUrl).pathname.slice(1);
  const name = `${template.slice(0, -PG_TEMPLATE_SUFFIX.length)}_w${worker}`;
  await admin(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  });
  return withDatabase(templateUrl, name);
}

// The database client: SQLite through libSQL by default, PostgreSQL when DATABASE_URL says so. Both use
// Prisma's JavaScript driver adapters, so no native engine is needed anywhere.
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "@prisma/client";
import { databaseFlavour } from "./db/flavour";
import { SingleConnectionLibSQL } from "./db/libsql.server";
import { declareSqlAccess } from "./db/sql.server";

/** The client type; the PostgreSQL client is generated from the same models and has the same shape. */
export type Db = PrismaClient;

/** Builders of raw SQL fragments (`Prisma.sql`, `Prisma.join`, `Prisma.raw`). */
export type SqlFragments = Pick<typeof Prisma, "sql" | "join" | "raw">;
/** Set on the PostgreSQL client; its transaction clients see it through their prototype. */
const FRAGMENTS = Symbol("sql fragments");

/** `sqliteAdapter`: the SQLite connection's factory (bench/census.ts counts statements with its own). */
export function createDb(url: string, sqliteAdapter?: SingleConnectionLibSQL): Db {
  if (databaseFlavour(url) === "postgresql") {
    // Generated beside @prisma/client by scripts/db-generate.ts from the derived PostgreSQL schema.
    const { PrismaClient: PostgresClient, Prisma: PostgresPrisma } = createRequire(import.meta.url)(
      ".prisma/client-postgresql",
    ) as { PrismaClient: new (options: { adapter: PrismaPg }) => Db; Prisma: SqlFragments };
    const db = new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) });
    Object.defineProperty(db, FRAGMENTS, { value: PostgresPrisma });
    declareSqlAccess(db, { kind: "prisma" });
    return db;
  }
  const factory = sqliteAdapter ?? new SingleConnectionLibSQL({ url });
  const db = new PrismaClient({ adapter: factory });
  declareSqlAccess(db, { kind: "adapter", factory });
  return db;
}

/**
 * The SQL fragment builders of the client `db` is (or of the client whose transaction it is). Each
 * generated client has its own copy of Prisma's runtime and takes only its own fragments as SQL: another's
 * is sent as a parameter instead, which is a syntax error at best and, in `IN (…)`, silently matches nothing.
 */
export function sqlFragments(db: Db | Prisma.TransactionClient): SqlFragments {
  return (db as { [FRAGMENTS]?: SqlFragments })[FRAGMENTS] ?? Prisma;
}

/** The table-wide operations every model has, reached by model name (for work over all tables). */
export interface ModelDelegate {
  count(args?: { where?: { shop?: string } }): Promise<number>;
  deleteMany(args?: { where?: { shop?: string } }): Prisma.PrismaPromise<{ count: number }>;
}

/** The client's delegate for a Prisma model name (`ComplianceRequest` → `db.complianceRequest`). */
export function modelDelegate(db: Db, model: string): ModelDelegate {
  const delegate = (db as unknown as Record<string, ModelDelegate | undefined>)[
    model[0]!.toLowerCase() + model.slice(1)
  ];
  if (!delegate) throw new Error(`the Prisma client has no model ${model}`);
  return delegate;
}

/** A unique constraint refused the write: the row is already there. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  // By code, not instanceof: the PostgreSQL client is a separate generated client with its own error classes.
  // Prisma's own statements say P2002; a raw statement fails as P2010 with the driver's kind of failure;
  // a statement given to the driver adapter itself (app/db/sql.server.ts) throws the adapter's error.
  const { code, meta, name, cause } = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
    name?: unknown;
    cause?: { kind?: unknown };
  };
  return (
    code === "P2002" ||
    (code === "P2010" && meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation") ||
    (name === "DriverAdapterError" && cause?.kind === "UniqueConstraintViolation")
  );
}

/**
 * One INSERT of `rows` into `table`, as SQL: for the few hot writes where Prisma's cost per statement (its
 * WebAssembly compiler runs for each) is most of the write. The columns are the first row's keys, which
 * come from our code, never from input; every row must have the same ones. Values Prisma fills in on the
 * client (`@updatedAt`, `@default(cuid())`, and `@default(now())`, whose SQLite default is another format)
 * must be given.
 */
export function insertRows(
  db: Db | Prisma.TransactionClient,
  table: string,
  rows: readonly Record<string, unknown>[],
): Prisma.PrismaPromise<number> {
  if (!rows.length) throw new Error(`insertRows into ${table} was given no rows`);
  const { join, raw, sql } = sqlFragments(db);
  const columns = Object.keys(rows[0]!);
  const values = rows.map((row) => sql`(${join(columns.map((column) => row[column] ?? null))})`);
  return db.$executeRaw`INSERT INTO ${raw(`"${table}"`)} (${raw(columns.map((column) => `"${column}"`).join(", "))}) VALUES ${join(values)}`;
}

/** The /healthz answer: 200 when the database runs a query, 503 when it does not. */
export async function healthResponse(db: Db): Promise<Response> {
  let database: "ok" | "unreachable" = "ok";
  try {
    await db.$queryRaw`SELECT 1`;
  } catch {
    database = "unreachable";
  }
  return Response.json(
    { status: database === "ok" ? "ok" : "degraded", database },
    { status: database === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

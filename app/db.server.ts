// The database client: SQLite through libSQL by default, PostgreSQL when DATABASE_URL says so. Both use
// Prisma's JavaScript driver adapters, so no native engine is needed anywhere.
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "@prisma/client";
import { databaseFlavour } from "./db/flavour";
import { SingleConnectionLibSQL } from "./db/libsql.server";

/** The client type; the PostgreSQL client is generated from the same models and has the same shape. */
export type Db = PrismaClient;

/** Builders of raw SQL fragments (`Prisma.sql`, `Prisma.join`, `Prisma.raw`). */
export type SqlFragments = Pick<typeof Prisma, "sql" | "join" | "raw">;
/** Set on the PostgreSQL client; its transaction clients see it through their prototype. */
const FRAGMENTS = Symbol("sql fragments");

export function createDb(url: string): Db {
  if (databaseFlavour(url) === "postgresql") {
    // Generated beside @prisma/client by scripts/db-generate.ts from the derived PostgreSQL schema.
    const { PrismaClient: PostgresClient, Prisma: PostgresPrisma } = createRequire(import.meta.url)(
      ".prisma/client-postgresql",
    ) as { PrismaClient: new (options: { adapter: PrismaPg }) => Db; Prisma: SqlFragments };
    const db = new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) });
    Object.defineProperty(db, FRAGMENTS, { value: PostgresPrisma });
    return db;
  }
  return new PrismaClient({ adapter: new SingleConnectionLibSQL({ url }) });
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

/** A unique constraint refused the write (Prisma's P2002): the row is already there. */
export function isUniqueViolation(error: unknown): boolean {
  // By code, not instanceof: the PostgreSQL client is a separate generated client with its own error classes.
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
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

// Plain SQL in one transaction, for the few hot paths where Prisma's query engine is most of the cost: on
// SQLite, a statement through Prisma cost about 0.4-0.5 ms of CPU beyond the statement itself (its query
// compiler runs in WebAssembly for each), so a webhook's five statements cost more in Prisma than in
// SQLite. Here they go to the driver adapter Prisma itself connected, through its public interface: the
// same connection, under the same lock as Prisma's own queries and transactions, with the same conversion
// of values (dates as Prisma writes them). PostgreSQL, where the statements cost a round trip each anyway,
// runs them in a Prisma interactive transaction.
//
// The SQL is written once for both databases: double-quoted identifiers and `?` placeholders (numbered
// for PostgreSQL here). Identifiers come from our code, never from input; values always go as arguments.
import type { PrismaClient } from "@prisma/client";
import type { AdapterQuery, SingleConnectionLibSQL, SqlQueryable } from "./libsql.server";

export type SqlArg = string | number | boolean | Date | null;

/** Statements inside one transaction. */
export interface SqlTransaction {
  /** The rows, each keyed by column name. */
  query(sql: string, args?: readonly SqlArg[]): Promise<Record<string, unknown>[]>;
  /** The number of rows the statement changed. */
  execute(sql: string, args?: readonly SqlArg[]): Promise<number>;
  /**
   * Ends a SELECT whose rows must not change until the commit: " FOR UPDATE" on PostgreSQL; nothing on
   * SQLite, whose transaction holds the write lock from its start.
   */
  readonly forUpdate: string;
}

type Access = { kind: "adapter"; factory: SingleConnectionLibSQL } | { kind: "prisma" };
// Kept on the client itself under a registered symbol, not in a map of this module: a dev server (vite)
// may load its own copy of this module beside the one that made the client.
const ACCESS = Symbol.for("sklad-sync.sql-access");

/** Declares how plain SQL reaches `db`'s database (app/db.server.ts `createDb`, for each client it makes). */
export function declareSqlAccess(db: PrismaClient, how: Access): void {
  Object.defineProperty(db, ACCESS, { value: how });
}

/**
 * Runs `work` in one transaction that takes the write lock from its start (SQLite: BEGIN IMMEDIATE, see
 * libsql.server.ts); commits when it resolves, rolls back when it throws. A unique constraint's refusal is
 * recognised by `isUniqueViolation` (app/db.server.ts) on either path.
 */
export async function sqlTransaction<T>(
  db: PrismaClient,
  work: (tx: SqlTransaction) => Promise<T>,
): Promise<T> {
  const how = (db as { [ACCESS]?: Access })[ACCESS];
  if (!how) throw new Error("sqlTransaction needs a client made by createDb");
  if (how.kind === "prisma") {
    return db.$transaction((tx) =>
      work({
        query: (sql, args = []) => tx.$queryRawUnsafe(numbered(sql), ...args),
        execute: (sql, args = []) => tx.$executeRawUnsafe(numbered(sql), ...args),
        forUpdate: " FOR UPDATE",
      }),
    );
  }
  let adapter = how.factory.connected;
  if (!adapter) {
    // Prisma connects on its first query; this may be the process's first.
    await db.$connect();
    adapter = how.factory.connected;
    if (!adapter) throw new Error("the SQLite driver adapter did not connect");
  }
  const tx = await adapter.startTransaction();
  let result: T;
  try {
    result = await work(onAdapter(tx));
  } catch (error) {
    await tx.rollback();
    throw error;
  }
  await tx.commit();
  return result;
}

/**
 * One reading statement outside any transaction (no write lock taken, unlike sqlTransaction): for reads of
 * many rows where Prisma's conversion of each row is most of the cost (a reference set's 50,000 branches).
 * Values come back as the driver gives them (SQLite: dates as text, booleans as 0 and 1).
 */
export async function sqlQuery(
  db: PrismaClient,
  sql: string,
  args: readonly SqlArg[] = [],
): Promise<Record<string, unknown>[]> {
  const how = (db as { [ACCESS]?: Access })[ACCESS];
  if (!how) throw new Error("sqlQuery needs a client made by createDb");
  if (how.kind === "prisma") return db.$queryRawUnsafe(numbered(sql), ...args);
  let adapter = how.factory.connected;
  if (!adapter) {
    await db.$connect();
    adapter = how.factory.connected;
    if (!adapter) throw new Error("the SQLite driver adapter did not connect");
  }
  return onAdapter(adapter).query(sql, args);
}

/** PostgreSQL's placeholders are numbered. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function onAdapter(queryable: SqlQueryable): SqlTransaction {
  return {
    async query(sql, args = []) {
      const { columnNames, rows } = await queryable.queryRaw(adapterQuery(sql, args));
      return rows.map((row) => Object.fromEntries(columnNames.map((column, i) => [column, row[i]])));
    },
    execute: (sql, args = []) => queryable.executeRaw(adapterQuery(sql, args)),
    forUpdate: "",
  };
}

/** The statement as the adapter takes it: each argument's type drives its conversion (a date's format). */
function adapterQuery(sql: string, args: readonly SqlArg[]): AdapterQuery {
  return {
    sql,
    args: [...args],
    argTypes: args.map((arg) => ({
      scalarType:
        arg instanceof Date
          ? "datetime"
          : typeof arg === "string"
            ? "string"
            : typeof arg === "boolean"
              ? "boolean"
              : typeof arg === "number"
                ? Number.isInteger(arg)
                  ? "int"
                  : "float"
                : "unknown",
      arity: "scalar",
    })),
  };
}

/** One INSERT of `rows` into `table`: the columns are the first row's keys, the same in every row. */
export function insertStatement(
  table: string,
  rows: readonly Record<string, SqlArg | undefined>[],
): { sql: string; args: SqlArg[] } {
  if (!rows.length) throw new Error(`an insert into ${table} was given no rows`);
  const columns = Object.keys(rows[0]!);
  const placeholders = `(${columns.map(() => "?").join(", ")})`;
  return {
    sql: `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(", ")}) VALUES ${rows.map(() => placeholders).join(", ")}`,
    args: rows.flatMap((row) => columns.map((column) => row[column] ?? null)),
  };
}

// The database's clock: one time for every host, read where a time stamped by one process is compared
// with a time taken by another (leases, status hints). Hosts' own clocks may disagree by seconds or more.
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { sqlFragments } from "../db.server";
import { sqlQuery } from "./sql.server";

/** SQLite keeps a DateTime as ISO text with milliseconds and "+00:00", so its "now" is text in that form. */
export const SQLITE_DATETIME = "%Y-%m-%dT%H:%M:%f+00:00";

/**
 * The database's current time as SQL of a DateTime column's own kind. Prisma keeps a SQLite DateTime as
 * text in exactly SQLITE_DATETIME (checked on a row), which compares with the stored text as dates do.
 * PostgreSQL's column is `timestamp(3)` without a zone holding UTC, so its side is the UTC wall time (a
 * bare now() would be converted with the session's time zone). Constant text: no input goes into it.
 */
export function databaseNowSql(db: Db): string {
  // Each generated client has its own fragments (see sqlFragments): only SQLite's client uses Prisma's.
  return sqlFragments(db) === Prisma
    ? `strftime('${SQLITE_DATETIME}', 'now')`
    : `(statement_timestamp() AT TIME ZONE 'UTC')`;
}

/** The database's current time, read in one statement (as ISO text on both, so no driver converts it). */
export async function databaseNow(db: Db): Promise<Date> {
  const text =
    sqlFragments(db) === Prisma
      ? databaseNowSql(db)
      : `to_char(${databaseNowSql(db)}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"+00:00"')`;
  const [row] = await sqlQuery(db, `SELECT ${text} AS "now"`);
  const now = new Date(String(row?.now));
  if (Number.isNaN(now.getTime())) throw new Error(`the database's time is unreadable: ${String(row?.now)}`);
  return now;
}

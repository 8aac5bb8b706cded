// A lock held until the end of the transaction that takes it, for work that reads rows another transaction
// may be adding at the same moment (two product webhooks with one SKU). PostgreSQL reads committed rows
// only, so two such transactions would each miss the other's row; an advisory lock makes the second wait
// until the first has committed, and its next statement then sees the first's rows. SQLite needs none: every
// transaction there holds the database's write lock from its BEGIN (app/db/libsql.server.ts).
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { sqlFragments } from "../db.server";

/**
 * Waits for, then holds until the transaction ends, the lock named `name` (any text: `catalogue:<shop>`).
 * Taking it again in the same transaction does not wait.
 */
export async function lockForTransaction(tx: Db | Prisma.TransactionClient, name: string): Promise<void> {
  // Only the PostgreSQL client carries its own fragment builders (app/db.server.ts).
  if (sqlFragments(tx) === Prisma) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
}

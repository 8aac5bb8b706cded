// One worker per shop at a time, across every process: a lease row per shop, taken and renewed by atomic
// conditional updates and expiring on its own if its holder dies, so another process can take over.
import type { Db } from "../db.server";
import { isUniqueViolation } from "../db.server";

export interface Lease {
  shop: string;
  holder: string;
  expiresAt: Date;
}

/** Takes the shop's lease if it is free, expired or already ours; null when another worker holds it. */
export async function takeLease(
  db: Db,
  shop: string,
  holder: string,
  now: Date,
  ttlMs: number,
): Promise<Lease | null> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const { count } = await db.workLease.updateMany({
    where: { shop, OR: [{ holder }, { expiresAt: { lte: now } }] },
    data: { holder, expiresAt },
  });
  if (count === 1) return { shop, holder, expiresAt };
  try {
    await db.workLease.create({ data: { shop, holder, expiresAt } });
    return { shop, holder, expiresAt };
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Extends a lease still held; false when it expired and another worker took it (stop at once). */
export async function renewLease(db: Db, lease: Lease, now: Date, ttlMs: number): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + ttlMs);
  const { count } = await db.workLease.updateMany({
    where: { shop: lease.shop, holder: lease.holder, expiresAt: { gt: now } },
    data: { expiresAt },
  });
  if (count === 1) lease.expiresAt = expiresAt;
  return count === 1;
}

export async function releaseLease(db: Db, lease: Lease): Promise<void> {
  await db.workLease.deleteMany({ where: { shop: lease.shop, holder: lease.holder } });
}

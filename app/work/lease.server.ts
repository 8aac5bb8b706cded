// One worker per shop at a time, across every process: a lease row per shop, taken and renewed by atomic
// conditional statements and expiring on its own if its holder dies, so another process can take over.
// Expiry is judged by the database's clock alone: hosts whose clocks disagree would otherwise each see
// the other's lease as expired (or never expiring), and two would send for one shop.
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { sqlFragments } from "../db.server";
import type { Log } from "../logger.server";
import { databaseNowSql, SQLITE_DATETIME } from "../db/clock.server";

export interface Lease {
  shop: string;
  holder: string;
  /** When the lease runs out, by the database's clock. */
  expiresAt: Date;
  /** This host's clock minus the database's when the lease was last taken or renewed (for logs). */
  clockSkewMs: number;
}

/** The database's current time, and that time plus the TTL, as SQL of the column's own kind (db/clock.server.ts). */
function databaseTime(db: Db, ttlMs: number) {
  const { raw, sql } = sqlFragments(db);
  const now = raw(databaseNowSql(db));
  // Each generated client has its own fragments (see sqlFragments): only SQLite's client uses Prisma's.
  if (sqlFragments(db) === Prisma) {
    return { now, expiry: sql`strftime(${SQLITE_DATETIME}, 'now', ${`+${ttlMs / 1000} seconds`})` };
  }
  return { now, expiry: sql`(${now} + make_interval(secs => CAST(${ttlMs / 1000} AS double precision)))` };
}

interface LeaseRow {
  expiresAt: Date | string;
  databaseNow: Date | string;
}

function asLease(shop: string, holder: string, row: LeaseRow, now: Date): Lease {
  const databaseNow = new Date(row.databaseNow);
  return {
    shop,
    holder,
    expiresAt: new Date(row.expiresAt),
    clockSkewMs: now.getTime() - databaseNow.getTime(),
  };
}

/**
 * Takes the shop's lease if it is free, expired or already ours; null when another worker holds it. One
 * statement, so two workers racing for a free shop cannot both win. `now` is this host's clock, used only
 * to measure its skew from the database's.
 */
export async function takeLease(
  db: Db,
  shop: string,
  holder: string,
  now: Date,
  ttlMs: number,
): Promise<Lease | null> {
  const time = databaseTime(db, ttlMs);
  const rows = await db.$queryRaw<LeaseRow[]>`
    INSERT INTO "WorkLease" ("shop", "holder", "expiresAt") VALUES (${shop}, ${holder}, ${time.expiry})
    ON CONFLICT ("shop") DO UPDATE SET "holder" = excluded."holder", "expiresAt" = excluded."expiresAt"
    WHERE "WorkLease"."holder" = excluded."holder" OR "WorkLease"."expiresAt" <= ${time.now}
    RETURNING "expiresAt", ${time.now} AS "databaseNow"`;
  return rows[0] ? asLease(shop, holder, rows[0], now) : null;
}

/** Extends a lease still held; false when it expired or another worker took it (stop at once). */
export async function renewLease(db: Db, lease: Lease, now: Date, ttlMs: number): Promise<boolean> {
  const time = databaseTime(db, ttlMs);
  const rows = await db.$queryRaw<LeaseRow[]>`
    UPDATE "WorkLease" SET "expiresAt" = ${time.expiry}
    WHERE "shop" = ${lease.shop} AND "holder" = ${lease.holder} AND "expiresAt" > ${time.now}
    RETURNING "expiresAt", ${time.now} AS "databaseNow"`;
  if (!rows[0]) return false;
  const renewed = asLease(lease.shop, lease.holder, rows[0], now);
  lease.expiresAt = renewed.expiresAt;
  lease.clockSkewMs = renewed.clockSkewMs;
  return true;
}

export async function releaseLease(db: Db, lease: Lease): Promise<void> {
  await db.workLease.deleteMany({ where: { shop: lease.shop, holder: lease.holder } });
}

export interface LeaseKeeperOptions {
  db: Db;
  lease: Lease;
  ttlMs: number;
  /** This host's clock, only for the skew recorded on the lease. */
  clock: () => Date;
  log?: Log;
  /** How long before the lease could run out (counted from the last renewal sent) the holder gives up. */
  safetyMarginMs?: number;
}

/**
 * Keeps a taken lease: renews it every third of the TTL and says, through `signal`, when the holder must
 * stop sending: a renewal failed, found the lease gone, or none has succeeded for so long that the lease
 * may run out before the next. A lease renewed at time t (by the database) runs until at least t + TTL, and
 * t is no earlier than when this process sent the renewal, so the deadline is counted on this host's
 * monotonic clock from that moment, minus a safety margin: skew between the clocks cannot move it, and a
 * stalled database or event loop makes the holder stop before another worker can take over.
 */
export class LeaseKeeper {
  readonly #controller = new AbortController();
  readonly #options: LeaseKeeperOptions;
  readonly #marginMs: number;
  #renewTimer: NodeJS.Timeout | undefined;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #renewing: Promise<boolean> | null = null;
  #stopped = false;

  constructor(options: LeaseKeeperOptions) {
    this.#options = options;
    this.#marginMs = options.safetyMarginMs ?? options.ttlMs / 3;
    if (this.#marginMs >= options.ttlMs)
      throw new Error("the lease's safety margin must be less than its TTL");
    // The lease was just taken; its taking counts as the first renewal.
    this.#armDeadline(performance.now());
    this.#scheduleRenewal();
  }

  /** Aborted once the lease is lost or may be; its reason says why. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get lost(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Renews now (joining a renewal already under way); false when the lease is lost. */
  renewNow(): Promise<boolean> {
    if (this.lost || this.#stopped) return Promise.resolve(!this.lost);
    this.#renewing ??= this.#renew().finally(() => (this.#renewing = null));
    return this.#renewing;
  }

  /** The holder is done with the lease: no more renewals (release it separately). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#renewTimer);
    clearTimeout(this.#deadlineTimer);
  }

  async #renew(): Promise<boolean> {
    const { db, lease, ttlMs, clock } = this.#options;
    const sentAt = performance.now();
    let held: boolean;
    try {
      held = await renewLease(db, lease, clock(), ttlMs);
    } catch (error) {
      this.#lose(new LeaseLost(lease, "the lease could not be renewed", { cause: error }));
      return false;
    }
    if (!held) {
      this.#lose(new LeaseLost(lease, "the lease expired or another worker took it"));
      return false;
    }
    if (!this.lost && !this.#stopped) this.#armDeadline(sentAt);
    return !this.lost;
  }

  #scheduleRenewal() {
    this.#renewTimer = setTimeout(() => {
      void this.renewNow().then((held) => {
        if (held && !this.#stopped) this.#scheduleRenewal();
      });
    }, this.#options.ttlMs / 3);
  }

  #armDeadline(renewalSentAt: number) {
    clearTimeout(this.#deadlineTimer);
    const wait = renewalSentAt + this.#options.ttlMs - this.#marginMs - performance.now();
    this.#deadlineTimer = setTimeout(
      () => this.#lose(new LeaseLost(this.#options.lease, "no renewal of the lease succeeded in time")),
      Math.max(0, wait),
    );
  }

  #lose(reason: LeaseLost) {
    if (this.lost || this.#stopped) return;
    this.stop();
    this.#options.log?.warn(
      { shop: this.#options.lease.shop, event: "worker.lease_lost", err: reason },
      `${reason.message}; this worker stops sending for the shop`,
    );
    this.#controller.abort(reason);
  }
}

/** Why a lease holder must stop: the reason of a LeaseKeeper's signal. */
export class LeaseLost extends Error {
  constructor(
    readonly lease: Lease,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "LeaseLost";
  }
}

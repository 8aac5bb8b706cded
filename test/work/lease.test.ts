// The shop lease on the real database: expiry judged by the database's clock whatever the hosts' clocks
// say, and the keeper that tells a holder to stop sending once its lease is, or may be, lost.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import type { Db } from "../../app/db.server";
import { LeaseKeeper, LeaseLost, renewLease, takeLease, type Lease } from "../../app/work/lease.server";

const SHOP = "lease.myshopify.com";
const MINUTES = 60_000;

/** A host clock `offsetMs` away from the real time. */
const hostClock = (offsetMs: number) => () => new Date(Date.now() + offsetMs);

/** Resolves with the signal's reason once it aborts (the test's own timeout bounds the wait). */
function aborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason)));
}

/** `db`, except that its raw statements (the lease's renewals) go through `rawQuery`. */
function withRawQuery(db: Db, rawQuery: () => Promise<never>): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "$queryRaw") return rawQuery;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

async function taken(db: Db, holder: string, ttlMs: number, now = new Date()): Promise<Lease> {
  const lease = await takeLease(db, SHOP, holder, now, ttlMs);
  if (!lease) throw new Error(`${holder} could not take the lease`);
  return lease;
}

describe("the shop lease", () => {
  it("is not taken by a host whose clock runs minutes ahead while its holder still has it", async () => {
    const { db } = appContext();
    const ahead = hostClock(5 * MINUTES);
    await taken(db, "host-a", 30_000, new Date());
    // By host B's clock host A's lease ran out minutes ago; by the database's it has 30 s to go.
    expect(await takeLease(db, SHOP, "host-b", ahead(), 30_000)).toBeNull();
    const row = await db.workLease.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row.holder).toBe("host-a");
  });

  it("lets its holder renew it whatever the holder's clock says, and nobody else", async () => {
    const { db } = appContext();
    const behind = hostClock(-5 * MINUTES);
    const lease = await taken(db, "host-a", 30_000, behind());
    expect(await renewLease(db, lease, behind(), 30_000)).toBe(true);
    expect(await renewLease(db, { ...lease, holder: "host-b" }, new Date(), 30_000)).toBe(false);
    // The lease records how far the holder's clock is from the database's.
    expect(Math.abs(lease.clockSkewMs + 5 * MINUTES)).toBeLessThan(MINUTES);
  });

  it("is taken over once expired by the database's clock, though its holder's clock ran an hour ahead", async () => {
    const { db } = appContext();
    // Host A's clock is an hour ahead: judged by it, its lease would last an hour past its TTL.
    const first = await taken(db, "host-a", 200, hostClock(60 * MINUTES)());
    let second: Lease | null = null;
    const deadline = Date.now() + 10_000;
    while (!second && Date.now() < deadline) {
      second = await takeLease(db, SHOP, "host-b", new Date(), 30_000);
      if (!second) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(second?.holder).toBe("host-b");
    expect(await renewLease(db, first, hostClock(60 * MINUTES)(), 200)).toBe(false);
  });

  it("compares with rows Prisma wrote itself: an old expired row is taken, a live one is not", async () => {
    const { db } = appContext();
    await db.workLease.create({
      data: { shop: SHOP, holder: "old", expiresAt: new Date(Date.now() - 1_000) },
    });
    const lease = await taken(db, "new", 30_000);
    // What the statement wrote, Prisma reads back as the same instant.
    const row = await db.workLease.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(row).toEqual({ shop: SHOP, holder: "new", expiresAt: lease.expiresAt });

    await db.workLease.update({
      where: { shop: SHOP },
      data: { holder: "other", expiresAt: new Date(Date.now() + 60_000) },
    });
    expect(await takeLease(db, SHOP, "new", new Date(), 30_000)).toBeNull();
  });
});

describe("the lease keeper", () => {
  it("keeps renewing a lease nobody else wants", async () => {
    const { db } = appContext();
    // Long enough that a loaded machine's stalls do not make the keeper give up meanwhile.
    const lease = await taken(db, "host-a", 3_000);
    const keeper = new LeaseKeeper({ db, lease, ttlMs: 3_000, clock: () => new Date() });
    try {
      const first = lease.expiresAt.getTime();
      // The first renewal (a third of the TTL in) pushes the expiry on; the keeper stays content.
      const deadline = Date.now() + 10_000;
      while (lease.expiresAt.getTime() === first && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(lease.expiresAt.getTime()).toBeGreaterThan(first);
      expect((await db.workLease.findUniqueOrThrow({ where: { shop: SHOP } })).expiresAt).toEqual(
        lease.expiresAt,
      );
      expect(keeper.lost).toBe(false);
    } finally {
      keeper.stop();
    }
  });

  it("signals the holder to stop when a renewal fails", async () => {
    const { db } = appContext();
    const lease = await taken(db, "host-a", 3_000);
    const failing = withRawQuery(db, () => Promise.reject(new Error("connection reset")));
    const keeper = new LeaseKeeper({ db: failing, lease, ttlMs: 3_000, clock: () => new Date() });
    const reason = await aborted(keeper.signal);
    expect(reason).toBeInstanceOf(LeaseLost);
    expect((reason as LeaseLost).message).toBe("the lease could not be renewed");
    expect(((reason as LeaseLost).cause as Error).message).toBe("connection reset");
    expect(keeper.lost).toBe(true);
    expect(await keeper.renewNow()).toBe(false);
  });

  it("signals the holder to stop once another worker has the lease", async () => {
    const { db } = appContext();
    const lease = await taken(db, "host-a", 3_000);
    const keeper = new LeaseKeeper({ db, lease, ttlMs: 3_000, clock: () => new Date() });
    // As if host A had stalled past its expiry and host B took over.
    await db.workLease.update({ where: { shop: SHOP }, data: { holder: "host-b" } });
    const reason = await aborted(keeper.signal);
    expect((reason as LeaseLost).message).toBe("the lease expired or another worker took it");
    expect(await db.workLease.findUniqueOrThrow({ where: { shop: SHOP } })).toMatchObject({
      holder: "host-b",
    });
  });

  it("signals the holder to stop when renewals stall, before the lease can run out", async () => {
    const { db } = appContext();
    const lease = await taken(db, "host-a", 600);
    // The database stops answering: a renewal never comes back, so no failure ever arrives either.
    const stalled = withRawQuery(db, () => new Promise<never>(() => undefined));
    const keeper = new LeaseKeeper({
      db: stalled,
      lease,
      ttlMs: 600,
      clock: () => new Date(),
      safetyMarginMs: 200,
    });
    const reason = await aborted(keeper.signal);
    expect((reason as LeaseLost).message).toBe("no renewal of the lease succeeded in time");
  });

  it("answers a renewal asked for by the holder, and stays quiet once stopped", async () => {
    const { db } = appContext();
    const lease = await taken(db, "host-a", 30_000);
    const keeper = new LeaseKeeper({ db, lease, ttlMs: 30_000, clock: () => new Date() });
    expect(await keeper.renewNow()).toBe(true);
    keeper.stop();
    await db.workLease.delete({ where: { shop: SHOP } });
    expect(keeper.lost).toBe(false);
  });
});

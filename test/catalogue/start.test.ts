// Starting a full catalogue sync right as the last one ends. The kind's schedule row is the lock, and the run
// that ends a sync deletes it only once it is back from its last step: a start made in between found no sync
// running, yet the row there, and told the merchant a sync was already running.
import { describe, expect, it } from "vitest";
import {
  ALREADY_RUNNING,
  CATALOGUE_SYNC_KIND,
  startCatalogueSync,
} from "../../app/catalogue/full-sync.server";
import { appContext } from "../../app/context.server";

const SHOP = "kyiv-goods.myshopify.com";
const db = () => appContext().db;
const lock = () =>
  db().shopSchedule.findUniqueOrThrow({ where: { shop_kind: { shop: SHOP, kind: CATALOGUE_SYNC_KIND } } });

/** A sync that has just ended, its row still there as its run left it before writing back. */
async function justEnded() {
  const startedAt = new Date(Date.now() - 60_000);
  await db().catalogueSync.create({
    data: { shop: SHOP, phase: "done", startedAt, finishedAt: new Date(), sent: 3 },
  });
  await db().shopSchedule.create({
    data: { shop: SHOP, kind: CATALOGUE_SYNC_KIND, nextRunAt: startedAt, version: 7 },
  });
}

describe("starting a full catalogue sync", () => {
  it("starts one right after the last ended, taking over the row its run has not yet deleted", async () => {
    await justEnded();
    const before = Date.now();
    const started = await startCatalogueSync(appContext(), SHOP);
    expect(started.ok).toBe(true);
    const row = await lock();
    // Due now, and on a version the ended run did not read: its write-back leaves the row due.
    expect(row.version).toBe(8);
    expect(row.nextRunAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(await db().catalogueSync.count({ where: { shop: SHOP, phase: "shopify" } })).toBe(1);
  });

  it("lets one of two starts at once through over that row", async () => {
    await justEnded();
    const starts = await Promise.all([
      startCatalogueSync(appContext(), SHOP),
      startCatalogueSync(appContext(), SHOP),
    ]);
    expect(starts.filter((start) => start.ok)).toHaveLength(1);
    expect(starts.filter((start) => !start.ok)).toEqual([{ ok: false, message: ALREADY_RUNNING }]);
    expect(await db().catalogueSync.count({ where: { shop: SHOP, phase: "shopify" } })).toBe(1);
    expect((await lock()).version).toBe(8);
  });

  it("refuses a start while a sync runs, leaving its row as it was", async () => {
    await db().catalogueSync.create({ data: { shop: SHOP, phase: "sending", startedAt: new Date() } });
    await db().shopSchedule.create({
      data: { shop: SHOP, kind: CATALOGUE_SYNC_KIND, nextRunAt: new Date(Date.now() + 60_000), version: 2 },
    });
    expect(await startCatalogueSync(appContext(), SHOP)).toEqual({ ok: false, message: ALREADY_RUNNING });
    expect((await lock()).version).toBe(2);
    expect(await db().catalogueSync.count({ where: { shop: SHOP } })).toBe(1);
  });
});

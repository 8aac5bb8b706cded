// The deployment's one reference set (decision 020) over real HTTP, through the engine, against the
// simulator: several shops on keys of their own (an account each) share one set, and only one of them fetches
// it; a claim left by a shop that died is taken over once it runs out; a shop whose key is refused lets the
// claim go, and another shop's refresh does the work without waiting for it. Two workers (two engines on one
// database, as two processes would be) race for the set in the first test: on PostgreSQL
// (`npm run test:pg -- test/reference/shared-set.test.ts`) the claim is one row's conditional UPDATE.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { REFERENCE_KIND, REFERENCE_SOURCE, requestReferenceRefresh } from "../../app/reference/kinds.server";
import {
  claimSet,
  referenceRefreshKind,
  REFRESH_EVERY_MS,
  type ReferencePacing,
} from "../../app/reference/refresh.server";
import { referenceSearchFor, referenceSetStatus } from "../../app/reference/store.server";
import { saveSettings } from "../../app/settings/settings.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { createWorker } from "../../app/assembly/assembly.server";
import type { Worker } from "../../app/work/worker.server";
import { startWarehouseSimulator, type WarehouseSimulator } from "../warehouse-sim";
import { defaultReferenceData, referenceDataOf } from "../warehouse-sim/reference-data";
import { eventually } from "../e2e/harness";

const { db, log } = appContext();
const LIMITS = { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1 };

const workers: Worker[] = [];
let sim: WarehouseSimulator | undefined;
afterEach(async () => {
  answered.clear();
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await sim?.close();
  sim = undefined;
});

/** A few cities with their branches: four names, so describing takes a few runs. */
function fewCities() {
  const full = defaultReferenceData();
  const cities = full.cities.filter((city) => full.branchesInCity(city.Ref).length).slice(0, 4);
  return referenceDataOf(full, cities);
}

/** A simulator with an account for each of `keys` (a key not among them is refused). */
async function startSimulator(keys: string[]) {
  sim = await startWarehouseSimulator({
    rateLimits: LIMITS,
    referenceData: fewCities(),
    accounts: keys.map((apiKey, index) => ({
      login: `shared-${index}`,
      password: `shared-password-${index}`,
      apiKey,
      stagingApiKey: randomUUID(),
    })),
  });
  return sim;
}

/** Shops installed with the keys given, one each; only the reference refresh is scheduled, for none yet. */
async function installShops(keys: string[]): Promise<string[]> {
  const shops: string[] = [];
  for (const [index, apiKey] of keys.entries()) {
    const shop = `shared-${index}.myshopify.com`;
    await db.shop.create({
      data: {
        shop,
        name: `Shared ${index}`,
        currencyCode: "UAH",
        ianaTimezone: "Europe/Kyiv",
        primaryLocale: "uk",
        scopes: "read_orders",
        installedAt: new Date(Date.now() - 3600_000),
      },
    });
    const saved = await saveSettings(appContext(), shop, {
      apiKey,
      environment: "production",
      batchAddOrder: false,
      mapping: {},
    });
    if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
    shops.push(shop);
  }
  await db.shopSchedule.deleteMany({});
  return shops;
}

function worker(pacing: Partial<ReferencePacing>, clock: () => Date = () => new Date()): Worker {
  const created = createWorker({
    db,
    log,
    clock,
    holder: `shared-set-${workers.length}`,
    endpoints: { baseUrl: sim!.url, baseUrlV2: sim!.urlV2, timeoutMs: 30_000 },
    sweepIntervalMs: 50,
    concurrency: 4,
    rateLimits: { ...LIMITS, marginMs: 20 },
    backoff: { baseMs: 50, maxMs: 400 },
    inDoubtSettleMs: 0,
    fetch: answeredFetch,
    // Short retries too: a request the loaded machine's loopback drops (ECONNRESET) is asked again at once.
    kinds: [
      referenceRefreshKind({
        describeEveryMs: 20,
        describeBurst: 2,
        describeRestMs: 100,
        describeRetryMs: 100,
        listRetryMs: 100,
        ...pacing,
      }),
    ],
  });
  workers.push(created);
  created.start();
  return created;
}

const scheduleOf = (shop: string) =>
  db.shopSchedule.findUnique({ where: { shop_kind: { shop, kind: REFERENCE_KIND } } });
const set = () => db.referenceSet.findUnique({ where: { source: REFERENCE_SOURCE } });
/**
 * The warehouse's answers to the workers, by operation: requests the loaded machine's loopback dropped before
 * the simulator answered (and the refresh asks again) are not the refresh asking twice.
 */
const answered = new Map<string, number>();
const answeredFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const operation = new URL(input instanceof Request ? input.url : String(input)).pathname.split("/").at(-1)!;
  answered.set(operation, (answered.get(operation) ?? 0) + 1);
  return response;
};
const requests = (operation: string) => answered.get(operation) ?? 0;

describe("the shared reference set", { timeout: 120_000 }, () => {
  it("is fetched and described once for four shops on four keys, by two workers, and every shop reads it", async () => {
    const keys = Array.from({ length: 4 }, () => randomUUID());
    await startSimulator(keys);
    const shops = await installShops(keys);
    const now = new Date();
    for (const shop of shops) await requestReferenceRefresh(db, shop, now);
    let ahead = 0;
    const clock = () => new Date(Date.now() + ahead);
    worker({}, clock);
    worker({}, clock);
    const done = await eventually(async () => {
      const current = await set();
      return current?.dueAt && current.claimedBy === null && current;
    }, "every city described and the claim let go");
    const status = (await referenceSetStatus(db, REFERENCE_SOURCE))!;
    expect(status).toMatchObject({ cityCount: 4, undescribedCities: 0, lastError: null });
    const nextDay = status.refreshedAt!.getTime() + REFRESH_EVERY_MS;
    expect(done.dueAt!.getTime()).toBe(nextDay);
    // The others' refreshes found the set claimed and sleep until the claim's end (half an hour), not before.
    for (const shop of shops)
      expect((await scheduleOf(shop))!.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
    // Half an hour on, each wakes, reads the set's row, and sleeps until the next day's list: none describes,
    // none fetches.
    ahead = 31 * 60_000;
    for (const shop of shops)
      await eventually(
        async () => (await scheduleOf(shop))?.nextRunAt.getTime() === nextDay,
        `${shop} asleep until the next day`,
      );
    // One list and one getCities per name, whoever's key sent them.
    expect(requests(OPERATIONS.getWarehouses)).toBe(1);
    expect(requests(OPERATIONS.getCities)).toBe(new Set(fewCities().cities.map((c) => c.Description)).size);
    expect(await db.carrierBranch.count()).toBe(fewCities().branches.length);
    expect(await db.referenceSet.count()).toBe(1);
    for (const shop of shops)
      expect((await referenceSearchFor(db, shop, { newest: true }))?.branchCount).toBe(
        fewCities().branches.length,
      );
  });

  it("waits while another shop's claim holds, and takes the refresh over once it has run out", async () => {
    const keys = Array.from({ length: 2 }, () => randomUUID());
    await startSimulator(keys);
    const shops = await installShops(keys);
    // A shop that claimed the set and died (its process gone, its shop uninstalled): no refresh renews it.
    const claimedUntil = new Date(Date.now() + 10 * 60_000);
    await db.referenceSet.create({
      data: { source: REFERENCE_SOURCE, claimedBy: "dead.myshopify.com", claimedUntil },
    });
    let ahead = 0;
    const clock = () => new Date(Date.now() + ahead);
    for (const shop of shops) await requestReferenceRefresh(db, shop, clock());
    worker({ claimMs: 20 * 60_000 }, clock);
    // Each shop's refresh read the claim and sleeps until it runs out; nothing was asked of the warehouse.
    for (const shop of shops)
      await eventually(
        async () => (await scheduleOf(shop))?.nextRunAt.getTime() === claimedUntil.getTime(),
        `${shop} asleep until the claim runs out`,
      );
    expect(requests(OPERATIONS.getWarehouses)).toBe(0);
    expect((await set())?.claimedBy).toBe("dead.myshopify.com");

    // Eleven minutes on: the dead shop's claim has run out, and one of the two takes the refresh over.
    ahead = 11 * 60_000;
    await eventually(async () => (await set())?.dueAt, "the set fetched and described by the taker");
    expect(requests(OPERATIONS.getWarehouses)).toBe(1);
    expect((await set())?.claimedBy).toBeNull();
    expect((await referenceSetStatus(db, REFERENCE_SOURCE))?.branchCount).toBe(fewCities().branches.length);
  });

  it("lets a refused key's claim go at once: another shop's refresh does the work, and the set keeps no problem", async () => {
    const good = randomUUID();
    const refused = randomUUID();
    // The refused key is no account of the warehouse's.
    await startSimulator([good]);
    const [refusedShop, goodShop] = await installShops([refused, good]);
    // The refused shop's refresh comes due first and claims the set (the default claim: half an hour).
    await requestReferenceRefresh(db, refusedShop!, new Date());
    worker({});
    await eventually(
      async () => (await db.shopSettings.findUnique({ where: { shop: refusedShop! } }))?.pausedAt,
      "the refused shop paused",
    );
    expect(await set()).toMatchObject({ claimedBy: null, lastError: null, refreshedAt: null });
    // The refused request (the simulator counts it or not): the next one is the other shop's.
    const refusedRequests = requests(OPERATIONS.getWarehouses);
    expect(refusedRequests).toBeLessThanOrEqual(1);
    // The other shop's refresh, due now, does not wait the half hour out.
    await requestReferenceRefresh(db, goodShop!, new Date());
    await eventually(async () => (await set())?.dueAt, "the set fetched and described by the other shop");
    expect(requests(OPERATIONS.getWarehouses)).toBe(refusedRequests + 1);
    expect((await referenceSetStatus(db, REFERENCE_SOURCE))?.lastError).toBeNull();
    expect(await referenceSearchFor(db, goodShop!, { newest: true })).not.toBeNull();
  });
});

describe("the claim", () => {
  it("goes to exactly one of many shops claiming at once, and to none while it holds", async () => {
    const clock = () => new Date();
    const shops = Array.from({ length: 8 }, (_, index) => `racer-${index}.myshopify.com`);
    // An expired claim and no row both: each racer first makes the row if it has none, then claims.
    const won = await Promise.all(shops.map((shop) => claimSet({ db, shop, clock }, 60_000, undefined)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const holder = shops[won.indexOf(true)]!;
    expect((await set())?.claimedBy).toBe(holder);
    // Its claim held: the others lose again; the holder renews.
    const { updatedAt } = (await set())!;
    const again = await Promise.all(shops.map((shop) => claimSet({ db, shop, clock }, 60_000, updatedAt)));
    expect(shops.filter((_, index) => again[index])).toEqual([holder]);
    // Run out: one of the others takes it, racing.
    await db.referenceSet.update({
      where: { source: REFERENCE_SOURCE },
      data: { claimedUntil: new Date(Date.now() - 1) },
    });
    const others = shops.filter((shop) => shop !== holder);
    const taken = await Promise.all(others.map((shop) => claimSet({ db, shop, clock }, 60_000, undefined)));
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect((await set())?.claimedBy).not.toBe(holder);
  });
});

// The carrier reference refresh over real HTTP, through the engine, against the simulator: the whole branch
// list stored, the cities described over the runs that follow (one getCities per name, paced), orders going
// first, a warehouse failure kept as the problem and tried again, a refused key pausing the shop; and the
// hourly upkeep.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { message } from "../../app/i18n/message";
import { readTexts } from "../../app/i18n/texts";
import { REFERENCE_KIND, REFERENCE_SOURCE, requestReferenceRefresh } from "../../app/reference/kinds.server";
import { referenceRefreshKind, referenceUpkeep, REFRESH_EVERY_MS } from "../../app/reference/refresh.server";
import { referenceSearchFor, referenceSetStatus } from "../../app/reference/store.server";
import { createWarehouseClient } from "../../app/warehouse/client.server";
import { WarehouseTimeout } from "../../app/warehouse/errors";
import { OPERATIONS } from "../../app/warehouse/wire";
import { wakeWorker } from "../../app/work/worker.server";
import { eventually, orderPayload, SHOP, startOrderFlow, type OrderFlow } from "../e2e/harness";
import { startWarehouseSimulator } from "../warehouse-sim";
import { defaultReferenceData, referenceDataOf, type ReferenceData } from "../warehouse-sim/reference-data";

const db = () => appContext().db;
let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

/** A few cities of the simulator's country, two of them sharing a name, with all their branches. */
function someCities(): ReferenceData {
  const full = defaultReferenceData();
  const counts = new Map<string, number>();
  for (const city of full.cities) counts.set(city.Description, (counts.get(city.Description) ?? 0) + 1);
  const shared = full.cities.filter(
    (city) => counts.get(city.Description)! > 1 && full.branchesInCity(city.Ref).length,
  );
  const sharedName = shared[0]!.Description;
  const twins = shared.filter((city) => city.Description === sharedName).slice(0, 2);
  const others = full.cities
    .filter((city) => counts.get(city.Description) === 1 && full.branchesInCity(city.Ref).length)
    .slice(0, 3);
  return referenceDataOf(full, [...twins, ...others]);
}

/** The warehouse requests the worker sent, in order, with when each went. */
function recorder() {
  const sent: { operation: string; at: number }[] = [];
  const recording: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    sent.push({ operation: url.pathname.split("/").at(-1)!, at: performance.now() });
    return fetch(input, init);
  };
  return {
    sent,
    fetch: recording,
    of: (operation: string) => sent.filter((entry) => entry.operation === operation),
  };
}

/** The deployment's one set, which every shop reads. */
const SET = REFERENCE_SOURCE;
const schedule = () =>
  db().shopSchedule.findUnique({ where: { shop_kind: { shop: SHOP, kind: REFERENCE_KIND } } });

describe("the reference refresh", { timeout: 120_000 }, () => {
  it("stores the whole branch list, then describes each city name once, paced, and comes back a day later", async () => {
    const requests = recorder();
    const describeEveryMs = 150;
    const describeRestMs = 800;
    const data = someCities();
    flow = await startOrderFlow({
      simulator: { referenceData: data },
      worker: {
        kinds: [referenceRefreshKind({ describeEveryMs, describeBurst: 2, describeRestMs })],
        fetch: requests.fetch,
      },
    });
    // Saving the key asked for the refresh.
    await eventually(
      async () => (await referenceSetStatus(db(), SET))?.undescribedCities === 0,
      "every city described",
    );
    const status = (await referenceSetStatus(db(), SET))!;
    expect(status).toMatchObject({ cityCount: 5, branchCount: data.branches.length, lastError: null });
    expect(requests.of(OPERATIONS.getWarehouses)).toHaveLength(1);
    // Four names for five cities: the two of one name are described by one answer.
    const asked = requests.of(OPERATIONS.getCities);
    expect(asked).toHaveLength(4);
    // Paced: two names a burst, then a rest.
    const gaps = asked.slice(1).map((entry, i) => entry.at - asked[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(describeEveryMs - 5);
    expect(gaps[1]).toBeGreaterThanOrEqual(describeRestMs - 5);
    expect(gaps[2]).toBeGreaterThanOrEqual(describeEveryMs - 5);
    expect(asked[0]!.at).toBeGreaterThan(requests.of(OPERATIONS.getWarehouses)[0]!.at);

    const cities = await db().carrierCity.findMany({ where: { source: SET } });
    for (const city of cities) {
      const record = data.cities.find((candidate) => candidate.Ref === city.ref)!;
      expect([city.name, city.nameRu, city.area, city.kind]).toEqual([
        record.Description,
        record.DescriptionRu,
        record.AreaDescription,
        record.SettlementTypeDescription,
      ]);
    }
    const search = await referenceSearchFor(db(), SHOP, { newest: true });
    expect(search?.branchCount).toBe(data.branches.length);
    expect(search?.city(cities[0]!.ref)?.nameRu).toBe(cities[0]!.nameRu);
    // The next run is the next day's list. The last run wrote its cities before its outcome: wait for the outcome.
    const nextDay = status.refreshedAt!.getTime() + REFRESH_EVERY_MS;
    const row = await eventually(async () => {
      const current = await schedule();
      return current?.nextRunAt.getTime() === nextDay && current;
    }, "the next day's run scheduled");
    expect(row.lastError).toBeNull();
  });

  it("stores the simulator's whole country in one request", async () => {
    const requests = recorder();
    flow = await startOrderFlow({
      worker: { kinds: [referenceRefreshKind({ describeEveryMs: 3_600_000 })], fetch: requests.fetch },
      warehouseTimeoutMs: 60_000,
    });
    const status = await eventually(
      async () => (await referenceSetStatus(db(), SET)) ?? undefined,
      "the list stored",
      90_000,
    );
    const all = defaultReferenceData().branches.length;
    expect(status.branchCount).toBe(all);
    expect(await db().carrierBranch.count({ where: { source: SET } })).toBe(all);

    // The run stored the list before it wrote its outcome: the next run, an hour's describing away, not sooner.
    await eventually(
      async () => ((await schedule())?.nextRunAt.getTime() ?? 0) > Date.now() + 60_000,
      "the next run scheduled after the list",
    );
    expect(requests.of(OPERATIONS.getWarehouses)).toHaveLength(1);
  });

  it("lets the shop's due orders go first", async () => {
    const requests = recorder();
    flow = await startOrderFlow({
      noWorker: true,
      simulator: { referenceData: someCities() },
      worker: { kinds: [referenceRefreshKind({ describeEveryMs: 3_600_000 })], fetch: requests.fetch },
    });
    await flow.post({ topic: "orders/create", payload: orderPayload(7101) });
    flow.restartWorker();
    await eventually(async () => (await referenceSetStatus(db(), SET))?.version, "the list stored");
    const operations = requests.sent.map((entry) => entry.operation);
    expect(operations.indexOf(OPERATIONS.addOrder)).toBeGreaterThanOrEqual(0);
    expect(operations.indexOf(OPERATIONS.addOrder)).toBeLessThan(
      operations.indexOf(OPERATIONS.getWarehouses),
    );
  });

  it("keeps a warehouse failure as the problem, keeps the stored set, and tries again later", async () => {
    flow = await startOrderFlow({
      simulator: { referenceData: someCities() },
      worker: { kinds: [referenceRefreshKind({ describeEveryMs: 3_600_000 })] },
    });
    await eventually(async () => (await referenceSetStatus(db(), SET))?.version, "the list stored");
    const first = (await referenceSetStatus(db(), SET))!;
    // Fetched two minutes ago: "Refresh now" fetches it again (within a minute it would be a double press).
    await db().referenceSet.update({
      where: { source: SET },
      data: { refreshedAt: new Date(Date.now() - 120_000) },
    });
    flow.sim.faults.failNext({ count: 1, status: 500, operations: [OPERATIONS.getWarehouses] });
    await requestReferenceRefresh(db(), SHOP, new Date(), true);
    wakeWorker(SHOP);
    const failed = await eventually(
      async () => (await referenceSetStatus(db(), SET))?.lastError,
      "the problem kept",
    );
    expect(failed).toMatch(/500|server/i);
    // Kept in the merchant's words, for the Settings card to say in the admin's language.
    expect(readTexts(failed)).toEqual([message("warehouse:error.serverError", { status: 500 })]);
    // The set's problem is written inside the step, the schedule's when the step returns: wait for both.
    const row = await eventually(async () => {
      const scheduled = await schedule();
      return scheduled?.lastError ? scheduled : undefined;
    }, "the schedule's problem kept");
    expect(row.lastError).toBe(failed);
    expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect(await referenceSetStatus(db(), SET)).toMatchObject({
      version: first.version,
      branchCount: first.branchCount,
    });

    // Later: the retry stores the list and clears the problem.
    await db().shopSchedule.update({
      where: { shop_kind: { shop: SHOP, kind: REFERENCE_KIND } },
      data: { nextRunAt: new Date() },
    });
    wakeWorker(SHOP);
    await eventually(
      async () => (await referenceSetStatus(db(), SET))!.version > first.version,
      "the retry stored",
    );
    expect((await referenceSetStatus(db(), SET))?.lastError).toBeNull();
    expect(flow.sim.stats().requests[OPERATIONS.getWarehouses]).toBe(3);
  });

  it("leaves a city the warehouse refuses to describe undescribed and goes on; a passing failure is retried", async () => {
    const requests = recorder();
    flow = await startOrderFlow({
      noWorker: true,
      simulator: { referenceData: someCities() },
      worker: {
        kinds: [referenceRefreshKind({ describeEveryMs: 20, describeRetryMs: 100 })],
        fetch: requests.fetch,
      },
    });
    flow.sim.faults.failNext({ count: 1, status: 400, operations: [OPERATIONS.getCities] });
    flow.sim.faults.failNext({ count: 1, status: 503, operations: [OPERATIONS.getCities] });
    flow.restartWorker();
    await eventually(
      async () => (await referenceSetStatus(db(), SET))?.undescribedCities === 0,
      "every city done",
    );
    const asked = requests.of(OPERATIONS.getCities);
    // The refused name once, the failed one twice, the other two once each.
    expect(asked).toHaveLength(5);
    const cities = await db().carrierCity.findMany({ where: { source: SET }, orderBy: { name: "asc" } });
    const bare = cities.filter((city) => city.nameRu === null);
    // The refused name's cities (one, or the two sharing a name): done with, without details.
    expect(new Set(bare.map((city) => city.name)).size).toBe(1);
    expect(bare.every((city) => city.describedAt !== null)).toBe(true);
    expect(bare.length).toBeLessThan(cities.length);
    expect((await referenceSetStatus(db(), SET))?.lastError).toBeNull();
  });

  it("pauses the shop when the warehouse refuses the key", async () => {
    flow = await startOrderFlow({
      noWorker: true,
      simulator: { referenceData: someCities() },
      worker: { kinds: [referenceRefreshKind()] },
    });
    flow.sim.faults.failNext({ count: 1, status: 401, operations: [OPERATIONS.getWarehouses] });
    flow.restartWorker();
    const settings = await eventually(
      async () =>
        (await db().shopSettings.findUnique({ where: { shop: SHOP } }))?.pausedAt &&
        db().shopSettings.findUnique({ where: { shop: SHOP } }),
      "the shop paused",
    );
    expect(settings?.pauseReason).toBeTruthy();
    // The refusal is the shop's (its key), not the set's: the set keeps no problem, and its claim is let go
    // for another shop's refresh (test/reference/shared-set.test.ts).
    expect(await db().referenceSet.findUnique({ where: { source: SET } })).toMatchObject({
      lastError: null,
      claimedBy: null,
    });
    expect(await referenceSearchFor(db(), SHOP)).toBeNull();
  });
});

describe("the reference upkeep", () => {
  it("never prunes the shared set, whatever keys the shops name, and schedules a refresh for a shop with a key and none", async () => {
    const { db: database, log, clock } = appContext();
    await database.shop.create({
      data: {
        shop: "kept.myshopify.com",
        name: "Kept",
        currencyCode: "UAH",
        ianaTimezone: "Europe/Kyiv",
        primaryLocale: "uk",
        scopes: "",
        installedAt: new Date(),
      },
    });
    await database.shopSettings.create({ data: { shop: "kept.myshopify.com", apiKeyDigest: "kept-key" } });
    await database.referenceSet.create({ data: { source: SET, version: 1 } });
    await database.carrierBranch.create({
      data: {
        source: SET,
        ref: "b",
        cityRef: "c",
        number: "1",
        category: "branch",
        description: "x",
        seenAt: new Date(),
      },
    });
    await referenceUpkeep.run({ db: database, log, clock });
    // The only shop with a key leaves: the set stays for the next.
    await database.shopSettings.delete({ where: { shop: "kept.myshopify.com" } });
    await referenceUpkeep.run({ db: database, log, clock });
    expect((await database.referenceSet.findMany()).map((set) => set.source)).toEqual([SET]);
    expect(await database.carrierBranch.count()).toBe(1);
    const row = await database.shopSchedule.findUnique({
      where: { shop_kind: { shop: "kept.myshopify.com", kind: REFERENCE_KIND } },
    });
    expect(row?.nextRunAt.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe("the whole branch list's request", () => {
  it("may take longer than an ordinary call's timeout, and keeps every record for the caller to read", async () => {
    const sim = await startWarehouseSimulator({ referenceData: someCities() });
    try {
      const warehouse = createWarehouseClient({
        apiKey: sim.apiKey,
        endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 150 },
      });
      sim.faults.delayMs = 400;
      await expect(warehouse.getCities("Київ")).rejects.toBeInstanceOf(WarehouseTimeout);
      const records = await warehouse.getAllWarehouseRecords();
      expect(records.length).toBe(someCities().branches.length);
    } finally {
      await sim.close();
    }
  });
});

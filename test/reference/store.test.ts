// The reference set as the database keeps it, on the real test database: saved whole, replaced without
// leftovers, described cities kept, one set per key whatever the number of shops on it, and the in-memory
// search rebuilt only when the set's version moves: by one builder, never in the caller's turn, and kept for
// every active key within the memory budget.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appContext } from "../../app/context.server";
import { recordingLog } from "../support/log";
import { fromWarehouseRecords } from "../../app/reference/records";
import { REFERENCE_SOURCE } from "../../app/reference/kinds.server";
import * as search from "../../app/reference/search";
import {
  describeCities,
  forgetReferenceSearches,
  loadReferenceData,
  recordReferenceProblem,
  referenceSearchFor,
  referenceSearchForSource,
  referenceSearchStateForSource,
  referenceSearchStats,
  referenceSetStatus,
  saveReferenceSet,
  setReferenceSearchBudget,
  streetsFor,
} from "../../app/reference/store.server";
import type { CarrierBranch, CarrierCity } from "../../app/reference/types";
import { buildReferenceData, defaultReferenceData } from "../warehouse-sim/reference-data";

vi.mock("../../app/reference/search", async (importOriginal) => {
  const real = await importOriginal<typeof search>();
  return { ...real, buildReferenceSearch: vi.fn(real.buildReferenceSearch) };
});
const builds = () => vi.mocked(search.buildReferenceSearch).mock.calls.length;

/** The deployment's one set, which every shop with a key reads; OTHER_KEY a set kept apart (tests only). */
const KEY = REFERENCE_SOURCE;
const OTHER_KEY = "another-source";
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 3, minutes));

const city = (ref: string, name: string, details: Partial<CarrierCity> = {}): CarrierCity => ({
  ref,
  name,
  ...details,
});
const branch = (
  ref: string,
  cityRef: string,
  number: string,
  fields: Partial<CarrierBranch> = {},
): CarrierBranch => ({
  ref,
  cityRef,
  number,
  kind: "branch",
  description: `Відділення №${number}`,
  working: true,
  ...fields,
});

async function withKey(shop: string, keyDigest: string | null) {
  await appContext().db.shopSettings.create({ data: { shop, apiKeyDigest: keyDigest } });
}

beforeEach(() => {
  forgetReferenceSearches();
  vi.mocked(search.buildReferenceSearch).mockClear();
});
afterEach(() => setReferenceSearchBudget(undefined));

describe("saveReferenceSet", () => {
  it("stores the simulator's whole list, and a smaller set replaces it with no rows left over", async () => {
    const { db } = appContext();
    const full = fromWarehouseRecords([], defaultReferenceData().branches);
    const first = await saveReferenceSet(db, KEY, full, at(0));
    expect(first).toEqual({ version: 1, cityCount: full.cities.length, branchCount: full.branches.length });
    expect(await db.carrierBranch.count({ where: { source: KEY } })).toBe(full.branches.length);
    const loaded = await loadReferenceData(db, KEY);
    const byRef = new Map(loaded.branches.map((b) => [b.ref, b]));
    for (const original of full.branches.filter((_, i) => i % 101 === 0))
      expect(byRef.get(original.ref)).toEqual(original);

    const smaller = fromWarehouseRecords([], buildReferenceData({ seed: 7 }).branches.slice(0, 1_200));
    const second = await saveReferenceSet(db, KEY, smaller, at(10));
    expect(second.version).toBe(2);
    const after = await loadReferenceData(db, KEY);
    expect(new Set(after.branches.map((b) => b.ref))).toEqual(new Set(smaller.branches.map((b) => b.ref)));
    expect(new Set(after.cities.map((c) => c.ref))).toEqual(new Set(smaller.cities.map((c) => c.ref)));
    expect(await referenceSetStatus(db, KEY)).toMatchObject({
      cityCount: smaller.cities.length,
      branchCount: smaller.branches.length,
      refreshedAt: at(10),
      lastError: null,
      version: 2,
    });
  });

  it("replaces the set even when saved again at the same instant (another process's clock)", async () => {
    const { db } = appContext();
    const kyiv = city("c-kyiv", "Київ");
    await saveReferenceSet(db, KEY, { cities: [kyiv], branches: [branch("b-1", "c-kyiv", "1")] }, at(5));
    await saveReferenceSet(db, KEY, { cities: [kyiv], branches: [branch("b-2", "c-kyiv", "2")] }, at(5));
    expect((await loadReferenceData(db, KEY)).branches.map((b) => b.ref)).toEqual(["b-2"]);
    await saveReferenceSet(db, KEY, { cities: [kyiv], branches: [branch("b-3", "c-kyiv", "3")] }, at(1));
    expect((await loadReferenceData(db, KEY)).branches.map((b) => b.ref)).toEqual(["b-3"]);
  });

  it("updates a branch in place and keeps what getCities said of a city when the list comes again", async () => {
    const { db } = appContext();
    const cities = [city("c-kyiv", "Київ"), city("c-lviv", "Львів")];
    await saveReferenceSet(
      db,
      KEY,
      { cities, branches: [branch("b-1", "c-kyiv", "1"), branch("b-2", "c-lviv", "2")] },
      at(0),
    );
    await describeCities(
      db,
      KEY,
      "Київ",
      [city("c-kyiv", "Київ", { nameRu: "Киев", area: "Київська", kind: "місто" })],
      at(1),
      true,
    );
    await saveReferenceSet(
      db,
      KEY,
      {
        cities,
        branches: [
          branch("b-1", "c-kyiv", "1", { working: false, maxWeightKg: 30 }),
          branch("b-2", "c-lviv", "2"),
        ],
      },
      at(2),
    );
    const { cities: kept, branches } = await loadReferenceData(db, KEY);
    expect(kept.find((c) => c.ref === "c-kyiv")).toEqual(
      city("c-kyiv", "Київ", { nameRu: "Киев", area: "Київська", kind: "місто" }),
    );
    expect(branches.find((b) => b.ref === "b-1")).toMatchObject({ working: false, maxWeightKg: 30 });
    expect(await referenceSetStatus(db, KEY)).toMatchObject({ undescribedCities: 1, version: 3 });
  });

  it("describes every city of the name asked, even one the answer left out, and only the set's own", async () => {
    const { db } = appContext();
    const cities = [city("c-1", "Миколаївка"), city("c-2", "Миколаївка"), city("c-3", "Одеса")];
    await saveReferenceSet(db, KEY, { cities, branches: [] }, at(0));
    const count = await describeCities(
      db,
      KEY,
      "Миколаївка",
      [
        city("c-1", "Миколаївка", { area: "Донецька" }),
        city("c-elsewhere", "Миколаївка", { area: "Сумська" }),
      ],
      at(1),
      false,
    );
    expect(count).toBe(2);
    const rows = await db.carrierCity.findMany({ where: { source: KEY }, orderBy: { ref: "asc" } });
    expect(rows.map((row) => [row.ref, row.area, row.describedAt])).toEqual([
      ["c-1", "Донецька", at(1)],
      ["c-2", null, at(1)],
      ["c-3", null, null],
    ]);
    expect((await referenceSetStatus(db, KEY))?.version).toBe(1);
  });
});

describe("the in-memory search", () => {
  it("is null until a set's first save finished, and for a shop without a key", async () => {
    const { db } = appContext();
    await withKey("a.myshopify.com", "digest-of-key-a");
    await withKey("nokey.myshopify.com", null);
    expect(await referenceSearchFor(db, "a.myshopify.com")).toBeNull();
    await recordReferenceProblem(db, KEY, "The warehouse did not answer.", at(0));
    expect(await referenceSearchFor(db, "a.myshopify.com")).toBeNull();
    expect(await referenceSearchFor(db, "nokey.myshopify.com")).toBeNull();
    expect(await referenceSearchFor(db, "unknown.myshopify.com")).toBeNull();
    expect(builds()).toBe(0);
  });

  it("is built once per version, shared by concurrent callers and by two shops on different keys", async () => {
    const { db } = appContext();
    await withKey("a.myshopify.com", "digest-of-key-a");
    await withKey("b.myshopify.com", "digest-of-key-b");
    await saveReferenceSet(
      db,
      KEY,
      { cities: [city("c-1", "Київ")], branches: [branch("b-1", "c-1", "1")] },
      at(0),
    );
    const [one, two, three] = await Promise.all([
      referenceSearchFor(db, "a.myshopify.com"),
      referenceSearchFor(db, "b.myshopify.com"),
      referenceSearchForSource(db, KEY),
    ]);
    expect(one).not.toBeNull();
    expect(two).toBe(one);
    expect(three).toBe(one);
    expect(builds()).toBe(1);
    expect(await referenceSearchFor(db, "a.myshopify.com")).toBe(one);
    expect(builds()).toBe(1);

    await saveReferenceSet(
      db,
      KEY,
      { cities: [city("c-1", "Київ")], branches: [branch("b-2", "c-1", "2")] },
      at(1),
    );
    // While the new version builds, the previous one answers; asked for the newest, the caller waits.
    expect(await referenceSearchFor(db, "a.myshopify.com")).toBe(one);
    const rebuilt = await referenceSearchFor(db, "b.myshopify.com", { newest: true });
    expect(builds()).toBe(2);
    expect(rebuilt).not.toBe(one);
    expect(await referenceSearchFor(db, "a.myshopify.com")).toBe(rebuilt);
    expect(rebuilt?.branch("b-2")?.number).toBe("2");
    expect(rebuilt?.branch("b-1")).toBeUndefined();
    expect(await db.referenceSet.count()).toBe(1);
  });

  it("keeps every active key's set: eight keys asked in turn, again and again, are built once each", async () => {
    const { db } = appContext();
    const keys = Array.from({ length: 8 }, (_, i) => `key-${i}`);
    for (const key of keys) {
      const cities = [city(`c-${key}`, "Київ")];
      const branches = Array.from({ length: 50 }, (_, n) => branch(`b-${key}-${n}`, `c-${key}`, String(n)));
      await saveReferenceSet(db, key, { cities, branches }, at(0));
    }
    for (let round = 0; round < 3; round++) {
      for (const key of keys) expect((await referenceSearchForSource(db, key))?.branchCount).toBe(50);
    }
    expect(builds()).toBe(8);
    expect(referenceSearchStats()).toMatchObject({ sets: 8, evictions: 0, budgetMb: 512 });
  });

  it("lets the least recently used set go above the memory budget, and builds it again when asked", async () => {
    const { db } = appContext();
    const keys = ["k1", "k2", "k3"];
    for (const key of keys) {
      const branches = Array.from({ length: 10 }, (_, n) => branch(`b-${key}-${n}`, "c", String(n)));
      await saveReferenceSet(db, key, { cities: [city("c", "Київ")], branches }, at(0));
    }
    // Each set is estimated at 600 + 10 × 1,000 bytes: room for two.
    setReferenceSearchBudget(2 * 10_600);
    const evictions = referenceSearchStats().evictions;
    const { log, lines } = recordingLog();
    for (const key of keys) await referenceSearchForSource(db, key, { log });
    expect(builds()).toBe(3);
    expect(referenceSearchStats()).toMatchObject({ sets: 2, evictions: evictions + 1 });
    // The operator hears of it, with the budget to raise.
    await vi.waitFor(() => expect(lines.map((line) => line.event)).toEqual(["reference.search_evicted"]));
    expect(lines[0]).toMatchObject({ source: "k1", budgetMb: 0, level: "warn" });
    await referenceSearchForSource(db, "k2");
    await referenceSearchForSource(db, "k3");
    expect(builds()).toBe(3);
    await referenceSearchForSource(db, "k1");
    expect(builds()).toBe(4);
    // k2 was the least recently used when k1 came back.
    expect(referenceSearchStats().sets).toBe(2);
    await referenceSearchForSource(db, "k3");
    expect(builds()).toBe(4);
    await referenceSearchForSource(db, "k2");
    expect(builds()).toBe(5);
  });

  it("never builds in the caller's turn: a cold key is 'building' to every caller of a burst, built once", async () => {
    const { db } = appContext();
    await saveReferenceSet(
      db,
      KEY,
      { cities: [city("c-1", "Київ")], branches: [branch("b-1", "c-1", "1")] },
      at(0),
    );
    const burst = await Promise.all(Array.from({ length: 20 }, () => referenceSearchStateForSource(db, KEY)));
    expect(burst.every((found) => found.state === "building")).toBe(true);
    expect(builds()).toBe(0);
    // The waiting callers (order intake, the admin) share the same build.
    const [waited] = await Promise.all([
      referenceSearchForSource(db, KEY),
      referenceSearchForSource(db, KEY),
    ]);
    expect(builds()).toBe(1);
    expect(await referenceSearchStateForSource(db, KEY)).toEqual({ state: "ready", search: waited });
    expect(await referenceSearchStateForSource(db, OTHER_KEY)).toEqual({ state: "none" });
  });

  it("tells a failed build, and builds again for the next caller", async () => {
    const { db } = appContext();
    await saveReferenceSet(db, KEY, { cities: [city("c-1", "Київ")], branches: [] }, at(0));
    vi.mocked(search.buildReferenceSearch).mockImplementationOnce(() => {
      throw new Error("out of memory, say");
    });
    const { log, lines } = recordingLog();
    await expect(referenceSearchForSource(db, KEY, { log })).rejects.toThrow("out of memory, say");
    await vi.waitFor(() => expect(lines.map((line) => line.event)).toEqual(["reference.build_failed"]));
    expect(referenceSearchStats().building).toBe(0);
    expect(await referenceSearchStateForSource(db, KEY, log)).toEqual({ state: "building" });
    expect(await referenceSearchForSource(db, KEY)).not.toBeNull();
    expect(builds()).toBe(2);
  });

  it("builds one set at a time, in the order asked", async () => {
    const { db } = appContext();
    const keys = ["q1", "q2", "q3"];
    for (const key of keys)
      await saveReferenceSet(db, key, { cities: [city(`c-${key}`, "Київ")], branches: [] }, at(0));
    // Each build notes how many were under way with it (loading included): one, itself, if they queue.
    const underWay: number[] = [];
    const real = await vi.importActual<typeof search>("../../app/reference/search");
    vi.mocked(search.buildReferenceSearch).mockImplementation((cities, branches) => {
      underWay.push(referenceSearchStats().running);
      return real.buildReferenceSearch(cities, branches);
    });
    const states = await Promise.all(keys.map((key) => referenceSearchStateForSource(db, key)));
    expect(states.map((found) => found.state)).toEqual(["building", "building", "building"]);
    expect(referenceSearchStats().building).toBe(3);
    const searches = await Promise.all(keys.map((key) => referenceSearchForSource(db, key)));
    expect(searches.every(Boolean)).toBe(true);
    expect(referenceSearchStats()).toMatchObject({ building: 0, running: 0, sets: 3 });
    expect(underWay).toEqual([1, 1, 1]);
    vi.mocked(search.buildReferenceSearch).mockImplementation(real.buildReferenceSearch);
  });
});

describe("streetsFor", () => {
  it("asks getStreet once and answers from the database until the answer is a week old", async () => {
    const { db } = appContext();
    const asked: unknown[] = [];
    const warehouse = {
      getStreet: async (query: { CityRef: string; FindByString?: string }) => {
        asked.push(query);
        return [{ Ref: `s-${asked.length}`, Description: "Хрещатик" }];
      },
    };
    const lookup = (now: Date) => ({ db, warehouse, source: KEY, now });
    expect(await streetsFor(lookup(at(0)), "c-kyiv", "Хрещ")).toEqual([
      { Ref: "s-1", Description: "Хрещатик" },
    ]);
    expect(await streetsFor(lookup(at(5)), "c-kyiv", " хрещ ")).toEqual([
      { Ref: "s-1", Description: "Хрещатик" },
    ]);
    expect(asked).toEqual([{ CityRef: "c-kyiv", FindByString: "Хрещ" }]);
    const weekLater = new Date(at(0).getTime() + 7 * 24 * 3600_000);
    expect(await streetsFor(lookup(weekLater), "c-kyiv", "Хрещ")).toEqual([
      { Ref: "s-2", Description: "Хрещатик" },
    ]);
    await streetsFor(lookup(weekLater), "c-kyiv");
    expect(asked).toEqual([
      { CityRef: "c-kyiv", FindByString: "Хрещ" },
      { CityRef: "c-kyiv", FindByString: "Хрещ" },
      { CityRef: "c-kyiv" },
    ]);
  });
});

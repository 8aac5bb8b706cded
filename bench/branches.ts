// `npm run bench:branches`: the reference search (app/reference/search/) over 50,000 branches and
// parcel lockers, asked a realistic mix of a few thousand queries as the branch picker and the address
// matcher ask them. Figures: `p50Ms`, `p95Ms` per query (target p95 < 10), `buildMs` (the indexes, once
// per version of a key's data), and `heapMb`, the memory in use once the search is built, after a full
// garbage collection: the heap plus the typed arrays' buffers, the records themselves and the indexes
// (`recordsHeapMb` is the same before building, the records alone).
//
// Then the same data served as a server serves it (issue 23): saved in a fresh database under BENCH_KEYS (8)
// warehouse keys, one shop on each, then BENCH_KEY_REQUESTS (2,000) requests taking the shops in turn, the
// branch picker's (app/reference/proxy.server.ts: cities, a city's branches, a branch search) interleaved with
// order intake's matcher (order-matcher.server.ts, then its branch matcher on a Nova Poshta order naming no
// branch). After a warm-up that builds each key's search once, it counts the builds the requests caused
// (`rebuildsDuringRun`, target 0), times each request (`p95Ms`, target < 10) and measures `heapMb` with the
// eight searches kept; `p95CpuMs` is the process's CPU time per request, which the machine's load does not
// stretch. The single search's figures are the last line's `search` (and the line before it).
// Prints one JSON object as its last line.
//
// 50,000 branches: the simulator's directory for one seed (792 cities, about 22,000 branches), then
// the branches of further seeds added to it, each seed's branch joining the city of the same name and
// oblast (real cities are in every seed, so Київ grows as it has grown in life) or, for a village the
// directory lacks, bringing its city along; numbers continue after the city's last, Refs are made
// distinct. The last seed is cut where the total reaches BENCH_BRANCHES.
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { fold } from "../app/reference/fold";
import { buildReferenceSearch } from "../app/reference/search";
import type { BranchQuery, CarrierBranch, CarrierCity } from "../app/reference/types";
import { simulatorReferenceData } from "../test/reference/sim-data";
import { percentile, prepareBenchEnvironment, round } from "./support";

const BRANCHES = Number(process.env.BENCH_BRANCHES ?? 50_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 4_000);
const KEYS = Number(process.env.BENCH_KEYS ?? 8);
const KEY_REQUESTS = Number(process.env.BENCH_KEY_REQUESTS ?? 2_000);
/** Not the default seed: its build is cached for the process's life and would count in the heap. */
const SEEDS = [3, 7, 11, 13, 17, 19, 23];

// A full collection before measuring the heap: the flag is set at run time, so `tsx` needs no node flags.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** The JavaScript heap plus the typed arrays' buffers (held outside it, and most of the indexes). */
function heapMb(): number {
  collectGarbage();
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return round((heapUsed + arrayBuffers) / 1024 / 1024, 1);
}

// ---------------------------------------------------------------------------------------------------
// The data.

function combinedData(target: number): { cities: CarrierCity[]; branches: CarrierBranch[] } {
  const cities: CarrierCity[] = [];
  const branches: CarrierBranch[] = [];
  const cityByKey = new Map<string, CarrierCity>();
  const lastNumber = new Map<string, number>();
  for (const [round, seed] of SEEDS.entries()) {
    if (branches.length >= target) break;
    const data = simulatorReferenceData(seed);
    const joined = new Map<string, CarrierCity>();
    for (const city of data.cities) {
      const key = `${city.name}|${city.area ?? ""}`;
      let home = cityByKey.get(key);
      if (!home) {
        home = round === 0 ? city : { ...city, ref: distinctRef(city.ref, round) };
        cityByKey.set(key, home);
        cities.push(home);
      }
      joined.set(city.ref, home);
    }
    for (const branch of data.branches) {
      if (branches.length >= target) break;
      const city = joined.get(branch.cityRef)!;
      const number = (lastNumber.get(city.ref) ?? 0) + 1;
      lastNumber.set(city.ref, number);
      const renumber = (text: string | undefined) => text?.replace(`№${branch.number}`, `№${number}`);
      branches.push({
        ...branch,
        ref: round === 0 ? branch.ref : distinctRef(branch.ref, round),
        cityRef: city.ref,
        number: String(number),
        description: renumber(branch.description)!,
        descriptionRu: renumber(branch.descriptionRu),
      });
    }
    console.log(`seed ${seed}: ${cities.length} cities, ${branches.length} branches so far`);
  }
  // Through JSON, as the app reads them back from its tables: the simulator builds its texts from shared
  // pieces, which every first read of a string would otherwise pay to join, and stored data never has.
  return JSON.parse(JSON.stringify({ cities, branches })) as {
    cities: CarrierCity[];
    branches: CarrierBranch[];
  };
}

/** Another seed's Ref, its last hex digits marked with the round so that it cannot equal one before. */
function distinctRef(ref: string, round: number): string {
  return `${ref.slice(0, -2)}${round.toString(16).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------------------------------
// The queries: a seeded mix, the same every run.

let state = 0x2545f491;
function random(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4294967296;
}
function pick<T>(items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Official Ukrainian transliteration (2010), as a buyer writing Latin would spell a city. */
const LATIN: Readonly<Record<string, string>> = {
  а: "a",
  б: "b",
  в: "v",
  г: "h",
  ґ: "g",
  д: "d",
  е: "e",
  є: "ie",
  ж: "zh",
  з: "z",
  и: "y",
  і: "i",
  ї: "i",
  й: "i",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "kh",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ь: "",
  ю: "iu",
  я: "ia",
  "'": "",
  "-": "-",
  " ": " ",
};
function latin(name: string): string {
  return Array.from(name.toLowerCase(), (char) => LATIN[char] ?? char).join("");
}

/** One typo: a letter dropped, doubled, swapped with the next, or replaced by a neighbour's. */
function typo(word: string): string {
  if (word.length < 5) return word;
  const i = 1 + Math.floor(random() * (word.length - 2));
  const kind = Math.floor(random() * 3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  return word.slice(0, i) + word[i - 1] + word.slice(i + 1);
}

interface Case {
  kind: string;
  run: () => unknown;
}

function queries(
  search: ReturnType<typeof buildReferenceSearch>,
  cities: readonly CarrierCity[],
  branches: readonly CarrierBranch[],
): Case[] {
  // Buyers come from big cities more often: a city is drawn by one of its branches.
  const cityOfBranch = () => search.city(pick(branches).cityRef)!;
  const prefix = (name: string) => name.slice(0, 2 + Math.floor(random() * 4));
  const streetOf = (branch: CarrierBranch) => {
    const address = branch.description.split(": ")[1] ?? "";
    return /^(?:\S+\.\s)?([^,]+), (\S+)/.exec(address);
  };
  const branchCase = (kind: string, query: () => BranchQuery): Case => ({
    kind,
    run: () => search.searchBranches(query()),
  });
  const makers: (() => Case)[] = [
    () => ({ kind: "city prefix uk", run: () => search.searchCities(prefix(cityOfBranch().name)) }),
    () => ({ kind: "city prefix ru", run: () => search.searchCities(prefix(cityOfBranch().nameRu ?? "")) }),
    () => ({ kind: "city prefix latin", run: () => search.searchCities(prefix(latin(cityOfBranch().name))) }),
    () => ({ kind: "city typo", run: () => search.searchCities(typo(cityOfBranch().name)) }),
    () => ({ kind: "village", run: () => search.searchCities(pick(cities).name) }),
    () => {
      const branch = pick(branches);
      return branchCase("№N in city", () => ({ cityRef: branch.cityRef, text: `№${branch.number}` }));
    },
    () => {
      const branch = pick(branches.filter((b) => b.kind === "postomat"));
      return branchCase("поштомат N", () => ({ cityRef: branch.cityRef, text: `поштомат ${branch.number}` }));
    },
    () => {
      const branch = pick(branches);
      const street = streetOf(branch);
      return branchCase("street house in city", () => ({
        cityRef: branch.cityRef,
        text: street ? `вул. ${street[1]} ${street[2]}` : branch.number,
      }));
    },
    () => {
      const branch = pick(branches);
      const street = streetOf(branch);
      return branchCase("street typo anywhere", () => ({ text: street ? typo(street[1]!) : branch.number }));
    },
    () => {
      const branch = pick(branches);
      const city = search.city(branch.cityRef)!;
      return branchCase("Місто N", () => ({ text: `${city.name} ${branch.number}` }));
    },
    () => {
      const branch = pick(branches);
      const city = search.city(branch.cityRef)!;
      return branchCase("Latin city, НП N", () => ({ text: `${latin(city.name)}, НП №${branch.number}` }));
    },
    () => {
      const branch = pick(branches);
      return branchCase("type-ahead in city", () => ({
        cityRef: branch.cityRef,
        text: prefix(streetOf(branch)?.[1] ?? branch.number),
      }));
    },
  ];
  return Array.from({ length: QUERIES }, () => pick(makers)());
}

// ---------------------------------------------------------------------------------------------------

/** The search alone, as before: built once, asked QUERIES queries; answers the figures. */
function searchRun(cities: readonly CarrierCity[], branches: readonly CarrierBranch[]) {
  const recordsHeapMb = heapMb();
  console.log(`data: ${cities.length} cities, ${branches.length} branches, heap ${recordsHeapMb} MB`);

  const buildStarted = performance.now();
  const search = buildReferenceSearch(cities, branches);
  const buildMs = performance.now() - buildStarted;
  const builtHeapMb = heapMb();
  console.log(`built in ${round(buildMs, 0)} ms, heap ${builtHeapMb} MB`);

  const cases = queries(search, cities, branches);
  // A short warm-up, not measured: the first calls compile the search.
  for (const { run } of cases.slice(0, 200)) run();
  const timings: number[] = [];
  const byKind = new Map<string, number[]>();
  for (const [i, { kind, run }] of cases.entries()) {
    const started = performance.now();
    run();
    const elapsed = performance.now() - started;
    timings.push(elapsed);
    const list = byKind.get(kind) ?? [];
    list.push(elapsed);
    byKind.set(kind, list);
    if ((i + 1) % 1_000 === 0) console.log(`${i + 1} queries`);
  }
  for (const [kind, list] of byKind) {
    list.sort((a, b) => a - b);
    console.log(
      `${kind.padEnd(22)} ${String(list.length).padStart(5)}  p50 ${round(percentile(list, 50), 3)} ms  p95 ${round(percentile(list, 95), 3)} ms  max ${round(list.at(-1)!, 2)} ms`,
    );
  }

  // What the figures are for: the right branch among the hits of the plainest queries.
  const sample = Array.from({ length: 500 }, () => pick(branches));
  const numberFound = sample.filter(
    (branch) =>
      search.searchBranches({ cityRef: branch.cityRef, text: `№${branch.number}`, limit: 1 })[0]?.branch ===
      branch,
  ).length;
  const cityNumberFound = sample.filter((branch) => {
    const city = search.city(branch.cityRef)!;
    const hits = search.searchBranches({ text: `${city.name} ${branch.number}`, limit: 10 });
    return hits.some((hit) => hit.branch === branch);
  }).length;
  const cityFound = sample.filter((branch) => {
    const city = search.city(branch.cityRef)!;
    return search.searchCities(latin(city.name), 50).some((hit) => fold(hit.city.name) === fold(city.name));
  }).length;

  timings.sort((a, b) => a - b);
  return {
    benchmark: "branches",
    cities: cities.length,
    branches: search.branchCount,
    queries: timings.length,
    p50Ms: round(percentile(timings, 50), 3),
    p95Ms: round(percentile(timings, 95), 3),
    p99Ms: round(percentile(timings, 99), 3),
    maxMs: round(timings.at(-1) ?? Number.NaN, 2),
    targetP95Ms: 10,
    buildMs: round(buildMs, 0),
    recordsHeapMb,
    heapMb: builtHeapMb,
    numberInCityFirst: round(numberFound / sample.length, 3),
    cityAndNumberInTop10: round(cityNumberFound / sample.length, 3),
    latinCityFound: round(cityFound / sample.length, 3),
  };
}

// ---------------------------------------------------------------------------------------------------
// Several merchants' keys on one server: the picker and order intake in turn, through the store's cache (one
// shared set since decision 020, whatever the keys).

interface KeyRequest {
  kind: string;
  run: () => Promise<boolean>;
}

/** A Nova Poshta order naming no branch, its address giving the branch: what the matcher reads. */
function orderNaming(fixture: Record<string, unknown>, city: CarrierCity, branch: CarrierBranch, n: number) {
  const address = fixture.shipping_address as Record<string, unknown>;
  return {
    ...fixture,
    id: 7_000_000_000_000 + n,
    name: `#B${n}`,
    note_attributes: [],
    shipping_address: {
      ...address,
      city: city.name,
      province: city.area ?? address.province,
      address1: `Нова Пошта, відділення №${branch.number}`,
      address2: null,
    },
  };
}

async function keysRun(holder: { data: { cities: CarrierCity[]; branches: CarrierBranch[] } | null }) {
  await prepareBenchEnvironment();
  const { appContext } = await import("../app/context.server");
  const store = await import("../app/reference/store.server");
  const { answerBranches, answerCities } = await import("../app/reference/proxy.server");
  const { orderMatchersFor } = await import("../app/reference/order-matcher.server");
  const { shopifyOrderSchema } = await import("../app/orders/payload");
  const deps = appContext();
  const { db } = deps;
  const keys = Array.from({ length: KEYS }, (_, i) => `bench-key-${i}`);
  const shops = keys.map((_, i) => `bench-${i}.myshopify.com`);

  // Every key's shop reads the deployment's one set (decision 020): saved once, built once.
  const { REFERENCE_SOURCE } = await import("../app/reference/kinds.server");
  const saveStarted = performance.now();
  for (const [i, key] of keys.entries())
    await db.shopSettings.create({ data: { shop: shops[i]!, apiKeyDigest: key } });
  await store.saveReferenceSet(db, REFERENCE_SOURCE, holder.data!, new Date());
  console.log(`saved the shared set in ${round((performance.now() - saveStarted) / 1000, 1)} s`);

  // The requests, planned before the records are let go: only strings and small orders are kept.
  const { cities, branches } = holder.data!;
  const cityByRef = new Map(cities.map((city) => [city.ref, city]));
  const fixture = JSON.parse(readFileSync("test/fixtures/orders/ua-cod-nova-poshta.json", "utf8")) as Record<
    string,
    unknown
  >;
  const proxyUrl = (shop: string, path: string, params: Record<string, string>) =>
    new Request(
      `https://${shop}/apps/sklad-sync/${path}?${new URLSearchParams({ ...params, shop, locale: "uk" })}`,
    );
  const requests: KeyRequest[] = Array.from({ length: KEY_REQUESTS + 4 * KEYS }, (_, i) => {
    const shop = shops[i % KEYS]!;
    const branch = pick(branches);
    const city = cityByRef.get(branch.cityRef)!;
    // Each request from an address of its own: the visitor's limit is not what is measured.
    const connection = { socketAddress: `10.0.${Math.trunc(i / 250) % 250}.${i % 250}` };
    const ok = async (response: Response) => response.status === 200;
    switch (Math.trunc(i / KEYS) % 4) {
      case 0: {
        const q = city.name.slice(0, 2 + Math.floor(random() * 4));
        return {
          kind: "picker: cities",
          run: () => answerCities(deps, proxyUrl(shop, "cities", { q }), connection).then(ok),
        };
      }
      case 1:
        return {
          kind: "picker: city's branches",
          run: () =>
            answerBranches(
              deps,
              proxyUrl(shop, "branches", { city: city.ref, kind: "branch" }),
              connection,
            ).then(ok),
        };
      case 2:
        return {
          kind: "picker: branch by number",
          run: () =>
            answerBranches(
              deps,
              proxyUrl(shop, "branches", { city: city.ref, q: branch.number }),
              connection,
            ).then(ok),
        };
      default: {
        const order = shopifyOrderSchema.parse(orderNaming(fixture, city, branch, i));
        return {
          kind: "intake: branch match",
          run: async () => {
            const matchers = await orderMatchersFor(deps, shop, order);
            return matchers.branchMatcher !== null && matchers.branchMatcher(order).confidence >= 0;
          },
        };
      }
    }
  });
  holder.data = null;
  const baseHeapMb = heapMb();

  // Warm-up: each key's search built once (as the first requests after a start would ask for them), then
  // a few requests of every kind, unmeasured.
  const warmStarted = performance.now();
  await store.referenceSearchForSource(db, REFERENCE_SOURCE);
  const warmUpMs = performance.now() - warmStarted;
  const warmUpBuilds = store.referenceSearchStats().builds;
  for (const { run } of requests.slice(0, 4 * KEYS)) await run();
  console.log(`warm-up: ${warmUpBuilds} builds in ${round(warmUpMs, 0)} ms`);

  const before = store.referenceSearchStats();
  const timings: number[] = [];
  // The process's CPU time per request besides the wall time: on a loaded machine a request the scheduler
  // interrupts takes tens of milliseconds of wall time for a fraction of one of work.
  const cpuTimings: number[] = [];
  const byKind = new Map<string, number[]>();
  let notAnswered = 0;
  for (const [i, { kind, run }] of requests.slice(4 * KEYS).entries()) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const answered = await run();
    const elapsed = performance.now() - started;
    const used = process.cpuUsage(cpu);
    cpuTimings.push((used.user + used.system) / 1000);
    if (!answered) notAnswered++;
    timings.push(elapsed);
    const list = byKind.get(kind) ?? [];
    list.push(elapsed);
    byKind.set(kind, list);
    if ((i + 1) % 500 === 0) console.log(`${i + 1} requests over ${KEYS} keys`);
  }
  const after = store.referenceSearchStats();
  for (const [kind, list] of byKind) {
    list.sort((a, b) => a - b);
    console.log(
      `${kind.padEnd(26)} ${String(list.length).padStart(5)}  p50 ${round(percentile(list, 50), 3)} ms  p95 ${round(percentile(list, 95), 3)} ms  max ${round(list.at(-1)!, 2)} ms`,
    );
  }
  const keptHeapMb = heapMb();
  await db.$disconnect();
  timings.sort((a, b) => a - b);
  cpuTimings.sort((a, b) => a - b);
  return {
    keys: KEYS,
    rebuildsDuringRun: after.builds - before.builds,
    p95Ms: round(percentile(timings, 95), 3),
    heapMb: keptHeapMb,
    requests: timings.length,
    notAnswered,
    p50Ms: round(percentile(timings, 50), 3),
    p99Ms: round(percentile(timings, 99), 3),
    maxMs: round(timings.at(-1) ?? Number.NaN, 2),
    targetP95Ms: 10,
    p50CpuMs: round(percentile(cpuTimings, 50), 3),
    p95CpuMs: round(percentile(cpuTimings, 95), 3),
    warmUpBuilds,
    warmUpMs: round(warmUpMs, 0),
    baseHeapMb,
    estimatedMb: after.estimatedMb,
    budgetMb: after.budgetMb,
    evictions: after.evictions,
  };
}

const holder: { data: { cities: CarrierCity[]; branches: CarrierBranch[] } | null } = {
  data: combinedData(BRANCHES),
};
const single = searchRun(holder.data!.cities, holder.data!.branches);
console.log(JSON.stringify(single));
const overKeys = await keysRun(holder);
console.log(JSON.stringify({ ...overKeys, benchmark: "branches", search: single }));

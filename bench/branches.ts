// `npm run bench:branches`: the reference search (app/reference/search.ts) over 50,000 branches and
// parcel lockers, asked a realistic mix of a few thousand queries as the branch picker and the address
// matcher ask them. Figures: `p50Ms`, `p95Ms` per query (target p95 < 10), `buildMs` (the indexes, once
// per version of a key's data), and `heapMb`, the memory in use once the search is built, after a full
// garbage collection: the heap plus the typed arrays' buffers, the records themselves and the indexes
// (`recordsHeapMb` is the same before building, the records alone).
// Prints one JSON object as its last line.
//
// 50,000 branches: the simulator's directory for one seed (792 cities, about 22,000 branches), then
// the branches of further seeds added to it, each seed's branch joining the city of the same name and
// oblast (real cities are in every seed, so Київ grows as it has grown in life) or, for a village the
// directory lacks, bringing its city along; numbers continue after the city's last, Refs are made
// distinct. The last seed is cut where the total reaches BENCH_BRANCHES.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { fold } from "../app/reference/fold";
import { buildReferenceSearch } from "../app/reference/search";
import type { BranchQuery, CarrierBranch, CarrierCity } from "../app/reference/types";
import { simulatorReferenceData } from "../test/reference/sim-data";
import { percentile, round } from "./support";

const BRANCHES = Number(process.env.BENCH_BRANCHES ?? 50_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 4_000);
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

const { cities, branches } = combinedData(BRANCHES);
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
console.log(
  JSON.stringify({
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
  }),
);

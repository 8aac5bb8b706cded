// The in-memory search over one key's carrier reference data (cities, branches, parcel lockers): built once
// per version of the set, then answered synchronously from indexes, never by reading every record. Plan:
// 50,000 branches, a query in well under 10 ms (`npm run bench:branches`).
//
// Everything is compared through fold() (app/reference/fold/), so Ukrainian, Russian and Latin writings,
// apostrophe variants and doubled letters meet. Names and address words sit in term indexes (term-index.ts):
// each distinct folded word once, with the records holding it (postings), kept in sorted order for prefixes
// (type-ahead) and by trigram for words within a typo or two. Branch numbers have an index of their own.
// Here the set is put in order and the search assembled; the city names (cities.ts), a branch's words
// (branch-terms.ts), the ranking (rank.ts) and the qualities it scores with (quality.ts) are apart.
import { queryTerms } from "../fold";
import type { BranchHit, BranchQuery, CarrierBranch, CarrierCity, ReferenceSearch } from "../types";
import { branchTerms, numberOrder, type TextTerms } from "./branch-terms";
import { cityNameSearch, type CityScope } from "./cities";
import { round } from "./quality";
import { branchRanker } from "./rank";
import { addPosting, TermIndex } from "./term-index";

const DEFAULT_BRANCH_LIMIT = 20;

export function buildReferenceSearch(
  cities: readonly CarrierCity[],
  branches: readonly CarrierBranch[],
): ReferenceSearch {
  const cityIndexByRef = new Map<string, number>();
  cities.forEach((city, index) => cityIndexByRef.set(city.ref, index));

  // Branches grouped by city (in the cities' order) and by number within one: ids are positions here,
  // so a city's branches are one range and every postings list comes out in that order. A branch whose
  // city the set lacks is left out: it could be neither shown with its city nor found through it.
  const known = branches.filter((branch) => cityIndexByRef.has(branch.cityRef));
  const byCity: CarrierBranch[][] = cities.map(() => []);
  for (const branch of known) byCity[cityIndexByRef.get(branch.cityRef)!]!.push(branch);
  for (const list of byCity) list.sort(numberOrder);
  const ordered: CarrierBranch[] = byCity.flat();
  const cityStart = new Int32Array(cities.length + 1);
  byCity.forEach((list, index) => (cityStart[index + 1] = cityStart[index]! + list.length));
  const cityOf = new Int32Array(ordered.length);
  byCity.forEach((_, index) => cityOf.fill(index, cityStart[index]!, cityStart[index + 1]!));
  const branchIndexByRef = new Map<string, number>();
  ordered.forEach((branch, id) => branchIndexByRef.set(branch.ref, id));

  // A city's size is its branch count: big cities first among equals, and a little higher in score.
  const largest = byCity.reduce((most, list) => Math.max(most, list.length), 1);
  const sizeFactor = Float64Array.from(byCity, (list) => Math.log1p(list.length) / Math.log1p(largest));

  const { searchCities, cityInWords } = cityNameSearch(cities, sizeFactor);

  const termEntries = new Map<string, number[]>();
  const numberEntries = new Map<string, number[]>();
  const titles = new Map<string, TextTerms>();
  ordered.forEach((branch, id) => {
    for (const term of branchTerms(branch, titles)) addPosting(termEntries, term, id);
    addPosting(numberEntries, branch.number, id);
  });
  const terms = new TermIndex(termEntries);
  const numbers = new Map<string, Int32Array>();
  for (const [number, ids] of numberEntries) numbers.set(number, Int32Array.from(ids));
  // Closures below share this scope: what only the build needs is let go explicitly.
  termEntries.clear();
  numberEntries.clear();
  titles.clear();
  byCity.length = 0;

  const cityLists = new Map<number, readonly CarrierBranch[]>();
  const branchesOfIndex = (index: number): readonly CarrierBranch[] => {
    let list = cityLists.get(index);
    if (!list) {
      list = Object.freeze(ordered.slice(cityStart[index]!, cityStart[index + 1]!));
      cityLists.set(index, list);
    }
    return list;
  };

  const rankBranches = branchRanker({ ordered, cityOf, cityStart, terms, numbers });

  function searchBranches(query: BranchQuery): BranchHit[] {
    const limit = query.limit ?? DEFAULT_BRANCH_LIMIT;
    if (limit <= 0) return [];
    const parsed = queryTerms(query.text);
    let scope: CityScope | undefined;
    if (query.cityRef !== undefined) {
      const index = cityIndexByRef.get(query.cityRef);
      if (index === undefined) return [];
      // The city may be written in the text as well ("Київ 12" with Київ chosen): those words are spent.
      const named = cityInWords(parsed.words, parsed.regions);
      const used = named?.exact && named.cities.has(index) ? named.used : new Set<number>();
      scope = { cities: new Map([[index, 1]]), used, exact: true };
    } else {
      scope = cityInWords(parsed.words, parsed.regions);
    }
    const kinds = query.kinds && query.kinds.length ? new Set(query.kinds) : undefined;
    const accept = (branch: CarrierBranch) =>
      (query.includeClosed || branch.working) && (!kinds || kinds.has(branch.kind));

    const run = (within: CityScope | undefined) =>
      rankBranches(
        parsed.words.filter((_, i) => !within?.used.has(i)),
        parsed.numbers,
        parsed.kind,
        within?.cities,
        accept,
      );
    let hits = run(scope);
    if (scope && !scope.exact) {
      // A city read through a typo may be a street instead ("Одеська 48" is a word from "Одеса"): both
      // readings are scored, the better one for each branch kept.
      const byRef = new Map(hits.map((hit) => [hit.id, hit]));
      for (const hit of run(undefined))
        if (hit.score > (byRef.get(hit.id)?.score ?? 0)) byRef.set(hit.id, hit);
      hits = [...byRef.values()];
    }
    hits.sort(
      (a, b) => b.score - a.score || sizeFactor[cityOf[b.id]!]! - sizeFactor[cityOf[a.id]!]! || a.id - b.id,
    );
    return hits.slice(0, limit).map(({ id, score }) => {
      const branch = ordered[id]!;
      return { branch, city: cities[cityOf[id]!], score: round(score) };
    });
  }

  return {
    cityCount: cities.length,
    branchCount: ordered.length,
    city: (ref) => {
      const index = cityIndexByRef.get(ref);
      return index === undefined ? undefined : cities[index];
    },
    branch: (ref) => {
      const id = branchIndexByRef.get(ref);
      return id === undefined ? undefined : ordered[id];
    },
    branchesOf: (cityRef) => {
      const index = cityIndexByRef.get(cityRef);
      return index === undefined ? [] : branchesOfIndex(index);
    },
    searchCities,
    searchBranches,
  };
}

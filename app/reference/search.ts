// The in-memory search over one key's carrier reference data (cities, branches, parcel lockers): built once
// per version of the set, then answered synchronously from indexes, never by reading every record. Plan:
// 50,000 branches, a query in well under 10 ms (`npm run bench:branches`).
//
// Everything is compared through fold() (app/reference/fold.ts), so Ukrainian, Russian and Latin writings,
// apostrophe variants and doubled letters meet. Names and address words sit in term indexes: each distinct
// folded word once, with the records holding it (postings), kept in sorted order for prefixes (type-ahead)
// and by trigram for words within a typo or two. Branch numbers have an index of their own.
import { editDistance, fold, leadingNumber, queryTerms, tokens, typoAllowance } from "./fold";
import type {
  BranchHit,
  BranchKind,
  BranchQuery,
  CarrierBranch,
  CarrierCity,
  CityHit,
  ReferenceSearch,
} from "./types";

const DEFAULT_CITY_LIMIT = 10;
const DEFAULT_BRANCH_LIMIT = 20;
/** Prefixes of one or two letters would each reach most of the index; type-ahead starts at two. */
const MIN_PREFIX = 2;
/** A prefix reaches at most this many distinct words (the shortest, most likely, are first in order). */
const PREFIX_TERMS = 200;

// Scores. A query's parts (name words and numbers) are each matched with a quality; a record's score is
// their mean, scaled by how surely the city was read. These are the qualities.
const QUALITY = {
  exact: 1,
  /** A house number equal to the query's unmarked number ("Хрещатик 22"). */
  house: 0.9,
  /** A word the query's word begins: 0.65 for a short start, towards 0.95 for nearly all of it. */
  prefixBase: 0.65,
  prefixSpan: 0.3,
  /** Per typo: one typo 0.75, two 0.5. */
  typo: 0.25,
  /** A city named by a word of a longer name ("Франківськ"). */
  cityWord: 0.85,
  /** A city the text names with a typo, or one of several that share the name without the area. */
  fuzzyCity: 0.8,
  /** A branch of another kind than the text names ("поштомат 12" and a staffed branch 12). */
  otherKind: 0.8,
  /** A city outside the oblast the text names. */
  otherArea: 0.8,
  /** How many words a marked branch number ("№25") weighs in a query's mean. */
  markedNumberWeight: 2,
} as const;

// ---------------------------------------------------------------------------------------------------
// A term index: distinct folded words, each with the ids of the records that hold it.

class TermIndex {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[];
  private readonly postings: Int32Array[];
  /** Term ids in the terms' string order, for prefix ranges. */
  private readonly order: Int32Array;
  private readonly sortedTerms: string[];
  private readonly grams = new Map<string, Int32Array>();
  /** Scratch for counting shared trigrams; the search is synchronous, so one per index is enough. */
  private readonly counts: Uint16Array;

  constructor(entries: Map<string, number[]>) {
    this.terms = [...entries.keys()];
    this.postings = this.terms.map((term, id) => {
      this.ids.set(term, id);
      return Int32Array.from(entries.get(term)!);
    });
    this.order = Int32Array.from(this.terms.keys()).sort((a, b) =>
      this.terms[a]! < this.terms[b]! ? -1 : this.terms[a]! > this.terms[b]! ? 1 : 0,
    );
    this.sortedTerms = Array.from(this.order, (id) => this.terms[id]!);
    const grams = new Map<string, number[]>();
    this.terms.forEach((term, id) => {
      for (const gram of trigrams(term)) {
        const list = grams.get(gram);
        if (!list) grams.set(gram, [id]);
        else if (list[list.length - 1] !== id) list.push(id);
      }
    });
    for (const [gram, list] of grams) this.grams.set(gram, Int32Array.from(list));
    this.counts = new Uint16Array(this.terms.length);
  }

  get size(): number {
    return this.terms.length;
  }

  term(id: number): string {
    return this.terms[id]!;
  }

  postingsOf(id: number): Int32Array {
    return this.postings[id]!;
  }

  lookup(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** Ids of the terms that start with `prefix` and are longer than it, at most `cap` of them. */
  prefixed(prefix: string, cap = PREFIX_TERMS): number[] {
    const found: number[] = [];
    let lo = 0;
    let hi = this.sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortedTerms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sortedTerms.length && found.length < cap; i++) {
      const term = this.sortedTerms[i]!;
      if (!term.startsWith(prefix)) break;
      if (term.length > prefix.length) found.push(this.order[i]!);
    }
    return found;
  }

  /**
   * Terms whose start is within `max` edits of `word`. Trigrams cannot find a short start with a typo
   * ("hvrk" shares none with "harkiv"), so this reads every term: a fallback for when nothing else matched,
   * and cheap, as the bound stops most comparisons after a letter or two.
   */
  nearPrefix(word: string, max: number): number[] {
    const found: number[] = [];
    for (let id = 0; id < this.terms.length; id++) {
      if (prefixDistance(word, this.terms[id]!, max) <= max) found.push(id);
    }
    return found;
  }

  /**
   * Terms within `max` edits of `word` (not `word` itself), with their distance. Candidates share enough
   * trigrams with the word (an edit spoils at most three), and only they are measured.
   */
  near(word: string, max: number): { id: number; distance: number }[] {
    if (max <= 0) return [];
    const wordGrams = trigrams(word);
    const needed = Math.max(1, wordGrams.length - 3 * max);
    const touched: number[] = [];
    for (const gram of new Set(wordGrams)) {
      const list = this.grams.get(gram);
      if (!list) continue;
      for (const id of list) {
        const count = this.counts[id]!;
        if (count === 0) touched.push(id);
        this.counts[id] = count + 1;
      }
    }
    const found: { id: number; distance: number }[] = [];
    for (const id of touched) {
      const shared = this.counts[id]!;
      this.counts[id] = 0;
      if (shared < needed) continue;
      const term = this.terms[id]!;
      if (term === word) continue;
      const distance = editDistance(word, term, max);
      if (distance <= max) found.push({ id, distance });
    }
    return found;
  }
}

/**
 * The fewest edits (insertions, deletions, substitutions) that make `word` a start of `term`, or `max + 1`
 * once it must exceed `max`. Only the band of `max` around the diagonal is filled.
 */
function prefixDistance(word: string, term: string, max: number): number {
  const width = Math.min(term.length, word.length + max) + 1;
  if (width - 1 < word.length - max) return max + 1;
  let previous = PREFIX_ROWS[0]!;
  let current = PREFIX_ROWS[1]!;
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= word.length; i++) {
    current[0] = i;
    let rowMin = i;
    const code = word.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const value = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (code === term.charCodeAt(j - 1) ? 0 : 1),
      );
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  let best = max + 1;
  for (let j = Math.max(0, word.length - max); j < width; j++) best = Math.min(best, previous[j]!);
  return best;
}

/** Two rows for prefixDistance, long enough for any name: it runs thousands of times per fallback. */
const PREFIX_ROWS = [new Int32Array(256), new Int32Array(256)];

/** Trigrams of a word padded with a space at each end, so that short words and word edges count. */
function trigrams(word: string): string[] {
  const padded = ` ${word} `;
  const grams: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(padded.slice(i, i + 3));
  return grams;
}

function addPosting(entries: Map<string, number[]>, term: string, id: number): void {
  const list = entries.get(term);
  if (!list) entries.set(term, [id]);
  else if (list[list.length - 1] !== id) list.push(id);
}

/** How well a query word matches the terms of an index: [term id, quality] pairs. */
function wordMatches(index: TermIndex, word: string): [number, number][] {
  const matches: [number, number][] = [];
  const exact = index.lookup(word);
  if (exact !== undefined) matches.push([exact, QUALITY.exact]);
  if (word.length >= MIN_PREFIX) {
    for (const id of index.prefixed(word)) {
      const ratio = word.length / index.term(id).length;
      matches.push([id, QUALITY.prefixBase + QUALITY.prefixSpan * ratio]);
    }
  }
  // Typos only when the word is nowhere as written: an exact word is what was meant.
  if (exact === undefined) {
    for (const { id, distance } of index.near(word, typoAllowance(word.length))) {
      matches.push([id, QUALITY.exact - QUALITY.typo * distance]);
    }
  }
  return matches;
}

// ---------------------------------------------------------------------------------------------------
// Branch text: the words worth finding a branch by.

/** "(до 30 кг)", "(до 1000 кг на одне місце)": weight limits, in every description, say nothing of place. */
const WEIGHT_NOTE = /\([^)]*(кг|kg)[^)]*\)/giu;

type TextTerms = ReturnType<typeof queryTerms>;

/**
 * The folded address and name words of a branch and its postcode; not its own number, noise or weight
 * notes. A description is a title and an address ("Відділення №12 (до 30 кг): вул. Хрещатик, 22"); the
 * titles repeat across cities and are read once each (`titles`), the address every time. The short
 * address repeats the description's and is read only for a description without one.
 */
function branchTerms(branch: CarrierBranch, titles: Map<string, TextTerms>): Set<string> {
  const terms = new Set<string>();
  const add = ({ words, numbers }: TextTerms) => {
    for (const word of words) terms.add(word);
    for (const number of numbers) {
      // "№12" is the branch's number, indexed apart; other numbers are houses.
      if (number.marked && number.value === branch.number) continue;
      terms.add(number.value);
    }
  };
  let addressed = false;
  for (const text of [branch.description, branch.descriptionRu]) {
    if (!text) continue;
    const colon = text.indexOf(": ");
    const title = colon < 0 ? text : text.slice(0, colon);
    let titleTerms = titles.get(title);
    if (!titleTerms) {
      titleTerms = queryTerms(title.replace(WEIGHT_NOTE, " "));
      titles.set(title, titleTerms);
    }
    add(titleTerms);
    if (colon >= 0) {
      add(queryTerms(text.slice(colon + 2).replace(WEIGHT_NOTE, " ")));
      addressed = true;
    }
  }
  if (!addressed && branch.shortAddress) add(queryTerms(branch.shortAddress));
  // A buyer may know the branch by its postcode ("01001"); five digits, so no house number is taken for it.
  if (branch.postcode) terms.add(branch.postcode);
  return terms;
}

/** An oblast's name without its adjective ending: "kivska" → "kiv", "kevskaia" → "kev", "kiv" stays. */
function areaStem(word: string): string {
  const at = word.lastIndexOf("sk");
  return at >= 3 ? word.slice(0, at) : word;
}

function numberOrder(a: CarrierBranch, b: CarrierBranch): number {
  const byValue = Number.parseInt(a.number, 10) - Number.parseInt(b.number, 10);
  if (byValue) return byValue;
  return a.number < b.number ? -1 : a.number > b.number ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------
// The search.

interface CityScope {
  /** City index → how surely the text (or the caller) named it, 0..1. */
  cities: Map<number, number>;
  /** Positions of the query's words the city took, not to be matched against addresses. */
  used: Set<number>;
  /** Whether the city was read exactly (or given): then it bounds the search. */
  exact: boolean;
}

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

  // City names: whole folded names ("bila tserkva") and, for names of several words, each word.
  const nameEntries = new Map<string, number[]>();
  const nameWordEntries = new Map<string, number[]>();
  /** Each city's oblast, folded: its last word ("frankivska") and that word's stem ("frankiv"). */
  const areaOf: ({ word: string; stem: string } | undefined)[] = [];
  cities.forEach((city, index) => {
    for (const name of [city.name, city.nameRu]) {
      if (!name) continue;
      const words = tokens(name);
      if (!words.length) continue;
      addPosting(nameEntries, words.join(" "), index);
      if (words.length > 1) for (const word of words) addPosting(nameWordEntries, word, index);
    }
    const areaWord = city.area ? fold(city.area).split(" ").pop()! : "";
    areaOf.push(areaWord ? { word: areaWord, stem: areaStem(areaWord) } : undefined);
  });
  const names = new TermIndex(nameEntries);
  const nameWords = new TermIndex(nameWordEntries);

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

  // Scratch for the branch search, one slot per branch.
  const sums = new Float64Array(ordered.length);
  const best = new Float64Array(ordered.length);
  const seen = new Uint8Array(ordered.length);

  /** Cities a phrase (folded words joined by spaces) names: index → score. */
  function citiesByName(phrase: string, into: Map<number, number>): void {
    const add = (index: number, score: number) => {
      if (score > (into.get(index) ?? 0)) into.set(index, score);
    };
    const exact = names.lookup(phrase);
    if (exact !== undefined) for (const index of names.postingsOf(exact)) add(index, QUALITY.exact);
    if (phrase.length >= MIN_PREFIX) {
      // A start of a name, for type-ahead: equal starts rank by size ("Ки" → Київ first).
      for (const id of names.prefixed(phrase)) {
        for (const index of names.postingsOf(id)) add(index, 0.7 + 0.15 * sizeFactor[index]!);
      }
      const word = nameWords.lookup(phrase);
      if (word !== undefined) for (const index of nameWords.postingsOf(word)) add(index, QUALITY.cityWord);
      for (const id of nameWords.prefixed(phrase)) {
        for (const index of nameWords.postingsOf(id)) add(index, 0.6 + 0.1 * sizeFactor[index]!);
      }
    }
    if (exact === undefined) {
      for (const { id, distance } of names.near(phrase, typoAllowance(phrase.length))) {
        for (const index of names.postingsOf(id)) {
          add(index, QUALITY.exact - 0.15 * distance - 0.05 * (1 - sizeFactor[index]!));
        }
      }
    }
    // Nothing starts so: perhaps a start typed with a typo ("Хврк" for Харків).
    if (!into.size && phrase.length >= 4 && phrase.length < 200) {
      for (const id of names.nearPrefix(phrase, 1)) {
        for (const index of names.postingsOf(id)) add(index, 0.55 + 0.1 * sizeFactor[index]!);
      }
    }
  }

  /**
   * Whether a folded query word names the city's oblast, in any case and language: "Київська",
   * "Київської", "Kyivska", "Киевская" all have the stem "kiv"/"kev" before "sk", a letter from the
   * oblast's; the oblast named after its centre ("Kyiv oblast", "Cherkasy oblast", "Odesa region") starts
   * with the stem or is a letter from the adjective. A surname or a street that merely starts alike
   * ("Іваненко" and Івано-Франківська) has no such stem.
   */
  function isAreaWord(index: number, word: string): boolean {
    const area = areaOf[index];
    if (!area || word.length < 3) return false;
    const stem = areaStem(word);
    const allowance = area.stem.length >= 7 ? 2 : 1;
    if (stem.length >= 3 && editDistance(stem, area.stem, allowance) <= allowance) return true;
    if (area.stem.length >= 5 && word.startsWith(area.stem)) return true;
    return editDistance(word, area.word, 1) <= 1;
  }

  function searchCities(text: string, limit = DEFAULT_CITY_LIMIT): CityHit[] {
    const { words, regions } = queryTerms(text);
    if (!words.length || limit <= 0) return [];
    const scores = new Map<number, number>();
    citiesByName(words.join(" "), scores);
    // More words than the name: "Петрівка Київська", "Біла Церква Київська": the name is a part of them,
    // and the rest may name the oblast.
    if (words.length > 1) {
      for (let length = words.length - 1; length >= 1; length--) {
        for (let start = 0; start + length <= words.length; start++) {
          const found = new Map<number, number>();
          citiesByName(words.slice(start, start + length).join(" "), found);
          const rest = [...words.slice(0, start), ...words.slice(start + length)];
          for (const [index, score] of found) {
            const areaNamed = rest.some((word) => isAreaWord(index, word));
            // Words beyond the name that name nothing make the name less sure, never below 0.7 of it.
            const scaled = areaNamed ? score : score * (0.7 + 0.25 * (length / words.length));
            if (scaled > (scores.get(index) ?? 0)) scores.set(index, Math.min(1, scaled));
          }
        }
      }
    }
    // An oblast the text marks ("Калинове, Полтавська обл."): the cities of other oblasts drop behind.
    if (regions.length) {
      for (const [index, score] of scores) {
        if (!regions.some((region) => isAreaWord(index, region)))
          scores.set(index, score * QUALITY.otherArea);
      }
    }
    return [...scores]
      .sort(([a, scoreA], [b, scoreB]) => scoreB - scoreA || sizeFactor[b]! - sizeFactor[a]! || a - b)
      .slice(0, limit)
      .map(([index, score]) => ({ city: cities[index]!, score: round(score) }));
  }

  /**
   * The city the words of a branch query name ("Київ 12", "Біла Церква 5", "Odesa вул. Канатна"): the
   * longest run of words that is a whole city name; failing that, a word within a typo of one. Of
   * several cities with the name, those of the oblast the text names.
   */
  function cityInWords(words: readonly string[], regions: readonly string[]): CityScope | undefined {
    for (let length = Math.min(3, words.length); length >= 1; length--) {
      for (let start = 0; start + length <= words.length; start++) {
        const id = names.lookup(words.slice(start, start + length).join(" "));
        if (id === undefined) continue;
        const used = new Set<number>();
        for (let i = start; i < start + length; i++) used.add(i);
        const cities = new Map<number, number>();
        for (const index of names.postingsOf(id)) cities.set(index, QUALITY.exact);
        return narrowByArea({ cities, used, exact: true }, words, regions);
      }
    }
    for (let start = 0; start < words.length; start++) {
      const word = words[start]!;
      if (word.length < 5) continue;
      const near = names.near(word, 1);
      if (!near.length) continue;
      const cities = new Map<number, number>();
      for (const { id } of near)
        for (const index of names.postingsOf(id)) cities.set(index, QUALITY.fuzzyCity);
      return narrowByArea({ cities, used: new Set([start]), exact: false }, words, regions);
    }
    return undefined;
  }

  /**
   * Several cities share the name: an oblast the text marks keeps that oblast's ones, or else a word that
   * names one (and is then spent: "Петрівка Полтавська 3").
   */
  function narrowByArea(scope: CityScope, words: readonly string[], regions: readonly string[]): CityScope {
    if (scope.cities.size < 2) return scope;
    const keep = (inArea: number[]) =>
      new Map(inArea.map((index) => [index, scope.cities.get(index)!] as const));
    for (const region of regions) {
      const inArea = [...scope.cities.keys()].filter((index) => isAreaWord(index, region));
      if (inArea.length) return { ...scope, cities: keep(inArea) };
    }
    for (let i = 0; i < words.length; i++) {
      if (scope.used.has(i)) continue;
      const inArea = [...scope.cities.keys()].filter((index) => isAreaWord(index, words[i]!));
      if (!inArea.length || inArea.length === scope.cities.size) continue;
      return { cities: keep(inArea), used: new Set([...scope.used, i]), exact: scope.exact };
    }
    return scope;
  }

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

  /** Scores branches by the query's words and numbers within the cities given (or anywhere). */
  function rankBranches(
    words: readonly string[],
    queryNumbers: readonly { value: string; marked: boolean }[],
    kind: BranchKind | undefined,
    within: Map<number, number> | undefined,
    accept: (branch: CarrierBranch) => boolean,
  ): { id: number; score: number }[] {
    // A number the text marks as a branch's ("відділення 25", "№25") is the strongest thing a buyer
    // writes, above the street of a home address next to it: it weighs two words.
    const weightOf = (number: { marked: boolean }) => (number.marked ? QUALITY.markedNumberWeight : 1);
    const parts = queryNumbers.reduce((sum, number) => sum + weightOf(number), words.length);
    const candidates: number[] = [];
    const inScope = (id: number) => !within || within.has(cityOf[id]!);
    const consider = (id: number, quality: number, touched: number[]) => {
      if (!inScope(id)) return;
      if (best[id] === 0) touched.push(id);
      if (quality > best[id]!) best[id] = quality;
    };
    const settle = (touched: number[], weight = 1) => {
      for (const id of touched) {
        sums[id] = sums[id]! + best[id]! * weight;
        best[id] = 0;
        if (!seen[id]) {
          seen[id] = 1;
          candidates.push(id);
        }
      }
    };

    if (parts === 0) {
      // Only a city (and perhaps a kind): its branches in number order.
      if (!within) return [];
      for (const index of within.keys()) {
        for (let id = cityStart[index]!; id < cityStart[index + 1]!; id++) {
          sums[id] = 1;
          seen[id] = 1;
          candidates.push(id);
        }
      }
    }
    for (const word of words) {
      const touched: number[] = [];
      for (const [termId, quality] of wordMatches(terms, word)) {
        for (const id of terms.postingsOf(termId)) consider(id, quality, touched);
      }
      settle(touched);
    }
    for (const number of queryNumbers) {
      const touched: number[] = [];
      const own = leadingNumber(number.value) === number.value ? numbers.get(number.value) : undefined;
      if (own) for (const id of own) consider(id, QUALITY.exact, touched);
      if (!number.marked) {
        // Not said to be a branch's number: it may be the house ("Хрещатик 22", "22а").
        const house = terms.lookup(number.value);
        if (house !== undefined)
          for (const id of terms.postingsOf(house)) consider(id, QUALITY.house, touched);
        for (const termId of terms.prefixed(number.value)) {
          if (/^\d/.test(terms.term(termId).slice(number.value.length))) continue;
          for (const id of terms.postingsOf(termId)) consider(id, QUALITY.house - 0.1, touched);
        }
      }
      settle(touched, weightOf(number));
    }

    const hits: { id: number; score: number }[] = [];
    for (const id of candidates) {
      const sum = sums[id]!;
      sums[id] = 0;
      seen[id] = 0;
      const branch = ordered[id]!;
      if (!accept(branch)) continue;
      let score = parts ? sum / parts : sum;
      if (kind && branch.kind !== kind) score *= QUALITY.otherKind;
      if (within) score *= within.get(cityOf[id]!) ?? 1;
      hits.push({ id, score });
    }
    return hits;
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

/** Scores to three decimals: equal-looking scores compare equal, and the ranking above decides. */
function round(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}

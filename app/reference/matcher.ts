// The address matcher: which Nova Poshta branch (or parcel locker) an order without a chosen one goes to,
// and how sure that is. Pure and synchronous: the order and an in-memory ReferenceSearch in, a BranchMatch
// out; odd input gives a match with nothing in it, never an exception.
//
// In order of trust:
// 1. Structured data another checkout app left in the note or note attributes (app/reference/structured.ts):
//    a branch Ref the reference data has is certain (1); a city (by Ref, or by name) and a number next.
// 2. The shipping address: the city (with the region, when given, to tell apart villages sharing a name),
//    then the branch from address1, address2, company and note: a number after a marker ("НП 12",
//    "відділення 12", "поштомат 3456", "#12"), or a street and house the city has a branch at.
//
// The confidence is the product of how sure the city is and how well the branch fits it. A city name
// several settlements share, with no region to choose, caps it below any sensible threshold whatever the
// number: the number may exist in more than one of them, and the buyer may live in any.
import {
  editDistance,
  kindFromText,
  leadingNumber,
  queryTerms,
  tokens,
  typoAllowance,
  NOISE_WORDS,
} from "./fold";
import { readStructuredHints, type StructuredHints } from "./structured";
import {
  branchLabel,
  type BranchCandidate,
  type BranchKind,
  type BranchMatch,
  type CarrierBranch,
  type CarrierCity,
  type CityMatch,
  type ReferenceSearch,
} from "./types";
import type { ShopifyOrder } from "../orders/payload";
import { DEFAULT_BRANCH_MATCH_THRESHOLD } from "../orders/settings";

/** The shop's threshold by default; why 0.8: see app/orders/settings.ts. */
export { DEFAULT_BRANCH_MATCH_THRESHOLD };

/** A city name several settlements share and nothing chooses between: never confident. */
const AMBIGUOUS_CITY_CAP = 0.7;
/** A structured branch Ref the reference data has. */
const STRUCTURED_REF_CONFIDENCE = 1;
/** A number read after a marker ("НП 12") or in a field about the carrier, found in the city. */
const MARKED_NUMBER_FIT = 1;
/** A field that is nothing but a number ("12" in address2): probably the branch, less surely. */
const BARE_NUMBER_FIT = 0.88;
/** The number exists, but as another kind than the text asked for ("поштомат 12" is a branch). */
const KIND_MISMATCH_FACTOR = 0.85;
/** Two fields name different branches that both exist. */
const CONFLICT_FACTOR = 0.8;
/** A street and house that exactly one branch of the city is at. */
const STREET_HOUSE_FIT = 0.95;
/** The street without the house, or the house differs: the merchant should look. */
const STREET_ONLY_FIT = 0.6;
/** The city has one branch and the order names none. */
const ONLY_BRANCH_FIT = 0.6;
/** How many namesakes (or close spellings) of a city name are weighed. */
const CITY_CHOICES = 12;
/** Text longer than this per field is cut: notes can be long, addresses are not. */
const MAX_TEXT = 2_000;

const NONE: BranchMatch = { ref: null, confidence: 0, candidates: [], source: "none", evidence: {} };

export function matchBranch(order: ShopifyOrder, search: ReferenceSearch): BranchMatch {
  try {
    return matchBranchOrThrow(order, search);
  } catch {
    return { ...NONE, candidates: [], evidence: {} };
  }
}

export function matchCity(order: ShopifyOrder, search: ReferenceSearch): CityMatch {
  try {
    return matchCityOrThrow(order, search);
  } catch {
    return { cityRef: null, confidence: 0, candidates: [], source: "none" };
  }
}

// ---------------------------------------------------------------------------------------------------
// Branches.

interface Scored {
  branch: CarrierBranch;
  city: CarrierCity | undefined;
  score: number;
}

interface Reading {
  /** The field a number or street was read from ("address1", "note", a note attribute's name). */
  field: string;
  text: string;
}

function matchBranchOrThrow(order: ShopifyOrder, search: ReferenceSearch): BranchMatch {
  const hints = readStructuredHints(order, search);

  // 1. A branch Ref the reference data has.
  for (const hint of hints) {
    const branch = hint.branchRefs.map((ref) => search.branch(ref)).find((found) => found !== undefined);
    if (!branch) continue;
    const city = search.city(branch.cityRef);
    return {
      ref: branch.ref,
      confidence: STRUCTURED_REF_CONFIDENCE,
      candidates: [candidate({ branch, city, score: STRUCTURED_REF_CONFIDENCE })],
      source: "structured",
      evidence: { city: city?.name, number: branch.number, kind: branch.kind, field: hint.field },
    };
  }

  // 2. A city from the structured data, with its number or branch text.
  for (const hint of hints) {
    const cities = structuredCities(hint, search);
    if (cities.length === 0) continue;
    const readings: Reading[] = [
      ...hint.branchNumbers.map((number) => ({ field: hint.field, text: `№${number}` })),
      ...hint.branchTexts.map((text) => ({ field: hint.field, text })),
    ];
    if (readings.length === 0) continue;
    const result = branchesIn(cities, readings, hint.kind, search);
    if (result) {
      return finish(result, "structured", {
        city: hint.cityNames[0] ?? cities[0]?.city.name,
        field: hint.field,
      });
    }
  }

  // 3. The shipping address (and what structured data said of the city, if it named no branch).
  const address = order.shipping_address ?? undefined;
  const structuredFields = new Set(hints.map((hint) => hint.field));
  const readings: Reading[] = [];
  const push = (field: string, text: string | null | undefined) => {
    if (typeof text === "string" && text.trim().length > 0)
      readings.push({ field, text: text.slice(0, MAX_TEXT) });
  };
  push("address1", address?.address1);
  push("address2", address?.address2);
  push("company", address?.company);
  if (!structuredFields.has("note")) push("note", order.note);
  for (const hint of hints) for (const text of hint.branchTexts) push(hint.field, text);
  for (const hint of hints) for (const number of hint.branchNumbers) push(hint.field, `№${number}`);

  const hintCities = hints.flatMap((hint) => structuredCities(hint, search));
  const cities = hintCities.length > 0 ? hintCities : addressCities(address, readings, search);
  if (cities.length === 0) return { ...NONE, candidates: [], evidence: {} };
  const kind = hints.find((hint) => hint.kind)?.kind;
  const result = branchesIn(cities, readings, kind, search);
  const cityText = address?.city?.trim() || cities[0]!.city.name;
  if (!result) {
    return { ...NONE, candidates: [], evidence: { city: cityText } };
  }
  return finish(result, hintCities.length > 0 ? "structured" : "address", {
    city: cityText,
    ...(hintCities.length > 0
      ? { field: hints.find((hint) => structuredCities(hint, search).length > 0)?.field }
      : {}),
  });
}

interface CityChoice {
  city: CarrierCity;
  /** 0..1: how sure the order means this city, before a branch fits or not. */
  certainty: number;
  /** True when it is one of several settlements the order's words fit equally. */
  ambiguous: boolean;
}

interface Found {
  best: Scored[];
  evidence: { number?: string; street?: string; kind?: BranchKind; field?: string };
}

function finish(found: Found, source: BranchMatch["source"], evidence: BranchMatch["evidence"]): BranchMatch {
  const top = found.best[0]!;
  const clean = Object.fromEntries(
    Object.entries({ ...evidence, ...found.evidence }).filter(([, value]) => value !== undefined),
  );
  return {
    ref: top.branch.ref,
    confidence: round(top.score),
    candidates: labelled(found.best.slice(0, 3)),
    source,
    evidence: clean,
  };
}

/**
 * The candidates with their labels; when they lie in different settlements of one name, each label names
 * its region too, or the merchant would see the same "(Березівка)" three times.
 */
function labelled(best: readonly Scored[]): BranchCandidate[] {
  const names = new Map<string, Set<string>>();
  for (const { city } of best) {
    if (city) names.set(city.name, (names.get(city.name) ?? new Set()).add(city.ref));
  }
  return best.map((scored) => {
    const city = scored.city;
    if (!city?.area || (names.get(city.name)?.size ?? 0) < 2) return candidate(scored);
    return candidate({ ...scored, city: { ...city, name: `${city.name}, ${city.area} обл.` } });
  });
}

function candidate(scored: Scored): BranchCandidate {
  return {
    ref: scored.branch.ref,
    label: branchLabel(scored.branch, scored.city),
    score: round(scored.score),
  };
}

function round(value: number): number {
  return Math.round(Math.max(0, Math.min(1, value)) * 1000) / 1000;
}

/** The cities a structured hint names: by Ref (certain), else by name and region. */
function structuredCities(hint: StructuredHints, search: ReferenceSearch): CityChoice[] {
  const byRef = hint.cityRefs
    .map((ref) => search.city(ref))
    .filter((city): city is CarrierCity => city !== undefined);
  if (byRef.length > 0) return byRef.slice(0, 1).map((city) => ({ city, certainty: 1, ambiguous: false }));
  for (const name of hint.cityNames) {
    const choices = resolveCity(name, hint.areas, search);
    if (choices.length > 0) return choices;
  }
  return [];
}

/**
 * The branches of the candidate cities that the readings name, best first; undefined when no reading
 * names one. A number decides before a street: a home address in address1 and "НП 12" in address2 is
 * branch 12, not the branch that happens to stand at the buyer's house.
 */
function branchesIn(
  cities: readonly CityChoice[],
  readings: readonly Reading[],
  hintKind: BranchKind | undefined,
  search: ReferenceSearch,
): Found | undefined {
  const cityWords = new Set(
    cities.flatMap(({ city }) => [...tokens(city.name), ...tokens(city.nameRu ?? "")]),
  );
  const parsed = readings.map((reading) => parseReading(reading, cityWords));
  const kind = hintKind ?? parsed.find((reading) => reading.kind)?.kind;
  const scored: Scored[] = [];
  let evidence: Found["evidence"] = {};

  // Numbers, strongest reading first.
  const numbers = parsed
    .flatMap((reading) => reading.numbers.map((number) => ({ ...number, field: reading.field })))
    .sort((a, b) => b.fit - a.fit);
  if (numbers.length > 0) {
    for (const choice of cities) {
      const branches = search.branchesOf(choice.city.ref);
      const hits = new Map<string, { branch: CarrierBranch; fit: number }>();
      for (const number of numbers) {
        const branch = findNumber(branches, number.value);
        if (!branch || hits.has(branch.ref)) continue;
        const kindFactor = kind && kind !== branch.kind ? KIND_MISMATCH_FACTOR : 1;
        hits.set(branch.ref, { branch, fit: number.fit * kindFactor });
        if (Object.keys(evidence).length === 0) {
          evidence = { number: number.value, field: number.field, ...(kind ? { kind } : {}) };
        }
      }
      const found = [...hits.values()];
      const conflict = found.filter((hit) => hit.fit >= BARE_NUMBER_FIT).length > 1 ? CONFLICT_FACTOR : 1;
      for (const hit of found) {
        scored.push({ branch: hit.branch, city: choice.city, score: hit.fit * conflict });
      }
    }
  }

  // Streets, when no number named a branch.
  if (scored.length === 0) {
    for (const reading of parsed) {
      for (const street of reading.streets) {
        for (const choice of cities) {
          const fits = streetFits(streetCandidates(choice.city.ref, street, search), street, kind);
          for (const fit of fits) scored.push({ branch: fit.branch, city: choice.city, score: fit.fit });
          if (fits.length > 0 && evidence.street === undefined) {
            evidence = {
              street: [street.text].join(" "),
              field: reading.field,
              ...(kind ? { kind } : {}),
            };
          }
        }
      }
    }
  }

  // A city with a single branch, when nothing named one.
  if (scored.length === 0) {
    for (const choice of cities) {
      const branches = search.branchesOf(choice.city.ref).filter((branch) => branch.working);
      if (branches.length === 1)
        scored.push({ branch: branches[0]!, city: choice.city, score: ONLY_BRANCH_FIT });
    }
  }
  if (scored.length === 0) return undefined;

  // How sure the city is, and what the other namesakes' fits do to that.
  const certaintyOf = new Map(cities.map((choice) => [choice.city.ref, choice]));
  const fittingCities = new Set(scored.map((entry) => entry.branch.cityRef));
  const anyAmbiguous = [...fittingCities].some((ref) => certaintyOf.get(ref)?.ambiguous);
  for (const entry of scored) {
    const choice = certaintyOf.get(entry.branch.cityRef);
    let score = entry.score * (choice?.certainty ?? 0.5);
    if (anyAmbiguous) {
      score =
        Math.min(score, AMBIGUOUS_CITY_CAP) / (fittingCities.size > 1 ? Math.sqrt(fittingCities.size) : 1);
    }
    entry.score = score;
  }
  const best = dedupe(scored).sort(
    (a, b) => b.score - a.score || Number(a.branch.number) - Number(b.branch.number),
  );
  return { best: best.slice(0, 3), evidence };
}

function dedupe(scored: Scored[]): Scored[] {
  const byRef = new Map<string, Scored>();
  for (const entry of scored) {
    const seen = byRef.get(entry.branch.ref);
    if (!seen || seen.score < entry.score) byRef.set(entry.branch.ref, entry);
  }
  return [...byRef.values()];
}

/** Branches are in number order; numbers are digits. */
function findNumber(branches: readonly CarrierBranch[], number: string): CarrierBranch | undefined {
  for (const branch of branches) if (branch.number === number) return branch;
  return undefined;
}

interface StreetQuery {
  /** Folded street words (noise and short words dropped). */
  words: string[];
  house: string | undefined;
  text: string;
}

interface ParsedReading {
  field: string;
  numbers: { value: string; fit: number }[];
  streets: StreetQuery[];
  kind: BranchKind | undefined;
}

const CARRIER_WORDS = new Set(
  ["nova", "novaia", "novoi", "poshta", "pochta", "poshti", "pochti", "np"].flatMap(tokens),
);

/**
 * A field's branch numbers and street addresses. A number counts as a branch's when a marker precedes it
 * ("НП", "№", "відділення", "поштомат", "#"), when its field speaks of the carrier or a branch kind and
 * names no street ("Nova Poshta 12", "12 відділення"), or, less surely, when the field is only a number.
 * Words that name the city or a region are not a street.
 */
function parseReading(reading: Reading, cityWords: ReadonlySet<string>): ParsedReading {
  const numbers: ParsedReading["numbers"] = [];
  const streets: StreetQuery[] = [];
  let kind: BranchKind | undefined;
  for (const part of reading.text.split(/[,;\n]|\s-\s/)) {
    const terms = queryTerms(part);
    kind ??= terms.kind ?? kindFromText(part);
    const carrier = tokens(part).some((word) => CARRIER_WORDS.has(word)) || terms.kind !== undefined;
    const words = terms.words.filter(
      (word) => !cityWords.has(word) && word.length >= 3 && !isRegionWord(word),
    );
    const marked = terms.numbers.filter((number) => number.marked);
    for (const number of marked) pushNumber(numbers, number.value, MARKED_NUMBER_FIT);
    const unmarked = terms.numbers.filter((number) => !number.marked);
    if (unmarked.length > 0 && words.length === 0 && (carrier || marked.length > 0)) {
      pushNumber(numbers, unmarked[0]!.value, MARKED_NUMBER_FIT);
    } else if (/^\s*\d{1,5}\s*$/.test(reading.text)) {
      pushNumber(numbers, reading.text.trim(), BARE_NUMBER_FIT);
    }
    if (words.length > 0 && unmarked.length > 0) {
      streets.push({ words, house: houseIn(part, unmarked[0]!.value), text: part.trim() });
    } else if (words.length > 0 && marked.length === 0) {
      streets.push({ words, house: undefined, text: part.trim() });
    }
  }
  // "вул. Одеська, 48": the street and the house in neighbouring parts.
  const joined = queryTerms(reading.text);
  const joinedWords = joined.words.filter(
    (word) => !cityWords.has(word) && word.length >= 3 && !isRegionWord(word),
  );
  const firstHouse = joined.numbers.find((number) => !number.marked)?.value;
  if (joinedWords.length > 0 && firstHouse && !streets.some((street) => street.house)) {
    // It replaces the parts' street without a house: one query, not two.
    const joinedStreet = {
      words: joinedWords,
      house: houseIn(reading.text, firstHouse),
      text: reading.text.trim(),
    };
    const covered = (street: StreetQuery) => street.words.every((word) => joinedWords.includes(word));
    return {
      field: reading.field,
      numbers,
      streets: [joinedStreet, ...streets.filter((street) => !covered(street))],
      kind,
    };
  }
  return { field: reading.field, numbers, streets, kind };
}

const HOUSE = /(\d+)(?:\s*-?\s*(\p{L})(?!\p{L}))?(?:\s*\/\s*(\d+))?/gu;

/** A house number as written ("53/2", "60 В", "12а") folded to compare: "53/2", "60v", "12a". */
export function foldHouse(text: string): string | undefined {
  HOUSE.lastIndex = 0;
  const match = HOUSE.exec(text);
  if (!match) return undefined;
  return `${match[1]}${match[2] ? tokens(match[2]).join("") : ""}${match[3] ? `/${match[3]}` : ""}`;
}

/** The house in a text that starts with the given number (the first unmarked number of the text). */
function houseIn(text: string, number: string): string {
  const digits = leadingNumber(number) ?? number;
  for (const match of text.matchAll(HOUSE)) {
    if (match[1] === digits) return foldHouse(match[0]) ?? digits;
  }
  return digits;
}

function pushNumber(numbers: ParsedReading["numbers"], value: string, fit: number): void {
  const number = leadingNumber(value);
  if (number === undefined || number.length > 5) return;
  const clean = String(Number(number));
  if (!numbers.some((known) => known.value === clean)) numbers.push({ value: clean, fit });
}

interface BranchAddress {
  /** Street words in Ukrainian and in Russian, folded, without street-kind words. */
  streets: string[][];
  house: string;
}

// Parsed once per branch object: the search keeps its branches for its lifetime.
const addressCache = new WeakMap<CarrierBranch, BranchAddress>();

/** "Відділення №1 (до 1000 кг): вул. Одеська, 48 (біля входу)" → street words and house. */
function branchAddress(branch: CarrierBranch): BranchAddress {
  const cached = addressCache.get(branch);
  if (cached) return cached;
  const streets: string[][] = [];
  let house = "";
  for (const description of [branch.description, branch.descriptionRu ?? ""]) {
    const colon = description.indexOf(":");
    if (colon < 0) continue;
    const address = description.slice(colon + 1).replace(/\([^)]*\)/g, " ");
    const comma = address.lastIndexOf(",");
    const streetPart = comma >= 0 ? address.slice(0, comma) : address;
    const housePart = comma >= 0 ? address.slice(comma + 1) : "";
    streets.push(tokens(streetPart).filter((word) => !NOISE_WORDS.has(word) && word.length >= 2));
    house ||= foldHouse(housePart) ?? "";
  }
  const parsed = { streets, house };
  addressCache.set(branch, parsed);
  return parsed;
}

function wordsMatch(query: string, word: string): boolean {
  if (query === word) return true;
  const allowance = typoAllowance(Math.min(query.length, word.length));
  return allowance > 0 && editDistance(query, word, allowance) <= allowance;
}

/** How much of a street query a branch's street covers: 0 when a query word is not in it. */
function streetCoverage(query: readonly string[], street: readonly string[]): number {
  if (street.length === 0) return 0;
  const matched = query.filter((word) => street.some((streetWord) => wordsMatch(word, streetWord))).length;
  if (matched < query.length) return 0;
  const covered = street.filter((streetWord) => query.some((word) => wordsMatch(word, streetWord))).length;
  return 0.8 + 0.2 * (covered / street.length);
}

/** Below this many branches a city's every branch is compared; above, the search's hits for the street. */
const SCAN_LIMIT = 150;
const STREET_HITS = 12;

/**
 * The branches a street query may mean: the search's hits for the street and house (it indexes every
 * address word), or every branch of a small city. The matcher then judges each itself (streetFits).
 */
function streetCandidates(
  cityRef: string,
  street: StreetQuery,
  search: ReferenceSearch,
): readonly CarrierBranch[] {
  const all = search.branchesOf(cityRef);
  if (all.length <= SCAN_LIMIT) return all;
  const text = [...street.words, street.house ?? ""].join(" ");
  return search.searchBranches({ cityRef, text, limit: STREET_HITS }).map((hit) => hit.branch);
}

function streetFits(
  branches: readonly CarrierBranch[],
  street: StreetQuery,
  kind: BranchKind | undefined,
): { branch: CarrierBranch; fit: number }[] {
  const exact: { branch: CarrierBranch; fit: number }[] = [];
  const loose: { branch: CarrierBranch; fit: number }[] = [];
  const house = street.house;
  for (const branch of branches) {
    if (kind && kind !== branch.kind && kind !== "branch") continue;
    const address = branchAddress(branch);
    const coverage = Math.max(0, ...address.streets.map((words) => streetCoverage(street.words, words)));
    if (coverage === 0) continue;
    if (house !== undefined && address.house === house)
      exact.push({ branch, fit: STREET_HOUSE_FIT * coverage });
    else loose.push({ branch, fit: STREET_ONLY_FIT * coverage });
  }
  if (exact.length > 0) {
    // Two branches at one address (a branch and a parcel locker): the kind asked for, else either.
    const ofKind = exact.filter((entry) => entry.branch.kind === (kind ?? "branch"));
    const chosen = ofKind.length === 1 ? ofKind : exact;
    return chosen.map((entry) => ({ branch: entry.branch, fit: entry.fit / Math.sqrt(chosen.length) }));
  }
  return loose
    .sort((a, b) => b.fit - a.fit)
    .slice(0, 3)
    .map((entry) => ({ branch: entry.branch, fit: entry.fit / Math.max(1, Math.sqrt(loose.length)) }));
}

// ---------------------------------------------------------------------------------------------------
// Cities.

type Address = NonNullable<ShopifyOrder["shipping_address"]>;

const REGION_MARKERS = new Set(
  ["обл", "область", "oblast", "region", "регион", "регіон", "oblasti"].flatMap(tokens),
);
const DISTRICT_MARKERS = new Set(["район", "р-н", "raion", "rayon", "district"].flatMap(tokens));

function isRegionWord(word: string): boolean {
  return REGION_MARKERS.has(word) || DISTRICT_MARKERS.has(word);
}

/** The order's city candidates: its city field (its region parts set aside), else a part of address1. */
function addressCities(
  address: Address | undefined,
  readings: readonly Reading[],
  search: ReferenceSearch,
): CityChoice[] {
  const regions: string[] = [];
  if (address?.province) regions.push(address.province);
  const names: string[] = [];
  for (const [index, text] of [address?.city, address?.address1, address?.address2].entries()) {
    if (typeof text !== "string") continue;
    for (const part of text.slice(0, MAX_TEXT).split(/[,;\n]/)) {
      const words = tokens(part);
      if (words.some((word) => REGION_MARKERS.has(word))) regions.push(part);
      else if (index === 0 && !words.some((word) => DISTRICT_MARKERS.has(word)) && part.trim())
        names.push(part);
    }
  }
  for (const name of names) {
    const choices = resolveCity(name, regions, search);
    if (choices.length > 0) return choices;
  }
  // No city field: a part of the address lines that is a city's exact name ("м. Полтава, НП 7").
  for (const reading of readings) {
    for (const part of reading.text.split(/[,;\n]/)) {
      const choices = resolveCity(part, regions, search, true);
      if (choices.length > 0) return choices;
    }
  }
  return [];
}

/**
 * The settlements a name (and the regions written with it) may mean, with how sure each is. An exact name
 * that several settlements share is ambiguous unless a region picks one; a typo or a prefix is less sure
 * than an exact name, and less still when another name is as close.
 */
function resolveCity(
  name: string,
  regions: readonly string[],
  search: ReferenceSearch,
  exactOnly = false,
): CityChoice[] {
  const words = tokens(name).filter((word) => !NOISE_WORDS.has(word) && !/^\d/.test(word));
  if (words.length === 0) return [];
  const query = words.join(" ");
  const hits = search.searchCities(name, CITY_CHOICES);
  if (hits.length === 0) return [];
  const top = hits[0]!;
  if (exactOnly && top.score < 0.99) return [];
  // Namesakes: every hit whose name reads as the top's (folded), wherever it is.
  const sameName = (city: CarrierCity) => sameFolded(city, top.city);
  const namesakes = hits.filter((hit) => sameName(hit.city) && hit.score >= top.score - 0.02);
  const regionStems = regions.flatMap(regionStem).filter((stem) => stem.length > 0);
  let pool = namesakes;
  let regionFits: boolean | undefined;
  if (regionStems.length > 0) {
    const inRegion = namesakes.filter((hit) => regionStems.some((stem) => areaFits(stem, hit.city.area)));
    regionFits = inRegion.length > 0;
    if (inRegion.length > 0) pool = inRegion;
  }
  // How sure the name is: the search's score, less when a different name scores as high.
  const rival = hits.find((hit) => !sameName(hit.city));
  let certainty = top.score >= 0.97 ? 1 : top.score;
  if (rival && rival.score >= top.score - 0.05 && !folded(top.city).includes(query)) certainty *= 0.8;
  if (regionFits === false) certainty *= 0.85;
  const ambiguous = pool.length > 1;
  return pool.map((hit) => ({ city: hit.city, certainty, ambiguous }));
}

// Folded once per city object: the search keeps its cities for its lifetime.
const foldedNames = new WeakMap<CarrierCity, string[]>();

/** The city's Ukrainian and Russian names, folded. */
function folded(city: CarrierCity): string[] {
  let names = foldedNames.get(city);
  if (!names) {
    names = [tokens(city.name).join(" "), tokens(city.nameRu ?? "").join(" ")];
    foldedNames.set(city, names);
  }
  return names;
}

function sameFolded(a: CarrierCity, b: CarrierCity): boolean {
  return folded(a)[0] === folded(b)[0];
}

/** A region's written name reduced to a stem that its Ukrainian, Russian and Latin writings share. */
function regionStem(text: string): string[] {
  const words = tokens(text).filter(
    (word) => !NOISE_WORDS.has(word) && !isRegionWord(word) && !/^\d/.test(word),
  );
  if (words.length === 0) return [];
  return [stemOfArea(words.join(""))];
}

function stemOfArea(word: string): string {
  return word.replace(/(skaia|ska|skoi|ski|sk|kaia|ka|aia|ia|a)$/, "");
}

function areaFits(stem: string, area: string | undefined): boolean {
  if (!area) return false;
  const areaStem = stemOfArea(tokens(area).join(""));
  if (areaStem === stem) return true;
  // Ukrainian and Russian stems differ by a letter or two ("zaporiz"/"zaporozh", "rivnen"/"roven"); no two
  // regions' stems of six letters or more are within two of each other.
  const longer = Math.max(stem.length, areaStem.length);
  const allowance = longer >= 6 ? 2 : longer >= 3 ? 1 : 0;
  return allowance > 0 && editDistance(stem, areaStem, allowance) <= allowance;
}

// ---------------------------------------------------------------------------------------------------
// Courier orders: the city and the street as written.

function matchCityOrThrow(order: ShopifyOrder, search: ReferenceSearch): CityMatch {
  const hints = readStructuredHints(order, search);
  for (const hint of hints) {
    const cities = structuredCities(hint, search);
    if (cities.length === 0) continue;
    return cityResult(cities, "structured", {
      street: hint.streets[0],
      house: hint.houses[0],
      flat: hint.flats[0],
    });
  }
  const address = order.shipping_address ?? undefined;
  const cities = addressCities(address, [], search);
  if (cities.length === 0) return { cityRef: null, confidence: 0, candidates: [], source: "none" };
  return cityResult(cities, "address", streetOf(address?.address1 ?? "", address?.address2 ?? ""));
}

function cityResult(
  cities: readonly CityChoice[],
  source: CityMatch["source"],
  street: { street?: string | undefined; house?: string | undefined; flat?: string | undefined },
): CityMatch {
  const scored = cities.map((choice) => ({
    city: choice.city,
    score: round(
      choice.ambiguous
        ? Math.min(choice.certainty, AMBIGUOUS_CITY_CAP) / Math.sqrt(cities.length)
        : choice.certainty,
    ),
  }));
  const top = scored[0]!;
  const result: CityMatch = {
    cityRef: top.city.ref,
    confidence: top.score,
    candidates: scored
      .slice(0, 3)
      .map(({ city, score }) => ({ ref: city.ref, label: cityLabel(city), score })),
    source,
  };
  if (street.street) result.street = street.street;
  if (street.house) result.house = street.house;
  if (street.flat) result.flat = street.flat;
  return result;
}

/** "Миколаївка (Івано-Франківська обл.)". */
export function cityLabel(city: CarrierCity): string {
  return city.area ? `${city.name} (${city.area} обл.)` : city.name;
}

const STREET_PATTERN =
  /^\s*(?:(?:вул|вулиця|ул|улица|просп|проспект|пр|пров|провулок|пер|переулок|бульв|бульвар|бул|пл|площа|площадь|наб|шосе|шоссе|street|str|st|vul|ulitsa|vulytsia|prosp|ave)\.?\s+)?([^\d,]+?)[\s,]+(?:буд\.?|будинок|дом|д\.?|house|bud\.?)?\s*(\d+[\p{L}]?(?:\/\d+)?)(?:[\s,]+(?:кв\.?|квартира|flat|apt\.?|kv\.?)\s*(\d+))?/iu;

/** "вул. Хрещатик, 22, кв. 5" → street "Хрещатик", house "22", flat "5". */
export function streetOf(
  address1: string,
  address2 = "",
): { street?: string; house?: string; flat?: string } {
  const text = `${address1.slice(0, MAX_TEXT)} ${address2.slice(0, MAX_TEXT)}`.trim();
  const match = STREET_PATTERN.exec(text);
  if (!match) return {};
  const result: { street?: string; house?: string; flat?: string } = { street: match[1]!.trim() };
  if (match[2]) result.house = match[2];
  const flat = match[3] ?? /(?:кв\.?|квартира|flat|apt\.?|kv\.?)\s*(\d+)/iu.exec(text)?.[1];
  if (flat) result.flat = flat;
  return result;
}

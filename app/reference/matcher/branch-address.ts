// Where a branch stands, read from its own description once per branch: the street and house
// ("…: вул. Одеська, 48"), and the shop a locker or point stands in ('(маг. "Сільпо")'); and how well an
// order's street or shop name fits them, a typo or two allowed.
import { editDistance, NOISE_WORDS, tokens, typoAllowance } from "../fold";
import type { BranchKind, CarrierBranch, ReferenceSearch } from "../types";
import { STREET_HOUSE_FIT, STREET_ONLY_FIT } from "./confidence";
import { foldHouse, type StreetQuery } from "./reading";

/** Words of a locker's or point's place note that say where, not which shop. */
const PLACE_WORDS = new Set(
  [
    "маг",
    "магазин",
    "азс",
    "на",
    "території",
    "территории",
    "біля",
    "возле",
    "входу",
    "входа",
    "під'їзд",
    "подъезд",
    "тільки",
    "только",
    "для",
    "мешканців",
    "жителей",
  ].flatMap(tokens),
);

// Read once per branch object, as its address.
const hostCache = new WeakMap<CarrierBranch, string[]>();

/** The shop a locker or point stands in, folded: 'Поштомат …: вул. Х, 5 (маг. "Сільпо")' → "silpo". */
function hostWords(branch: CarrierBranch): string[] {
  let words = hostCache.get(branch);
  if (!words) {
    words = [];
    for (const description of [branch.description, branch.descriptionRu ?? ""]) {
      const colon = description.indexOf(":");
      for (const note of description.slice(colon + 1).matchAll(/\(([^)]*)\)/g)) {
        for (const word of tokens(note[1]!)) {
          if (!PLACE_WORDS.has(word) && !/^\d/.test(word) && !words.includes(word)) words.push(word);
        }
      }
    }
    hostCache.set(branch, words);
  }
  return words;
}

/**
 * The branches (of the kind asked for) inside a shop the words name; when several, those a street word
 * also fits ("поштомат АТБ, вул. Соборності"). Three-letter names ("АТБ", "EVA") must be exact.
 */
export function hostedIn(
  branches: readonly CarrierBranch[],
  words: readonly string[],
  kind: BranchKind | undefined,
): { branches: CarrierBranch[]; word?: string } {
  if (words.length === 0) return { branches: [] };
  let hosted: CarrierBranch[] = [];
  let shop: string | undefined;
  for (const branch of branches) {
    if (!branch.working || (kind && kind !== branch.kind && kind !== "branch")) continue;
    const host = hostWords(branch);
    const named = words.find((word) => host.some((hostWord) => wordsMatch(word, hostWord)));
    if (named === undefined) continue;
    hosted.push(branch);
    shop ??= named;
  }
  if (hosted.length > 1) {
    const rest = words.filter((word) => word !== shop);
    const onStreet = hosted.filter((branch) =>
      branchAddress(branch).streets.some((street) =>
        rest.some((word) => street.some((streetWord) => wordsMatch(word, streetWord))),
      ),
    );
    if (onStreet.length > 0) hosted = onStreet;
  }
  return shop === undefined ? { branches: [] } : { branches: hosted, word: shop };
}

interface BranchAddress {
  /** Street words in Ukrainian and in Russian, folded, without street-kind words. */
  streets: string[][];
  house: string;
}

// Parsed once per branch object: the search keeps its branches for its lifetime.
const addressCache = new WeakMap<CarrierBranch, BranchAddress>();

/** "Відділення №1 (до 1000 кг): вул. Одеська, 48 (біля входу)" → street words and house. */
export function branchAddress(branch: CarrierBranch): BranchAddress {
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
export function streetCandidates(
  cityRef: string,
  street: StreetQuery,
  search: ReferenceSearch,
): readonly CarrierBranch[] {
  const all = search.branchesOf(cityRef);
  if (all.length <= SCAN_LIMIT) return all;
  const text = [...street.words, street.house ?? ""].join(" ");
  return search.searchBranches({ cityRef, text, limit: STREET_HITS }).map((hit) => hit.branch);
}

export function streetFits(
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

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
// The confidence is the product of how sure the city is and how well the branch fits it. A branch is
// used only when the address cannot mean another, so some things cap it below any threshold a shop may set
// (0.5 at the lowest), whatever else fits: two branch numbers ("5 або 12", or one per field), a number the
// settlement does not have, another carrier named, several branches fitting a shop or freight branch
// asked for (NO_CHOICE_CAP); an oblast, district or postcode that contradicts the city
// (CONTRADICTION_CAP). A city name several settlements share, with nothing to choose between them, caps it
// below the default threshold whatever the number: the number may exist in more than one of them, and
// the buyer may live in any, even one without a branch (naming the branch of a town nearby).
// What buyers type is made readable first (app/reference/writing.ts): look-alike Latin letters, glued and
// misspelt carrier words, weight notes, alternatives.
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
import { cyrillicLookAlikes, readWriting } from "./writing";
import {
  branchLabel,
  type BranchCandidate,
  type BranchKind,
  type BranchMatch,
  type CarrierBranch,
  type CarrierCity,
  type CityHit,
  type CityMatch,
  type ReferenceSearch,
} from "./types";
import type { ShopifyOrder } from "../orders/payload";
import { DEFAULT_BRANCH_MATCH_THRESHOLD } from "../orders/settings";

/** The shop's threshold by default; why 0.8: see app/orders/settings.ts. */
export { DEFAULT_BRANCH_MATCH_THRESHOLD };

/** A city name several settlements share and nothing chooses between: never confident. */
const AMBIGUOUS_CITY_CAP = 0.7;
/** The address names two branches, or one its settlement lacks, or another carrier: no choice at all. */
const NO_CHOICE_CAP = 0.4;
/** An oblast, district or postcode that contradicts the city: the buyer may live elsewhere. */
const CONTRADICTION_CAP = 0.45;
/** The one freight branch of the city, asked for without a number ("вантажне до 1100 кг"). */
const FREIGHT_FIT = 0.9;
/** The one branch (of the kind asked for) inside the shop the text names ("поштомат в Сільпо"). */
const HOST_FIT = 0.9;
/** A shop's name alone, with no word of the carrier's or of a kind of branch. */
const SHOP_ALONE_FACTOR = 0.75;
/** A structured branch Ref the reference data has. */
const STRUCTURED_REF_CONFIDENCE = 1;
/** A number read after a marker ("НП 12") or in a field about the carrier, found in the city. */
const MARKED_NUMBER_FIT = 1;
/** A field that is nothing but a number ("12" in address2): probably the branch, less surely. */
const BARE_NUMBER_FIT = 0.88;
/** The number exists, but as another kind than the text asked for ("поштомат 12" is a branch). */
const KIND_MISMATCH_FACTOR = 0.85;
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
  /** The field names another carrier ("Укрпошта 12"): its numbers are not Nova Poshta's. */
  otherCarrier?: boolean;
  /** The field asks for a freight branch. */
  freight?: boolean;
}

/** A field as the matcher reads it: what buyers type made readable (app/reference/writing.ts). */
function readingOf(field: string, text: string): Reading {
  const writing = readWriting(text.slice(0, MAX_TEXT));
  return { field, text: writing.text, otherCarrier: writing.otherCarrier, freight: writing.freight };
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
      ...hint.branchTexts.map((text) => readingOf(hint.field, text)),
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
    if (typeof text === "string" && text.trim().length > 0) readings.push(readingOf(field, text));
  };
  push("address1", address?.address1);
  push("address2", address?.address2);
  push("company", address?.company);
  if (!structuredFields.has("note")) push("note", order.note);
  for (const hint of hints) for (const text of hint.branchTexts) push(hint.field, text);
  for (const hint of hints) for (const number of hint.branchNumbers) push(hint.field, `№${number}`);

  const hintCities = hints.flatMap((hint) => structuredCities(hint, search));
  const cities =
    hintCities.length > 0 ? hintCities : addressCities(address, readings, search, order.note ?? "");
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
  /** An oblast, district or postcode the order gives contradicts it. */
  contradicted?: boolean;
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
    const choices = resolveCity(name, { regions: hint.areas, districtAreas: [] }, search);
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
  // Another carrier's numbers are not Nova Poshta's: such a field names no branch.
  const ours = readings.filter((reading) => !reading.otherCarrier);
  const parsed = ours.map((reading) => parseReading(reading, cityWords));
  const kind = hintKind ?? parsed.find((reading) => reading.kind)?.kind;
  const freight = readings.some((reading) => reading.freight);
  const scored: Scored[] = [];
  let evidence: Found["evidence"] = {};
  /** Below any threshold: the address cannot tell one branch. */
  let noChoice = readings.some((reading) => reading.otherCarrier);

  // Numbers, strongest reading first.
  const numbers = parsed
    .flatMap((reading) => reading.numbers.map((number) => ({ ...number, field: reading.field })))
    .sort((a, b) => b.fit - a.fit);
  if (numbers.length > 0) {
    const found = new Set<string>();
    for (const choice of cities) {
      const branches = search.branchesOf(choice.city.ref);
      const hits = new Map<string, { branch: CarrierBranch; fit: number }>();
      for (const number of numbers) {
        const branch = findNumber(branches, number.value);
        if (!branch) continue;
        found.add(number.value);
        if (hits.has(branch.ref)) continue;
        const kindFactor = kind && kind !== branch.kind ? KIND_MISMATCH_FACTOR : 1;
        hits.set(branch.ref, { branch, fit: number.fit * kindFactor });
        if (Object.keys(evidence).length === 0) {
          evidence = { number: number.value, field: number.field, ...(kind ? { kind } : {}) };
        }
      }
      for (const hit of hits.values()) {
        scored.push({ branch: hit.branch, city: choice.city, score: hit.fit });
      }
    }
    // Two numbers ("5 або 12", or one in each field) name two branches; a marked number no candidate
    // settlement has is a mistake somewhere, and the street beside it cannot say where.
    const values = new Set(numbers.map((number) => number.value));
    const missing = numbers.some((number) => number.fit >= MARKED_NUMBER_FIT && !found.has(number.value));
    if (values.size > 1 || missing) noChoice = true;
  }

  // A freight branch asked for by its kind alone ("вантажне до 1100 кг"): the city's one, if it has one.
  if (scored.length === 0 && freight) {
    for (const choice of cities) {
      const heavy = search
        .branchesOf(choice.city.ref)
        .filter((branch) => branch.working && (branch.maxWeightKg ?? 0) >= FREIGHT_KG);
      if (heavy.length > 1) noChoice = true;
      for (const branch of heavy) {
        scored.push({ branch, city: choice.city, score: FREIGHT_FIT / Math.sqrt(heavy.length) });
      }
    }
  }

  // A parcel locker or point known by the shop that hosts it ("поштомат в Сільпо"), a street narrowing it.
  if (scored.length === 0) {
    const words = [
      ...new Set(parsed.flatMap((reading) => reading.streets.flatMap((street) => street.words))),
    ];
    for (const choice of cities) {
      const hosted = hostedIn(search.branchesOf(choice.city.ref), words, kind);
      if (hosted.branches.length === 0) continue;
      if (hosted.branches.length > 1) noChoice = true;
      for (const branch of hosted.branches) {
        // "Відділення біля АТБ" and only a locker inside it, or a shop's name with no word of the
        // carrier's (a landmark, perhaps): offered, not chosen.
        const kindFactor = kind && kind !== branch.kind ? KIND_MISMATCH_FACTOR : 1;
        const said = parsed.some((reading) => reading.carrier) ? 1 : SHOP_ALONE_FACTOR;
        const score = (HOST_FIT * kindFactor * said) / Math.sqrt(hosted.branches.length);
        scored.push({ branch, city: choice.city, score });
      }
      evidence.street ??= hosted.word;
    }
  }

  // Streets, when no number named a branch.
  if (scored.length === 0) {
    for (const reading of parsed) {
      for (const street of reading.streets) {
        for (const choice of cities) {
          const fits = streetFits(streetCandidates(choice.city.ref, street, search), street, kind);
          for (const fit of fits) {
            // A flat or an office beside the street: the buyer's home, where a branch may merely stand.
            const score = reading.home ? Math.min(fit.fit, STREET_ONLY_FIT) : fit.fit;
            scored.push({ branch: fit.branch, city: choice.city, score });
          }
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
    if (choice?.contradicted) score = Math.min(score, CONTRADICTION_CAP);
    if (noChoice) score = Math.min(score, NO_CHOICE_CAP);
    entry.score = score;
  }
  const best = dedupe(scored).sort(
    (a, b) => b.score - a.score || Number(a.branch.number) - Number(b.branch.number),
  );
  return { best: best.slice(0, 3), evidence };
}

/** Freight branches take 1000 kg and more; ordinary ones 30. */
const FREIGHT_KG = 1000;

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
function hostedIn(
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
  /** The field names a flat, an office or a floor: it is the buyer's home (or work) address. */
  home: boolean;
  /** The field names the carrier or a kind of branch ("НП", "Nova Poshta", "поштомат"). */
  carrier: boolean;
}

const HOME_WORDS =
  /(?<![\p{L}])(?:кв|квартира|apt|apartment|flat|офіс|офис|office|поверх|этаж|floor)(?![\p{L}])/iu;

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
  const home = HOME_WORDS.test(reading.text);
  let carrierNamed = false;
  for (const part of reading.text.split(/[,;\n]|\s-\s/)) {
    const terms = queryTerms(part);
    kind ??= terms.kind ?? kindFromText(part);
    const carrier = tokens(part).some((word) => CARRIER_WORDS.has(word)) || terms.kind !== undefined;
    carrierNamed ||= carrier;
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
      home,
      carrier: carrierNamed,
    };
  }
  return { field: reading.field, numbers, streets, kind, home, carrier: carrierNamed };
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

/** What an order says of where its city lies, besides the city's name. */
interface Whereabouts {
  /** Oblasts as written ("Полтавська обл.", "Kharkiv Oblast", "Херсонська" in brackets). */
  regions: string[];
  /** The oblasts of the district centres the order names ("Броварський р-н" → Київська). */
  districtAreas: string[];
  /** Five digits. */
  zip?: string;
}

/** The order's city candidates: its city field (its region parts set aside), else a part of address1. */
function addressCities(
  address: Address | undefined,
  readings: readonly Reading[],
  search: ReferenceSearch,
  note = "",
): CityChoice[] {
  const where: Whereabouts = { regions: [], districtAreas: [] };
  if (address?.province) where.regions.push(cyrillicLookAlikes(address.province));
  const zip = address?.zip?.replace(/\s/g, "");
  if (zip && /^\d{5}$/.test(zip)) where.zip = zip;
  const names: string[] = [];
  const districts = new Set<string>();
  for (const [index, raw] of [address?.city, address?.address1, address?.address2, note].entries()) {
    if (typeof raw !== "string") continue;
    let text = cyrillicLookAlikes(raw.slice(0, MAX_TEXT));
    for (const word of queryTerms(text).districts) districts.add(word);
    // "Миколаївка (Івано-Франківська обл.)", "Березівка (Херсонська)": the brackets hold the oblast.
    if (index === 0) {
      text = text.replace(/\(([^)]*)\)/g, (_, inner: string) => {
        where.regions.push(inner);
        return ",";
      });
    }
    if (index === 3) continue;
    for (const part of text.split(/[,;\n]/)) {
      const words = tokens(part);
      if (words.some((word) => REGION_MARKERS.has(word))) where.regions.push(part);
      else if (index === 0 && !words.some((word) => DISTRICT_MARKERS.has(word)) && part.trim())
        names.push(part);
    }
  }
  for (const district of districts) where.districtAreas.push(...districtAreas(district, search));
  for (const name of names) {
    const choices = resolveCity(name, where, search);
    if (choices.length > 0) return choices;
  }
  // No city field: a part of the address lines that is a city's exact name ("м. Полтава, НП 7").
  for (const reading of readings) {
    for (const part of reading.text.split(/[,;\n]/)) {
      const choices = resolveCity(part, where, search, true);
      if (choices.length > 0) return choices;
    }
  }
  return [];
}

/** The oblasts, as the carrier names them: a region that names none of them says nothing. */
const OBLASTS = [
  "Вінницька",
  "Волинська",
  "Дніпропетровська",
  "Донецька",
  "Житомирська",
  "Закарпатська",
  "Запорізька",
  "Івано-Франківська",
  "Київська",
  "Кіровоградська",
  "Луганська",
  "Львівська",
  "Миколаївська",
  "Одеська",
  "Полтавська",
  "Рівненська",
  "Сумська",
  "Тернопільська",
  "Харківська",
  "Херсонська",
  "Хмельницька",
  "Черкаська",
  "Чернівецька",
  "Чернігівська",
];

/**
 * The oblast of the town a district is named after ("Броварський" → Бровари → Київська), when one town
 * of that name is a district's centre. "Київський" is left out: it is a district of Kharkiv, Odesa and
 * Poltava too.
 */
function districtAreas(word: string, search: ReferenceSearch): string[] {
  const stem = word.replace(/(?:skoho|skomu|skoi|skii|ski|ska|sk)$/, "");
  if (stem.length < 4 || stem === word || stem === "kiv" || stem === "kev") return [];
  const areas = new Set<string>();
  for (const hit of search.searchCities(stem, CITY_CHOICES)) {
    if (hit.city.kind !== "місто" || !hit.city.area) continue;
    const named = folded(hit.city).some(
      (name) =>
        !name.includes(" ") &&
        name.length >= stem.length &&
        ((name.startsWith(stem) && name.length - stem.length <= 2) || editDistance(name, stem, 1) <= 1),
    );
    if (named) areas.add(hit.city.area);
  }
  return areas.size === 1 ? [...areas] : [];
}

/** Below this, a city name may be two letters typed in the wrong order ("Оедса", "Рінве", "Льівв"). */
const SWAP_BELOW = 0.9;
/** A city name read with two neighbouring letters swapped back: one typo, as the search scores one. */
const SWAPPED_CITY_CERTAINTY = 0.85;
/** Names longer than this are not tried letter by letter. */
const SWAP_LONGEST = 24;

/**
 * The hits for the one city name that the written name becomes with two neighbouring letters swapped
 * back, when exactly one name comes out exact. The search's typo index cannot find these: a swap spoils
 * most of a short name's trigrams.
 */
function swappedName(name: string, search: ReferenceSearch): CityHit[] | undefined {
  const letters = [...name.trim()];
  if (letters.length < 4 || letters.length > SWAP_LONGEST) return undefined;
  let found: CityHit[] | undefined;
  for (let i = 0; i + 1 < letters.length; i++) {
    const [a, b] = [letters[i]!, letters[i + 1]!];
    if (a === b || !/\p{L}/u.test(a) || !/\p{L}/u.test(b)) continue;
    const variant = [...letters.slice(0, i), b, a, ...letters.slice(i + 2)].join("");
    const hits = search.searchCities(variant, CITY_CHOICES);
    if ((hits[0]?.score ?? 0) < 0.99) continue;
    if (found && !sameFolded(found[0]!.city, hits[0]!.city)) return undefined;
    found ??= hits;
  }
  return found;
}

/** Whether any of the city's branches has a postcode of the same first two digits (the oblast's). */
function zipFits(city: CarrierCity, zip: string, search: ReferenceSearch): boolean | undefined {
  const postcodes = search
    .branchesOf(city.ref)
    .map((branch) => branch.postcode)
    .filter((postcode): postcode is string => typeof postcode === "string" && postcode.length === 5);
  if (postcodes.length === 0) return undefined;
  return postcodes.some((postcode) => postcode.slice(0, 2) === zip.slice(0, 2));
}

/**
 * The settlements a name (and the oblast, district and postcode written with it) may mean, with how
 * sure each is. An exact name that several settlements share is ambiguous unless those pick one; a typo or a prefix is less sure than an exact name, and less
 * still when another name is as close. What the order says of the place and no namesake fits
 * contradicts the city.
 */
function resolveCity(
  name: string,
  where: Whereabouts,
  search: ReferenceSearch,
  exactOnly = false,
): CityChoice[] {
  const words = tokens(name).filter((word) => !NOISE_WORDS.has(word) && !/^\d/.test(word));
  if (words.length === 0) return [];
  const query = words.join(" ");
  let hits = search.searchCities(name, CITY_CHOICES);
  let swapped = false;
  if (!exactOnly && (hits[0]?.score ?? 0) < SWAP_BELOW) {
    const found = swappedName(name, search);
    if (found) [hits, swapped] = [found, true];
  }
  if (hits.length === 0) return [];
  const top = hits[0]!;
  if (exactOnly && top.score < 0.99) return [];
  // Namesakes: every hit whose name reads as the top's (folded), wherever it is.
  const sameName = (city: CarrierCity) => sameFolded(city, top.city);
  const namesakes = hits.filter((hit) => sameName(hit.city) && hit.score >= top.score - 0.02);
  // A namesake without a branch counts too: a buyer in a village without one names the village and the
  // branch of a town nearby.
  let pool = namesakes;
  let contradicted = false;
  const narrow = (fits: (city: CarrierCity) => boolean | undefined) => {
    const verdicts = pool.map((hit) => fits(hit.city));
    const inside = pool.filter((_, index) => verdicts[index] === true);
    if (inside.length > 0) pool = inside;
    else if (verdicts.every((verdict) => verdict === false)) contradicted = true;
  };
  const regionStems = where.regions
    .flatMap(regionStem)
    .filter((stem) => stem.length > 0 && OBLASTS.some((oblast) => areaFits(stem, oblast)));
  if (regionStems.length > 0) {
    narrow((city) => (city.area ? regionStems.some((stem) => areaFits(stem, city.area)) : undefined));
  }
  if (where.districtAreas.length > 0) {
    narrow((city) => (city.area ? where.districtAreas.includes(city.area) : undefined));
  }
  const zip = where.zip;
  if (zip) narrow((city) => zipFits(city, zip, search));
  // How sure the name is: the search's score, less when a different name scores as high.
  const rival = hits.find((hit) => !sameName(hit.city));
  let certainty = top.score >= 0.97 ? 1 : top.score;
  if (swapped) certainty = SWAPPED_CITY_CERTAINTY;
  else if (rival && rival.score >= top.score - 0.05 && !folded(top.city).includes(query)) certainty *= 0.8;
  const ambiguous = pool.length > 1;
  return pool.map((hit) => ({ city: hit.city, certainty, ambiguous, contradicted }));
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
  const cities = addressCities(address, [], search, order.note ?? "");
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
      Math.min(
        choice.ambiguous
          ? Math.min(choice.certainty, AMBIGUOUS_CITY_CAP) / Math.sqrt(cities.length)
          : choice.certainty,
        choice.contradicted ? CONTRADICTION_CAP : 1,
      ),
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

// A query taken apart (queryTerms): its name words, its numbers and whether a marker said each is a
// branch's, the oblast and district it names, and the kind of branch. The search reads every query and every
// branch description through it; the matcher reads the order's fields through it.
import type { BranchKind } from "../types";
import { KIND_BY_WORD, NOISE_WORDS, NUMBER_MARKER_WORDS } from "./noise";
import { rawWords, skeletonOfWord, tokens } from "./skeleton";

/** A number read from a query, and whether a marker ("№", "відділення", "НП") said it is a branch's. */
export interface QueryNumber {
  value: string;
  marked: boolean;
}

/** A query taken apart: its name words, its numbers, and the kind of branch it names. */
export interface QueryTerms {
  /** Folded words that are not noise, numbers, single letters, oblasts or districts, in order. */
  words: string[];
  numbers: QueryNumber[];
  kind: BranchKind | undefined;
  /** Words the text marks as an oblast ("Київська обл.", "Kyivska oblast", "області"). */
  regions: string[];
  /** Words the text marks as a district ("Броварський р-н", "район"); the reference data has none. */
  districts: string[];
}

const NUMBER = /^\d/;

const folded = (words: readonly string[]): ReadonlySet<string> => new Set(words.flatMap(tokens));

/** "Нова" before "пошта" is the carrier's name; alone it is part of a place's ("Нова Петрівка"). */
const CARRIER_FIRST_WORDS = folded(["нова", "нової", "новая", "новой", "nova", "novaya"]);
const CARRIER_SECOND_WORDS = folded(["пошта", "пошти", "почта", "почты", "poshta", "pochta"]);
/** The word next to one of these names an oblast; "р-н" reads as the two words "р", "н". */
const REGION_MARKERS = folded(["обл", "область", "області", "области", "oblast", "region"]);
const DISTRICT_MARKERS = folded(["район", "району", "района", "рн", "raion", "rayon", "district"]);
/** The number after one of these is a flat, floor, entrance or building part, never a branch or house. */
const FLAT_MARKERS = folded([
  "кв",
  "квартира",
  "flat",
  "apt",
  "apartment",
  "оф",
  "офіс",
  "офис",
  "office",
  "поверх",
  "этаж",
  "floor",
  "під'їзд",
  "подъезд",
  "entrance",
  "корп",
  "корпус",
]);
const IVANO = skeletonOfWord("івано");
/** Longer runs of digits are phone numbers or order numbers, not places. */
const LONGEST_NUMBER = 6;

/** The number at the start of a folded word ("12a" → "12"), or undefined. */
export function leadingNumber(word: string): string | undefined {
  return /^\d+/.exec(word)?.[0];
}

/**
 * Takes a query apart: noise words and single letters ("м.", "г.", the "а" of "22 а") dropped; numbers
 * kept with whether a marker came right before them, except a flat's ("кв. 5") and phone numbers; the
 * word next to "обл."/"область" as an oblast and the one before "р-н"/"район" as a district; the kind
 * from the first kind word.
 */
export function queryTerms(text: string): QueryTerms {
  const terms: QueryTerms = { words: [], numbers: [], kind: undefined, regions: [], districts: [] };
  const words = rawWords(text).map((raw) => (raw === "#" ? raw : skeletonOfWord(raw)));
  let marked = false;
  let flat = false;
  /** Where the last name word was read, so that a marker right after it can claim it. */
  let lastWordAt = -2;
  let regionNext = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "#") {
      marked = true;
      continue;
    }
    if (!word) continue;
    if (CARRIER_FIRST_WORDS.has(word) && CARRIER_SECOND_WORDS.has(words[i + 1] ?? "")) continue;
    if (NUMBER.test(word)) {
      if (!flat && leadingNumber(word)!.length <= LONGEST_NUMBER) terms.numbers.push({ value: word, marked });
      marked = false;
      flat = false;
      continue;
    }
    const district = DISTRICT_MARKERS.has(word) || (word === "r" && words[i + 1] === "n");
    if (district || REGION_MARKERS.has(word)) {
      if (lastWordAt === i - 1) {
        (district ? terms.districts : terms.regions).push(terms.words.pop()!);
        // Івано-Франківська, the one oblast of two words: its first goes with it.
        if (!district && terms.words.at(-1) === IVANO) terms.words.pop();
      } else if (!district) regionNext = true;
      if (word === "r") i++;
      continue;
    }
    if (FLAT_MARKERS.has(word)) {
      flat = true;
      continue;
    }
    terms.kind ??= KIND_BY_WORD.get(word);
    if (NUMBER_MARKER_WORDS.has(word)) {
      marked = true;
      continue;
    }
    // Noise between a marker and its number ("відділення нової пошти 12") keeps the marker.
    if (NOISE_WORDS.has(word) || word.length < 2) continue;
    marked = false;
    if (regionNext) {
      regionNext = false;
      terms.regions.push(word);
      continue;
    }
    terms.words.push(word);
    lastWordAt = i;
  }
  return terms;
}

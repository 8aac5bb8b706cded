// A field of the order as the matcher reads it: made readable first (app/reference/writing.ts), then taken
// apart into the branch numbers it gives (and how surely each is a branch's) and the street addresses it
// names. Words that name a region are never a street; the city side (cities.ts) sets them aside too.
import { kindFromText, leadingNumber, queryTerms, tokens } from "../fold";
import type { BranchKind } from "../types";
import { readWriting } from "../writing";
import { BARE_NUMBER_FIT, MARKED_NUMBER_FIT } from "./confidence";

/** Text longer than this per field is cut: notes can be long, addresses are not. */
export const MAX_TEXT = 2_000;

export interface Reading {
  /** The field a number or street was read from ("address1", "note", a note attribute's name). */
  field: string;
  text: string;
  /** The field names another carrier ("Укрпошта 12"): its numbers are not Nova Poshta's. */
  otherCarrier?: boolean;
  /** The field asks for a freight branch. */
  freight?: boolean;
}

/** A field as the matcher reads it: what buyers type made readable (app/reference/writing.ts). */
export function readingOf(field: string, text: string): Reading {
  const writing = readWriting(text.slice(0, MAX_TEXT));
  return { field, text: writing.text, otherCarrier: writing.otherCarrier, freight: writing.freight };
}

/** Words that mark an oblast or a district: the words beside them name a place, not a street. */
export const REGION_MARKERS = new Set(
  ["обл", "область", "oblast", "region", "регион", "регіон", "oblasti"].flatMap(tokens),
);
export const DISTRICT_MARKERS = new Set(["район", "р-н", "raion", "rayon", "district"].flatMap(tokens));

export function isRegionWord(word: string): boolean {
  return REGION_MARKERS.has(word) || DISTRICT_MARKERS.has(word);
}

export interface StreetQuery {
  /** Folded street words (noise and short words dropped). */
  words: string[];
  house: string | undefined;
  text: string;
}

export interface ParsedReading {
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
export function parseReading(reading: Reading, cityWords: ReadonlySet<string>): ParsedReading {
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

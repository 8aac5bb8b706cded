// Carrier data another checkout app left on the order: JSON in the note or in a note attribute's value
// (a settlement with its Ref, a branch Ref or number, street, house, flat), under whatever key names that
// app chose. Read safely (bounded size, depth and nodes; no prototype writes; never throws) and turned
// into hints the matcher trusts before the address's words. A Ref is classified by looking it up in the
// reference data, not by its key's name: apps call a branch Ref "ref", "id", "warehouse" or "city".
import type { BranchKind, CarrierBranch, CarrierCity } from "./types";

/** Where the hints came from and what they say; every list keeps the order the data gave. */
export interface StructuredHints {
  /** The note attribute's name, or "note". */
  field: string;
  /** Refs that are branches in the reference data. */
  branchRefs: string[];
  /** Refs that are cities in the reference data. */
  cityRefs: string[];
  cityNames: string[];
  /** Region (oblast) names, as written. */
  areas: string[];
  /** Branch or parcel locker numbers ("12"). */
  branchNumbers: string[];
  /** A branch's text as the app stored it ("Відділення №12: вул. Хрещатик, 22"), for its number and street. */
  branchTexts: string[];
  streets: string[];
  houses: string[];
  flats: string[];
  /** What kind of branch the keys speak of ("postomat", "locker"), when they say. */
  kind?: BranchKind;
}

/** What the reader needs of the reference data: whether a Ref is a branch or a city. */
export interface RefLookup {
  city(ref: string): CarrierCity | undefined;
  branch(ref: string): CarrierBranch | undefined;
}

interface OrderFields {
  note?: string | null | undefined;
  note_attributes?: readonly { name: string; value?: string | null | undefined }[] | null | undefined;
}

/** A field longer than this is not read for JSON (another app's delivery data is a few hundred bytes). */
export const MAX_FIELD_CHARS = 20_000;
/** Nesting deeper than this is not walked. */
export const MAX_DEPTH = 12;
/** At most this many values (objects, arrays, leaves) are visited per field. */
export const MAX_NODES = 2_000;
/** At most this many embedded JSON texts are tried per field. */
const MAX_EMBEDDED = 8;
/** At most this many note attributes are read. */
const MAX_ATTRIBUTES = 100;
/** A leaf string longer than this is not a name, number or Ref. */
const MAX_LEAF_CHARS = 300;

const REF = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Hints from the order's note attributes and note, one entry per field that said something. */
export function readStructuredHints(order: OrderFields, lookup: RefLookup): StructuredHints[] {
  const found: StructuredHints[] = [];
  try {
    const attributes = Array.isArray(order.note_attributes) ? order.note_attributes : [];
    for (const attribute of attributes.slice(0, MAX_ATTRIBUTES)) {
      if (typeof attribute?.name !== "string" || typeof attribute.value !== "string") continue;
      const hints = readField(attribute.name, attribute.value, lookup, true);
      if (hints) found.push(hints);
    }
    if (typeof order.note === "string") {
      const hints = readField("note", order.note, lookup, false);
      if (hints) found.push(hints);
    }
  } catch {
    // Nothing here should throw; if something does, the order is matched from its address instead.
  }
  return found;
}

/**
 * One field's hints: the JSON in it (the whole value or embedded in text), or, for a note attribute
 * whose value is not JSON, the value read under the attribute's name ("warehouse_ref": "…").
 */
function readField(
  field: string,
  value: string,
  lookup: RefLookup,
  isAttribute: boolean,
): StructuredHints | null {
  if (value.length > MAX_FIELD_CHARS) return null;
  const hints = emptyHints(field);
  const budget = { nodes: MAX_NODES };
  const documents = jsonIn(value);
  for (const document of documents) walk(document, isAttribute ? [field] : [], 0, hints, lookup, budget);
  if (documents.length === 0 && isAttribute) walk(value.trim(), [], 0, hints, lookup, budget, field);
  return saysSomething(hints) ? hints : null;
}

function emptyHints(field: string): StructuredHints {
  return {
    field,
    branchRefs: [],
    cityRefs: [],
    cityNames: [],
    areas: [],
    branchNumbers: [],
    branchTexts: [],
    streets: [],
    houses: [],
    flats: [],
  };
}

function saysSomething(hints: StructuredHints): boolean {
  return (
    hints.branchRefs.length +
      hints.cityRefs.length +
      hints.cityNames.length +
      hints.branchNumbers.length +
      hints.branchTexts.length +
      hints.streets.length >
    0
  );
}

/** The JSON objects and arrays in a text: the whole text, else each balanced {…} or […] in it. */
export function jsonIn(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_FIELD_CHARS) return [];
  const whole = parseJson(trimmed);
  if (whole !== undefined && typeof whole === "object" && whole !== null) return [whole];
  const documents: unknown[] = [];
  let from = 0;
  let tries = 0;
  while (from < trimmed.length && tries < MAX_EMBEDDED) {
    const start = nextOpening(trimmed, from);
    if (start < 0) break;
    const end = balancedEnd(trimmed, start);
    if (end < 0) {
      from = start + 1;
      continue;
    }
    tries++;
    const parsed = parseJson(trimmed.slice(start, end + 1));
    if (parsed !== undefined && typeof parsed === "object" && parsed !== null) {
      documents.push(parsed);
      from = end + 1;
    } else {
      from = start + 1;
    }
  }
  return documents;
}

function nextOpening(text: string, from: number): number {
  const brace = text.indexOf("{", from);
  const bracket = text.indexOf("[", from);
  if (brace < 0) return bracket;
  if (bracket < 0) return brace;
  return Math.min(brace, bracket);
}

/** Index of the bracket that closes the one at `start`, skipping strings; -1 when unbalanced or too deep. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{" || char === "[") {
      depth++;
      if (depth > MAX_DEPTH * 4) return -1;
    } else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// Key words, compared after lowercasing and splitting camelCase and separators: a word counts when it
// starts with a stem ("warehouseNumber" is "warehouse" + "number"; "settlementref" starts with
// "settlement"). A key without a category ("Description", "Number") takes its nearest ancestor's: under
// "city" it is a city's name, under "warehouse" a branch's text or number.
type Category = "flat" | "house" | "street" | "area" | "city" | "branch";

const CATEGORY_STEMS: readonly (readonly [Category, readonly string[]])[] = [
  ["flat", ["flat", "apartment", "apt", "kv", "кв", "квартир", "room"]],
  ["house", ["house", "building", "bud", "dom", "будинок", "буд", "дом"]],
  ["street", ["street", "vulyc", "ulic", "вулиц", "вул", "улиц", "ул"]],
  ["area", ["area", "region", "oblast", "область", "обл", "регіон", "регион", "province"]],
  ["city", ["city", "settlement", "town", "locality", "misto", "gorod", "місто", "город", "населен", "нп"]],
  [
    "branch",
    [
      "warehouse",
      "branch",
      "office",
      "department",
      "division",
      "pickup",
      "viddil",
      "otdel",
      "відділ",
      "отдел",
      "склад",
      "postomat",
      "poshtomat",
      "поштомат",
      "почтомат",
      "locker",
      "np",
      "nova",
    ],
  ],
];
const POSTOMAT_STEMS = ["postomat", "poshtomat", "поштомат", "почтомат", "locker", "parcelbox"];
/** Keys that hold an identifier or code, not a name: their non-Ref values are not names. */
const IDENTIFIER_STEMS = [
  "ref",
  "id",
  "uuid",
  "code",
  "index",
  "zip",
  "postcode",
  "type",
  "lat",
  "lng",
  "lon",
];

/** Short stems are whole words ("kv", "np", "id"); longer ones start a word. */
function wordIs(word: string, stems: readonly string[]): boolean {
  return stems.some((stem) => (stem.length <= 2 ? word === stem : word.startsWith(stem)));
}

/** A key made of words: "warehouseNumber" → "warehouse", "number". */
function splitKey(key: string): string[] {
  return key
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((part) => part.length > 0);
}

function categoryOf(words: readonly string[]): Category | undefined {
  for (const [category, stems] of CATEGORY_STEMS) {
    if (words.some((word) => wordIs(word, stems))) return category;
  }
  return undefined;
}

interface Budget {
  nodes: number;
}

function walk(
  value: unknown,
  path: readonly string[],
  depth: number,
  hints: StructuredHints,
  lookup: RefLookup,
  budget: Budget,
  key?: string,
): void {
  if (--budget.nodes < 0 || depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (budget.nodes < 0) return;
      walk(item, path, depth + 1, hints, lookup, budget, key);
    }
    return;
  }
  if (value !== null && typeof value === "object") {
    const inner = key === undefined ? path : [...path, key];
    for (const childKey of Object.keys(value)) {
      if (budget.nodes < 0) return;
      if (UNSAFE_KEYS.has(childKey)) continue;
      const child = Object.getOwnPropertyDescriptor(value, childKey)?.value as unknown;
      walk(child, inner, depth + 1, hints, lookup, budget, childKey);
    }
    return;
  }
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
    readLeaf(String(value), path, key, hints, lookup);
  } else if (typeof value === "string") {
    readLeaf(value.trim(), path, key, hints, lookup);
  }
}

function readLeaf(
  value: string,
  path: readonly string[],
  key: string | undefined,
  hints: StructuredHints,
  lookup: RefLookup,
): void {
  if (value.length === 0 || value.length > MAX_LEAF_CHARS) return;
  // A Ref is whatever the reference data says it is, whatever the key.
  if (REF.test(value)) {
    const ref = value.toLowerCase();
    if (lookup.branch(ref)) pushOnce(hints.branchRefs, ref);
    else if (lookup.city(ref)) pushOnce(hints.cityRefs, ref);
    return;
  }
  const own = key === undefined ? [] : splitKey(key);
  if ([...path.flatMap(splitKey), ...own].some((word) => wordIs(word, POSTOMAT_STEMS)))
    hints.kind = "postomat";
  if (own.some((word) => wordIs(word, IDENTIFIER_STEMS))) return;
  let category = categoryOf(own);
  for (let i = path.length - 1; category === undefined && i >= 0; i--)
    category = categoryOf(splitKey(path[i]!));
  const digits = /^(?:№|#|no\.?|n)?\s*(\d{1,5})$/i.exec(value)?.[1];
  const hasLetters = /\p{L}/u.test(value);
  switch (category) {
    case "flat":
      pushOnce(hints.flats, value);
      break;
    case "house":
      pushOnce(hints.houses, value);
      break;
    case "street":
      if (hasLetters) pushOnce(hints.streets, value);
      break;
    case "area":
      if (hasLetters) pushOnce(hints.areas, value);
      break;
    case "city":
      if (hasLetters && digits === undefined) pushOnce(hints.cityNames, value);
      break;
    case "branch":
      if (digits !== undefined) pushOnce(hints.branchNumbers, String(Number(digits)));
      else if (hasLetters) pushOnce(hints.branchTexts, value);
      break;
    default:
      break;
  }
}

function pushOnce(list: string[], value: string): void {
  if (!list.includes(value) && list.length < 10) list.push(value);
}

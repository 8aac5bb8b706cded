// Text folding for carrier names and addresses: one comparable skeleton for the Ukrainian, Russian and
// Latin writings of the same place, shared by the reference search and the address matcher.
//
// The skeleton is Latin-like. Cyrillic of both languages is mapped letter by letter, and Latin input
// (the official Ukrainian transliteration of 2010, "Kyiv", "Zaporizhzhia", or the older Russian-style one,
// "Kiev", "Zaporozhye") is read through the digraphs both use, so that the writings of one name land on
// the same skeleton or a letter or two apart. The choices, each because two real writings differ there:
//
// - и і ї й ы y i j are one letter, "i": Ukrainian и and Russian ы sound alike, the Latin writings use
//   y and i for all of them, and й/ї are what the Russian form writes as и or е.
// - е є э ё are one letter, "e"; "ie" (Latin "Yevropeiska", Russian "Киев") reads as "e".
// - г ґ х h g kh are one letter, "h": Ukrainian г is Latin h, Russian г is Latin g, and х is kh.
// - я ю read as "ia", "iu", as the Latin writings spell them ("ya", "yu" come out the same).
// - ж ч ш щ ц read as zh ch sh shch ts; Latin c alone as ts.
// - ь ъ and every apostrophe (' ’ ʼ ` ʹ ″ ") are dropped: "Кам'янське", "Камʼянське" and "Kamianske" agree.
// - A letter written twice counts once ("Одесса"/"Одеса", "Запоріжжя"/"Zaporizhia", "Київ" → "kiiv" → "kiv").
// - Hyphens and punctuation separate words ("Івано-Франківськ" is two words); digits are kept, and a
//   number glued after letters ("НП12") is a word of its own, while letters after a number ("12а") stay
//   with it: a house number keeps its letter.
//
// What is left differs between the languages themselves (Львів/Львов "lviv"/"lvov", Київ/Киев
// "kiv"/"kev"): one letter, which the bounded edit distance below covers.
import type { BranchKind } from "./types";

/** Apostrophes and quote marks as people type them inside names; dropped, not turned into spaces. */
const APOSTROPHES = new Set(Array.from("'’ʼ`ʹ″\"‘′´«»„“”", (char) => char.charCodeAt(0)));

/** Cyrillic letters (lower case) to the skeleton. */
const CYRILLIC: Readonly<Record<string, string>> = {
  а: "a",
  б: "b",
  в: "v",
  г: "h",
  ґ: "h",
  д: "d",
  е: "e",
  ё: "e",
  є: "e",
  э: "e",
  ж: "zh",
  з: "z",
  и: "i",
  і: "i",
  й: "i",
  ї: "i",
  ы: "i",
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
  х: "h",
  ц: "ts",
  ч: "ch",
  ш: "sh",
  щ: "shch",
  ь: "",
  ъ: "",
  ю: "iu",
  я: "ia",
};

/** Latin letters to the skeleton; the digraphs (LATIN_DIGRAPHS) are read first. */
const LATIN: Readonly<Record<string, string>> = {
  c: "ts",
  g: "h",
  j: "i",
  q: "k",
  w: "v",
  x: "ks",
  y: "i",
};

/** Longest first: "shch" before "sh" and "ch". */
const LATIN_DIGRAPHS: readonly (readonly [string, string])[] = [
  ["shch", "shch"],
  ["kh", "h"],
  ["zh", "zh"],
  ["ch", "ch"],
  ["sh", "sh"],
  ["ts", "ts"],
];

/** Units that collapse when written twice in a row, after mapping: single letters and the digraphs. */
const DOUBLED = /(shch|zh|ch|sh|ts|[a-z])\1+/g;

function isCyrillic(code: number): boolean {
  return code >= 0x400 && code <= 0x4ff;
}

/**
 * Skeletons of words seen, bounded: the reference data repeats a few thousand words (street names,
 * "відділення") across tens of thousands of records, and building the indexes folds each of them again.
 */
const skeletons = new Map<string, string>();
const SKELETON_CACHE_SIZE = 50_000;

/** One word (letters only, lower case, NFD, no marks) mapped to the skeleton. */
function skeletonOfWord(word: string): string {
  let folded = skeletons.get(word);
  if (folded === undefined) {
    folded = mapWord(word);
    if (skeletons.size >= SKELETON_CACHE_SIZE) skeletons.clear();
    skeletons.set(word, folded);
  }
  return folded;
}

function mapWord(word: string): string {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const char = word[i]!;
    const code = char.charCodeAt(0);
    if (isCyrillic(code)) {
      out += CYRILLIC[char] ?? "";
      continue;
    }
    if (code >= 0x61 && code <= 0x7a) {
      let digraph: string | undefined;
      for (const [from, to] of LATIN_DIGRAPHS) {
        if (word.startsWith(from, i)) {
          digraph = to;
          i += from.length - 1;
          break;
        }
      }
      out += digraph ?? LATIN[char] ?? char;
      continue;
    }
    if (code >= 0x30 && code <= 0x39) out += char;
  }
  return out.replace(DOUBLED, "$1").replace(/ie/g, "e").replace(DOUBLED, "$1");
}

/** Anything beyond ASCII and the basic Cyrillic block, where normalising can change something. */
const UNUSUAL = /[^\t\n\r -~\u0400-\u045f\u0490\u0491]/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const NUMBER_SIGN = "№".charCodeAt(0);
const HASH = "#".charCodeAt(0);

type CharClass = "letter" | "digit" | "apostrophe" | "marker" | "space";

function classOf(code: number, char: string): CharClass {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x400 && code <= 0x4ff)) return "letter";
  if (code >= 0x30 && code <= 0x39) return "digit";
  if (APOSTROPHES.has(code)) return "apostrophe";
  if (code === HASH || code === NUMBER_SIGN) return "marker";
  if (code > 0x7f && LETTER_OR_DIGIT.test(char)) return /\p{N}/u.test(char) ? "digit" : "letter";
  return "space";
}

/**
 * The words of a text, lower case, apostrophes dropped, with "#" for every "№" or "#" (they mark a
 * branch number). A number glued after letters ("нп12", "no5") starts a word of its own; letters after a
 * number ("12а") stay with it. Text beyond ASCII and basic Cyrillic is first NFKD-normalised with its
 * combining marks dropped (a decomposed "й", "é", full-width digits; "№" is read before, as NFKD would
 * spell it "No"); basic Cyrillic needs none of that, as й ї ё have letters of their own in the table.
 * One pass over the characters: building the indexes reads tens of thousands of descriptions.
 */
function rawWords(text: string): string[] {
  let lower = text.toLowerCase();
  if (UNUSUAL.test(lower)) {
    lower = lower.replace(/№/g, "#").normalize("NFKD").replace(/\p{M}/gu, "").normalize("NFC").toLowerCase();
  }
  const words: string[] = [];
  let word = "";
  let last: CharClass = "space";
  for (let i = 0; i < lower.length; i++) {
    const char = lower[i]!;
    const kind = classOf(char.charCodeAt(0), char);
    if (kind === "apostrophe") continue;
    if (kind === "letter" || kind === "digit") {
      if (kind === "digit" && last === "letter" && word) {
        words.push(word);
        word = "";
      }
      word += char;
    } else {
      if (word) words.push(word);
      word = "";
      if (kind === "marker") words.push("#");
    }
    last = kind;
  }
  if (word) words.push(word);
  return words;
}

/**
 * The comparable skeleton of a text: folded words joined by single spaces ("Кам'янець-Подільський" →
 * "kamianets podilski", "Kyiv" and "Київ" → "kiv").
 */
export function fold(text: string): string {
  return tokens(text).join(" ");
}

/** The folded words of a text; numbers kept ("№12" → "12", "12а" → "12a", "НП12" → "np", "12"). */
export function tokens(text: string): string[] {
  const words: string[] = [];
  for (const word of rawWords(text)) {
    if (word === "#") continue;
    const folded = skeletonOfWord(word);
    if (folded) words.push(folded);
  }
  return words;
}

// ---------------------------------------------------------------------------------------------------
// Noise: words that say what kind of thing follows (a branch, a city, a street) rather than which one.

/** Words that mark a branch number when a number follows ("відділення 12", "НП 12"; "№" is one too). */
const NUMBER_MARKERS = [
  "no",
  "nr",
  "num",
  "номер",
  "nomer",
  "відділення",
  "відділ",
  "відд",
  "отделение",
  "отделения",
  "отд",
  "branch",
  "viddilennia",
  "viddilennya",
  "otdelenie",
  "нп",
  "np",
  "поштомат",
  "почтомат",
  "postomat",
  "poshtomat",
  "pochtomat",
  "locker",
  "пт",
  "pt",
  "пункт",
  "punkt",
  "склад",
  "warehouse",
];

/** Other words that carry no name: the carrier's name, kinds of settlement and street, house words. */
const OTHER_NOISE = [
  "пошта",
  "пошти",
  "почта",
  "почты",
  "poshta",
  "pochta",
  "parcel",
  "приймання",
  "видачі",
  "приема",
  "выдачи",
  "видача",
  "выдача",
  "м",
  "г",
  "місто",
  "город",
  "city",
  "misto",
  "gorod",
  "с",
  "село",
  "selo",
  "village",
  "смт",
  "пгт",
  "селище",
  "поселок",
  "посёлок",
  "вул",
  "ул",
  "улица",
  "вулиця",
  "street",
  "str",
  "st",
  "vul",
  "ulitsa",
  "vulytsia",
  "пр",
  "просп",
  "проспект",
  "prosp",
  "prospekt",
  "avenue",
  "ave",
  "пров",
  "провулок",
  "пер",
  "переулок",
  "lane",
  "бульв",
  "бульвар",
  "бул",
  "blvd",
  "пл",
  "площа",
  "площадь",
  "square",
  "наб",
  "набережна",
  "набережная",
  "шосе",
  "шоссе",
  "узвіз",
  "спуск",
  "буд",
  "будинок",
  "д",
  "дом",
  "house",
  "кв",
  "квартира",
  "flat",
  "apt",
  "обл",
  "область",
  "oblast",
  "region",
  "район",
  "р",
  "н",
  "рн",
  "raion",
  "rayon",
  "district",
  "україна",
  "украина",
  "ukraine",
  "ukraina",
  "до",
  "кг",
  "kg",
  "тел",
  "телефон",
  "tel",
  "phone",
];

/** Folded noise words, for queries: every marker and every other noise word. */
export const NOISE_WORDS: ReadonlySet<string> = new Set([...NUMBER_MARKERS, ...OTHER_NOISE].flatMap(tokens));

/** Folded markers that make the number after them a branch number. */
export const NUMBER_MARKER_WORDS: ReadonlySet<string> = new Set(NUMBER_MARKERS.flatMap(tokens));

/** Folded words naming a parcel locker, a staffed branch, or a partner point. */
const KIND_WORDS: readonly (readonly [BranchKind, readonly string[]])[] = [
  ["postomat", ["поштомат", "почтомат", "postomat", "poshtomat", "pochtomat", "locker", "пт", "pt"]],
  ["store", ["пункт", "punkt"]],
  [
    "branch",
    ["відділення", "відд", "отделение", "отд", "branch", "viddilennia", "otdelenie", "склад", "warehouse"],
  ],
];

const KIND_BY_WORD: ReadonlyMap<string, BranchKind> = new Map(
  KIND_WORDS.flatMap(([kind, words]) => words.flatMap((word) => tokens(word).map((t) => [t, kind] as const))),
);

/**
 * The kind of branch a text asks for: "postomat" for parcel-locker words ("поштомат", "почтомат",
 * "parcel locker", "пт"), "store" for a partner point ("пункт видачі"), "branch" for branch words
 * ("відділення", "отд.", "branch"); undefined when it names none. The first such word decides.
 */
export function kindFromText(text: string): BranchKind | undefined {
  for (const word of tokens(text)) {
    const kind = KIND_BY_WORD.get(word);
    if (kind) return kind;
  }
  return undefined;
}

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

// ---------------------------------------------------------------------------------------------------
// Edit distance.

/**
 * Damerau–Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and
 * swaps of neighbours) between two strings, or `max + 1` as soon as it must exceed `max`: the search asks
 * "within 1 or 2?" of thousands of words, and most answers are known after a row or two.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  const bound = Math.min(max, Math.max(a.length, b.length));
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const width = b.length + 1;
  let before = new Array<number>(width);
  let previous = new Array<number>(width);
  let current = new Array<number>(width);
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ac = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const bc = b.charCodeAt(j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ac === bc ? 0 : 1));
      if (i > 1 && j > 1 && ac === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bc) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > bound) return bound + 1;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  const distance = previous[b.length]!;
  return distance > bound ? bound + 1 : distance;
}

/** How many typos a word of this length may carry and still match: none under 4 letters, 2 from 8. */
export function typoAllowance(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

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
// "kiv"/"kev"): one letter, which the bounded edit distance (distance.ts) covers.
//
// The rest of the folding reads queries (query.ts) with the word lists of noise.ts.

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
export function skeletonOfWord(word: string): string {
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
export function rawWords(text: string): string[] {
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

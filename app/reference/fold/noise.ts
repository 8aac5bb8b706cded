// Noise: words that say what kind of thing follows (a branch, a city, a street) rather than which one, and
// the words that name a kind of branch. Kept apart from the letters (skeleton.ts) as lists the matcher and
// the query reading (query.ts) share; every list is folded once, at load.
import type { BranchKind } from "../types";
import { tokens } from "./skeleton";

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

export const KIND_BY_WORD: ReadonlyMap<string, BranchKind> = new Map(
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

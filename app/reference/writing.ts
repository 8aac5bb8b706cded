// What buyers type, made readable for the address matcher (app/reference/matcher/) before it parses a
// field: Latin letters that look Cyrillic inside Cyrillic words ("HП", "Пoшта"), the carrier's name glued
// ("новапошта1", "NovaPoshta"), typos in the carrier's and the branch's words ("пштомат", "нова пошат",
// "отдлеление"), "office" for a branch after the carrier's name ("NP office 15"), weight notes ("до 1100 кг",
// which are not branch numbers) and a second number offered as an alternative ("5 або 12", "3, якщо
// закрите то 7"), which is marked as a branch number so that the matcher sees two and chooses neither.
// Also what a writing says beyond the words: another carrier ("Укрпошта 12" is not Nova Poshta's branch 12)
// and a freight branch ("вантажне", "до 1100 кг").
import { editDistance, tokens } from "./fold";

export interface Writing {
  text: string;
  /** The text names another carrier (Укрпошта, Meest, Justin, Rozetka): its numbers are not Nova Poshta's. */
  otherCarrier: boolean;
  /** The text asks for a freight branch ("вантажне", "грузовое", "cargo", a limit of 1000 kg or more). */
  freight: boolean;
}

/** Latin letters a Cyrillic keyboard's neighbours type for Cyrillic ones that look the same. */
const LOOK_ALIKE: Readonly<Record<string, string>> = {
  A: "А",
  B: "В",
  C: "С",
  E: "Е",
  H: "Н",
  I: "І",
  K: "К",
  M: "М",
  O: "О",
  P: "Р",
  T: "Т",
  X: "Х",
  Y: "У",
  a: "а",
  c: "с",
  e: "е",
  i: "і",
  o: "о",
  p: "р",
  x: "х",
  y: "у",
};
const CYRILLIC = /[\u0400-\u04ff]/;
const LATIN = /[a-z]/i;

/**
 * Latin look-alikes made Cyrillic: in a word that mixes both ("HП", "Kиїв"), and in a word of capitals
 * that are all look-alikes ("HOBA") in a text that is otherwise Cyrillic. A Latin word ("Nova", "NP") stays.
 */
export function cyrillicLookAlikes(text: string): string {
  if (!CYRILLIC.test(text) || !LATIN.test(text)) return text;
  return text.replace(/\p{L}+/gu, (word) => {
    const mixed = CYRILLIC.test(word) && LATIN.test(word);
    const capitals =
      !CYRILLIC.test(word) && word.length >= 2 && [...word].every((char) => /[ABCEHIKMOPTXY]/.test(char));
    if (!mixed && !capitals) return word;
    return [...word].map((char) => LOOK_ALIKE[char] ?? char).join("");
  });
}

/** The carrier's and the branch's words, folded, each with the word that replaces a typo of it. */
const VOCABULARY: readonly (readonly [string, string])[] = [
  ["пошта", "пошта"],
  ["почта", "пошта"],
  ["poshta", "пошта"],
  ["пошти", "пошти"],
  ["почты", "пошти"],
  ["відділення", "відділення"],
  ["отделение", "відділення"],
  ["viddilennia", "відділення"],
  ["поштомат", "поштомат"],
  ["почтомат", "поштомат"],
  ["postomat", "поштомат"],
].map(([word, canonical]) => [tokens(word!)[0]!, canonical!] as const);
const VOCABULARY_WORDS = new Set(VOCABULARY.map(([word]) => word));

/**
 * A word within one typo of the carrier's or a branch's word (two for words of nine letters or more) is
 * that word: "пштомат", "пошат", "отдлеление", "віддлення". One typo, not two, for shorter words: "Поштова"
 * (a street) is two from "пошта".
 */
function carrierWord(word: string): string | undefined {
  if (word.length < 5) return undefined;
  const folded = tokens(word);
  if (folded.length !== 1) return undefined;
  const skeleton = folded[0]!;
  if (VOCABULARY_WORDS.has(skeleton)) return undefined;
  const allowance = skeleton.length >= 9 ? 2 : 1;
  for (const [known, canonical] of VOCABULARY) {
    if (Math.abs(known.length - skeleton.length) > allowance) continue;
    if (editDistance(skeleton, known, allowance) <= allowance) return canonical;
  }
  return undefined;
}

/** "Нова"/"Nova" glued to "пошта"/"Poshta" (with or without a typo after it). */
const GLUED_CARRIER = /(нова|новая|новой|нової|nova|novaya)(?=(?:пош|поч|пшт|posh|poch))/giu;
const CARRIER_NAMED = /(?<![\p{L}])(?:нп|np|нов\p{L}*\s*п[оа]?[шч]т\p{L}*|nova\s*po[sc]h\p{L}*)(?![\p{L}])/iu;
/** "office" after the carrier's name is its branch ("NP office 15"); alone it is an office's number. */
const OFFICE = /(?<![\p{L}])(?:office|офіс|офис|оф)(?![\p{L}])\.?/giu;
const OTHER_CARRIER =
  /укрпошт|укрпочт|ukrposhta|ukrpochta|meest|(?<![\p{L}])(?:міст|мист)\s*(?:експрес|экспресс)|justin|джастін|джастин|rozetka|розетк/iu;
const FREIGHT_WORD = /(?<![\p{L}])(?:вантажн|грузов|cargo|freight|vantazhn)\p{L}*/giu;
/** "(до 1100 кг)", "до 30кг", "30 kg": a weight, never a branch number. */
const WEIGHT =
  /\(?\s*(?:(?:до|up\s+to|до\s+)\s*)?(\d{1,5})\s*(?:кг|kg|кілограм\p{L}*|килограм\p{L}*)(?![\p{L}])\.?\s*\)?/giu;
/** Hours ("до 18:00", "з 9 до 18", "після 17", "о 12 год") and a floor or entrance ("2 поверх"): not branches. */
const HOURS =
  /(?<![\p{L}\d])(?:(?:з|с|від|от|from)\s*\d{1,2}(?:[:.]\d{2})?\s*(?:до|по|to|-|–)\s*\d{1,2}(?:[:.]\d{2})?|(?:після|после|after|до|о|в|at)\s*\d{1,2}(?:[:.]\d{2}|\s*(?:год\p{L}*|час\p{L}*|h|pm|am)(?![\p{L}]))|\d{1,2}:\d{2})/giu;
const STOREY =
  /(?<![\d])\d{1,3}\s*-?\s*(?:й|ий|ый|ой|th)?\s*(?:поверх|этаж|floor|під'їзд|подъезд|entrance)(?![\p{L}])/giu;
const AFTER = /(?<![\p{L}])(?:після|после|after)\s*\d{1,2}(?![\d])/giu;

/** Freight branches take 1000 kg and more; ordinary ones 30. */
const FREIGHT_KG = 1000;

const NUMBER_AHEAD = String.raw`(?=\s*(?:(?:нп|np|№|#|відділення|отделение|поштомат|почтомат)\.?\s*)?\d)`;
/** A word offering another branch: what follows it is a branch number too. */
const ALTERNATIVE = new RegExp(
  String.raw`(?<![\p{L}])(?:або|альбо|или|чи|либо|or|ні|нi|нет|not|інакше|иначе|(?:якщо|если|if)[^\d\n;,]{0,30}?(?:то|then))(?![\p{L}])[\s,.:]*(?:(?:на|в|у|to)\s+)?` +
    NUMBER_AHEAD,
  "giu",
);
/** "відділення 1, 2", "НП 4 - 5", "НП №4/№9", "1-10": a second number right after a branch's. */
const LISTED =
  /((?:нп|np|№|#|відділення|відд|отделение|отд|поштомат|почтомат|branch)\.?\s*(?:№|#)?\s*\d{1,5})\s*(?:,|\/|-|–)\s*(?=(?:№|#)?\s*\d{1,5}(?![\d/]))/giu;

/** A field's text made readable for the matcher, with what it says beyond its words. */
export function readWriting(raw: string): Writing {
  let text = cyrillicLookAlikes(raw);
  const otherCarrier = OTHER_CARRIER.test(text);
  let freight = false;
  text = text.replace(WEIGHT, (_, kg: string) => {
    if (Number(kg) >= FREIGHT_KG) freight = true;
    return " ";
  });
  text = text.replace(HOURS, " ").replace(AFTER, " ").replace(STOREY, " ");
  text = text.replace(FREIGHT_WORD, () => {
    freight = true;
    return " ";
  });
  text = text.replace(GLUED_CARRIER, "$1 ");
  text = text.replace(/[\p{L}]+/gu, (word) => carrierWord(word) ?? word);
  if (CARRIER_NAMED.test(text)) text = text.replace(OFFICE, " відділення ");
  text = text.replace(ALTERNATIVE, " № ");
  text = text.replace(LISTED, "$1 № ");
  return { text, otherCarrier, freight };
}

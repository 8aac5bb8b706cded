// How well a query's part matches: the qualities a search scores words and numbers with, and the matching
// of one query word against a term index (exact, a prefix for type-ahead, a word within a typo or two).
import { typoAllowance } from "../fold";
import type { TermIndex } from "./term-index";

/** Prefixes of one or two letters would each reach most of the index; type-ahead starts at two. */
export const MIN_PREFIX = 2;

// Scores. A query's parts (name words and numbers) are each matched with a quality; a record's score is
// their mean, scaled by how surely the city was read. These are the qualities.
export const QUALITY = {
  exact: 1,
  /** A house number equal to the query's unmarked number ("Хрещатик 22"). */
  house: 0.9,
  /** A word the query's word begins: 0.65 for a short start, towards 0.95 for nearly all of it. */
  prefixBase: 0.65,
  prefixSpan: 0.3,
  /** Per typo: one typo 0.75, two 0.5. */
  typo: 0.25,
  /** A city named by a word of a longer name ("Франківськ"). */
  cityWord: 0.85,
  /** A city the text names with a typo, or one of several that share the name without the area. */
  fuzzyCity: 0.8,
  /** A branch of another kind than the text names ("поштомат 12" and a staffed branch 12). */
  otherKind: 0.8,
  /** A city outside the oblast the text names. */
  otherArea: 0.8,
  /** How many words a marked branch number ("№25") weighs in a query's mean. */
  markedNumberWeight: 2,
} as const;

/** How well a query word matches the terms of an index: [term id, quality] pairs. */
export function wordMatches(index: TermIndex, word: string): [number, number][] {
  const matches: [number, number][] = [];
  const exact = index.lookup(word);
  if (exact !== undefined) matches.push([exact, QUALITY.exact]);
  if (word.length >= MIN_PREFIX) {
    for (const id of index.prefixed(word)) {
      const ratio = word.length / index.term(id).length;
      matches.push([id, QUALITY.prefixBase + QUALITY.prefixSpan * ratio]);
    }
  }
  // Typos only when the word is nowhere as written: an exact word is what was meant.
  if (exact === undefined) {
    for (const { id, distance } of index.near(word, typoAllowance(word.length))) {
      matches.push([id, QUALITY.exact - QUALITY.typo * distance]);
    }
  }
  return matches;
}

/** Scores to three decimals: equal-looking scores compare equal, and the ranking above decides. */
export function round(score: number): number {
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}

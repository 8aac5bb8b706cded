// A term index: distinct folded words, each with the ids of the records that hold it (postings), kept in
// sorted order for prefixes (type-ahead) and by trigram for words within a typo or two. The search keeps
// three: city names, the words of names of several words, and branch address words.
import { editDistance } from "../fold";

/** A prefix reaches at most this many distinct words (the shortest, most likely, are first in order). */
const PREFIX_TERMS = 200;

export class TermIndex {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[];
  private readonly postings: Int32Array[];
  /** Term ids in the terms' string order, for prefix ranges. */
  private readonly order: Int32Array;
  private readonly sortedTerms: string[];
  private readonly grams = new Map<string, Int32Array>();
  /** Scratch for counting shared trigrams; the search is synchronous, so one per index is enough. */
  private readonly counts: Uint16Array;

  constructor(entries: Map<string, number[]>) {
    this.terms = [...entries.keys()];
    this.postings = this.terms.map((term, id) => {
      this.ids.set(term, id);
      return Int32Array.from(entries.get(term)!);
    });
    this.order = Int32Array.from(this.terms.keys()).sort((a, b) =>
      this.terms[a]! < this.terms[b]! ? -1 : this.terms[a]! > this.terms[b]! ? 1 : 0,
    );
    this.sortedTerms = Array.from(this.order, (id) => this.terms[id]!);
    const grams = new Map<string, number[]>();
    this.terms.forEach((term, id) => {
      for (const gram of trigrams(term)) {
        const list = grams.get(gram);
        if (!list) grams.set(gram, [id]);
        else if (list[list.length - 1] !== id) list.push(id);
      }
    });
    for (const [gram, list] of grams) this.grams.set(gram, Int32Array.from(list));
    this.counts = new Uint16Array(this.terms.length);
  }

  get size(): number {
    return this.terms.length;
  }

  term(id: number): string {
    return this.terms[id]!;
  }

  postingsOf(id: number): Int32Array {
    return this.postings[id]!;
  }

  lookup(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** Ids of the terms that start with `prefix` and are longer than it, at most `cap` of them. */
  prefixed(prefix: string, cap = PREFIX_TERMS): number[] {
    const found: number[] = [];
    let lo = 0;
    let hi = this.sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortedTerms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sortedTerms.length && found.length < cap; i++) {
      const term = this.sortedTerms[i]!;
      if (!term.startsWith(prefix)) break;
      if (term.length > prefix.length) found.push(this.order[i]!);
    }
    return found;
  }

  /**
   * Terms whose start is within `max` edits of `word`. Trigrams cannot find a short start with a typo
   * ("hvrk" shares none with "harkiv"), so this reads every term: a fallback for when nothing else matched,
   * and cheap, as the bound stops most comparisons after a letter or two.
   */
  nearPrefix(word: string, max: number): number[] {
    const found: number[] = [];
    for (let id = 0; id < this.terms.length; id++) {
      if (prefixDistance(word, this.terms[id]!, max) <= max) found.push(id);
    }
    return found;
  }

  /**
   * Terms within `max` edits of `word` (not `word` itself), with their distance. Candidates share enough
   * trigrams with the word (an edit spoils at most three), and only they are measured.
   */
  near(word: string, max: number): { id: number; distance: number }[] {
    if (max <= 0) return [];
    const wordGrams = trigrams(word);
    const needed = Math.max(1, wordGrams.length - 3 * max);
    const touched: number[] = [];
    for (const gram of new Set(wordGrams)) {
      const list = this.grams.get(gram);
      if (!list) continue;
      for (const id of list) {
        const count = this.counts[id]!;
        if (count === 0) touched.push(id);
        this.counts[id] = count + 1;
      }
    }
    const found: { id: number; distance: number }[] = [];
    for (const id of touched) {
      const shared = this.counts[id]!;
      this.counts[id] = 0;
      if (shared < needed) continue;
      const term = this.terms[id]!;
      if (term === word) continue;
      const distance = editDistance(word, term, max);
      if (distance <= max) found.push({ id, distance });
    }
    return found;
  }
}

/**
 * The fewest edits (insertions, deletions, substitutions) that make `word` a start of `term`, or `max + 1`
 * once it must exceed `max`. Only the band of `max` around the diagonal is filled.
 */
function prefixDistance(word: string, term: string, max: number): number {
  const width = Math.min(term.length, word.length + max) + 1;
  if (width - 1 < word.length - max) return max + 1;
  let previous = PREFIX_ROWS[0]!;
  let current = PREFIX_ROWS[1]!;
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= word.length; i++) {
    current[0] = i;
    let rowMin = i;
    const code = word.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const value = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (code === term.charCodeAt(j - 1) ? 0 : 1),
      );
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  let best = max + 1;
  for (let j = Math.max(0, word.length - max); j < width; j++) best = Math.min(best, previous[j]!);
  return best;
}

/** Two rows for prefixDistance, long enough for any name: it runs thousands of times per fallback. */
const PREFIX_ROWS = [new Int32Array(256), new Int32Array(256)];

/** Trigrams of a word padded with a space at each end, so that short words and word edges count. */
function trigrams(word: string): string[] {
  const padded = ` ${word} `;
  const grams: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) grams.push(padded.slice(i, i + 3));
  return grams;
}

export function addPosting(entries: Map<string, number[]>, term: string, id: number): void {
  const list = entries.get(term);
  if (!list) entries.set(term, [id]);
  else if (list[list.length - 1] !== id) list.push(id);
}

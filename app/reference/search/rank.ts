// Ranking branches by a query's words and numbers: every word's matches summed per branch through scratch
// arrays of one slot per branch (allocated once per search, as the search answers synchronously), within
// the cities given or anywhere.
import { leadingNumber } from "../fold";
import type { BranchKind, CarrierBranch } from "../types";
import { QUALITY, wordMatches } from "./quality";
import type { TermIndex } from "./term-index";

/** A set's branches as the search holds them: ids are positions in `ordered`, grouped by city. */
export interface BranchIndex {
  ordered: readonly CarrierBranch[];
  /** Branch id → city index. */
  cityOf: Int32Array;
  /** City index → the id of its first branch (the next city's start ends its range). */
  cityStart: Int32Array;
  /** Address words, postcodes and house numbers. */
  terms: TermIndex;
  /** Branch number → the ids of the branches with it. */
  numbers: Map<string, Int32Array>;
}

/** The ranking over one set's branches, with its scratch. */
export function branchRanker({ ordered, cityOf, cityStart, terms, numbers }: BranchIndex) {
  // Scratch for the branch search, one slot per branch.
  const sums = new Float64Array(ordered.length);
  const best = new Float64Array(ordered.length);
  const seen = new Uint8Array(ordered.length);

  /** Scores branches by the query's words and numbers within the cities given (or anywhere). */
  function rankBranches(
    words: readonly string[],
    queryNumbers: readonly { value: string; marked: boolean }[],
    kind: BranchKind | undefined,
    within: Map<number, number> | undefined,
    accept: (branch: CarrierBranch) => boolean,
  ): { id: number; score: number }[] {
    // A number the text marks as a branch's ("відділення 25", "№25") is the strongest thing a buyer
    // writes, above the street of a home address next to it: it weighs two words.
    const weightOf = (number: { marked: boolean }) => (number.marked ? QUALITY.markedNumberWeight : 1);
    const parts = queryNumbers.reduce((sum, number) => sum + weightOf(number), words.length);
    const candidates: number[] = [];
    const inScope = (id: number) => !within || within.has(cityOf[id]!);
    const consider = (id: number, quality: number, touched: number[]) => {
      if (!inScope(id)) return;
      if (best[id] === 0) touched.push(id);
      if (quality > best[id]!) best[id] = quality;
    };
    const settle = (touched: number[], weight = 1) => {
      for (const id of touched) {
        sums[id] = sums[id]! + best[id]! * weight;
        best[id] = 0;
        if (!seen[id]) {
          seen[id] = 1;
          candidates.push(id);
        }
      }
    };

    if (parts === 0) {
      // Only a city (and perhaps a kind): its branches in number order.
      if (!within) return [];
      for (const index of within.keys()) {
        for (let id = cityStart[index]!; id < cityStart[index + 1]!; id++) {
          sums[id] = 1;
          seen[id] = 1;
          candidates.push(id);
        }
      }
    }
    for (const word of words) {
      const touched: number[] = [];
      for (const [termId, quality] of wordMatches(terms, word)) {
        for (const id of terms.postingsOf(termId)) consider(id, quality, touched);
      }
      settle(touched);
    }
    for (const number of queryNumbers) {
      const touched: number[] = [];
      const own = leadingNumber(number.value) === number.value ? numbers.get(number.value) : undefined;
      if (own) for (const id of own) consider(id, QUALITY.exact, touched);
      if (!number.marked) {
        // Not said to be a branch's number: it may be the house ("Хрещатик 22", "22а").
        const house = terms.lookup(number.value);
        if (house !== undefined)
          for (const id of terms.postingsOf(house)) consider(id, QUALITY.house, touched);
        for (const termId of terms.prefixed(number.value)) {
          if (/^\d/.test(terms.term(termId).slice(number.value.length))) continue;
          for (const id of terms.postingsOf(termId)) consider(id, QUALITY.house - 0.1, touched);
        }
      }
      settle(touched, weightOf(number));
    }

    const hits: { id: number; score: number }[] = [];
    for (const id of candidates) {
      const sum = sums[id]!;
      sums[id] = 0;
      seen[id] = 0;
      const branch = ordered[id]!;
      if (!accept(branch)) continue;
      let score = parts ? sum / parts : sum;
      if (kind && branch.kind !== kind) score *= QUALITY.otherKind;
      if (within) score *= within.get(cityOf[id]!) ?? 1;
      hits.push({ id, score });
    }
    return hits;
  }

  return rankBranches;
}

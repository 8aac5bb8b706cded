// Judging the address matcher against its corpus, for the corpus test and `npm run bench:matcher`: each
// case becomes a Shopify order, the matcher answers, and the answer is right, unsure, or confidently wrong.
import { DEFAULT_BRANCH_MATCH_THRESHOLD } from "../../app/orders/settings";
import type { BranchMatch, CarrierBranch, CarrierCity, ReferenceSearch } from "../../app/reference/types";
import { shopifyOrderSchema, type ShopifyOrder } from "../../app/orders/payload";
import { UNKNOWN_REF, type CorpusCase, type ExpectedBranch } from "./corpus";

export interface Outcome {
  entry: CorpusCase;
  right: boolean;
  /** A branch other than the expected one at or above the threshold. */
  confidentlyWrong: boolean;
  /** A branch was expected, the matcher was not sure: whether the three candidates offer it. */
  unsureOffered?: boolean;
  report: string;
}

export interface CorpusJudge {
  /** The expected branch, or an error naming what the data lacks. */
  resolve(expected: ExpectedBranch): { city: CarrierCity; branch: CarrierBranch };
  orderOf(entry: CorpusCase, index: number): ShopifyOrder;
  judge(entry: CorpusCase, index: number): Outcome;
}

export function corpusJudge(
  search: ReferenceSearch,
  cities: readonly CarrierCity[],
  matchBranch: (order: ShopifyOrder, search: ReferenceSearch) => BranchMatch,
): CorpusJudge {
  function resolve(expected: ExpectedBranch): { city: CarrierCity; branch: CarrierBranch } {
    const city = cities.find(
      (candidate) => candidate.name === expected.city && candidate.area === expected.area,
    );
    if (!city) throw new Error(`the corpus names ${expected.city} (${expected.area}), which the data lacks`);
    const branch = search.branchesOf(city.ref).find((candidate) => candidate.number === expected.number);
    if (!branch)
      throw new Error(`the corpus names branch ${expected.number} of ${expected.city}, which the data lacks`);
    return { city, branch };
  }

  function orderOf(entry: CorpusCase, index: number): ShopifyOrder {
    const target = entry.expect === "unsure" ? undefined : resolve(entry.expect);
    const fill = (text: string) =>
      text
        .replaceAll("{branchRef}", target?.branch.ref ?? "")
        .replaceAll("{cityRef}", target?.city.ref ?? "")
        .replaceAll("{unknownRef}", UNKNOWN_REF);
    return shopifyOrderSchema.parse({
      id: 1000 + index,
      order_number: 1000 + index,
      created_at: "2026-11-26T00:00:00Z",
      line_items: [],
      note: entry.note === undefined ? null : fill(entry.note),
      note_attributes: (entry.noteAttributes ?? []).map(({ name, value }) => ({ name, value: fill(value) })),
      shipping_address: { country_code: "UA", ...entry.address },
    });
  }

  function judge(entry: CorpusCase, index: number): Outcome {
    const order = orderOf(entry, index);
    const match = matchBranch(order, search);
    const confident = match.ref !== null && match.confidence >= DEFAULT_BRANCH_MATCH_THRESHOLD;
    const got = match.ref ? search.branch(match.ref) : undefined;
    const gotText = got
      ? `${search.city(got.cityRef)?.name} (${search.city(got.cityRef)?.area}) №${got.number} at ${match.confidence}`
      : `nothing (${match.confidence})`;
    const offered = (expected: ExpectedBranch) =>
      match.candidates.some((candidate) => candidate.ref === resolve(expected).branch.ref);
    const written = JSON.stringify({ ...entry.address, note: entry.note, attributes: entry.noteAttributes });
    if (entry.expect === "unsure") {
      const missing = (entry.offer ?? []).filter((expected) => !offered(expected));
      return {
        entry,
        right: !confident && missing.length === 0,
        confidentlyWrong: confident,
        report:
          `#${index} ${entry.what}: ${written} should not be confident` +
          (missing.length ? ` and should offer ${missing.map((m) => `№${m.number}`).join(", ")}` : "") +
          `, gave ${gotText}`,
      };
    }
    const expected = resolve(entry.expect).branch;
    return {
      entry,
      right: match.ref === expected.ref && confident,
      confidentlyWrong: confident && match.ref !== expected.ref,
      ...(!confident ? { unsureOffered: offered(entry.expect) } : {}),
      report: `#${index} ${entry.what}: ${written} should give ${entry.expect.city} (${entry.expect.area}) №${entry.expect.number}, gave ${gotText}`,
    };
  }

  return { resolve, orderOf, judge };
}

/** The corpus's figures: printed by the test and by `npm run bench:matcher`. */
export function corpusFigures(outcomes: readonly Outcome[]) {
  const right = outcomes.filter((outcome) => outcome.right).length;
  const unsure = outcomes.filter((outcome) => outcome.unsureOffered !== undefined);
  return {
    cases: outcomes.length,
    ambiguousCases: outcomes.filter((outcome) => outcome.entry.expect === "unsure").length,
    right,
    rightPercent: Math.round((1000 * right) / outcomes.length) / 10,
    confidentlyWrong: outcomes.filter((outcome) => outcome.confidentlyWrong).length,
    unsureWithRightOffered: unsure.filter((outcome) => outcome.unsureOffered).length,
    unsureWithoutRightOffered: unsure.filter((outcome) => !outcome.unsureOffered).length,
  };
}

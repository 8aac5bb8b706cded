// The address matcher against its corpus (corpus.ts): at least 95 % of the writings give the right branch,
// and no wrong branch reaches DEFAULT_BRANCH_MATCH_THRESHOLD. A failure lists every miss readably.
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BRANCH_MATCH_THRESHOLD, matchBranch } from "../../app/reference/matcher";
import { buildReferenceSearch } from "../../app/reference/search";
import type { CarrierBranch, CarrierCity, ReferenceSearch } from "../../app/reference/types";
import { shopifyOrderSchema, type ShopifyOrder } from "../../app/orders/payload";
import { CORPUS, UNKNOWN_REF, type CorpusCase, type ExpectedBranch } from "./corpus";
import { simulatorReferenceData } from "./sim-data";

let search: ReferenceSearch;
let cities: CarrierCity[];
let branches: CarrierBranch[];

beforeAll(() => {
  ({ cities, branches } = simulatorReferenceData());
  search = buildReferenceSearch(cities, branches);
});

/** The expected branch, or an error naming what the data lacks. */
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

interface Outcome {
  entry: CorpusCase;
  right: boolean;
  /** A branch other than the expected one at or above the threshold. */
  confidentlyWrong: boolean;
  report: string;
}

function judge(entry: CorpusCase, index: number): Outcome {
  const order = orderOf(entry, index);
  const match = matchBranch(order, search);
  const confident = match.ref !== null && match.confidence >= DEFAULT_BRANCH_MATCH_THRESHOLD;
  const got = match.ref ? search.branch(match.ref) : undefined;
  const gotText = got
    ? `${search.city(got.cityRef)?.name} (${search.city(got.cityRef)?.area}) №${got.number} at ${match.confidence}`
    : `nothing (${match.confidence})`;
  const written = JSON.stringify({ ...entry.address, note: entry.note, attributes: entry.noteAttributes });
  if (entry.expect === "unsure") {
    return {
      entry,
      right: !confident,
      confidentlyWrong: confident,
      report: `#${index} ${entry.what}: ${written} should not be confident, gave ${gotText}`,
    };
  }
  const expected = resolve(entry.expect).branch;
  const right = match.ref === expected.ref && confident;
  return {
    entry,
    right,
    confidentlyWrong: confident && match.ref !== expected.ref,
    report: `#${index} ${entry.what}: ${written} should give ${entry.expect.city} (${entry.expect.area}) №${entry.expect.number}, gave ${gotText}`,
  };
}

describe("the address matcher's corpus", () => {
  it("has at least 200 writings, each naming a branch the data has", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(200);
    for (const entry of CORPUS) if (entry.expect !== "unsure") resolve(entry.expect);
    // The hard cases are there: villages sharing a name with and without region, structured data.
    expect(CORPUS.filter((entry) => entry.expect === "unsure").length).toBeGreaterThanOrEqual(10);
    expect(
      CORPUS.filter((entry) => entry.note?.includes("{") || entry.noteAttributes).length,
    ).toBeGreaterThanOrEqual(10);
  });

  it("matches at least 95 % right, and never a wrong branch at or above the threshold", () => {
    const outcomes = CORPUS.map(judge);
    const misses = outcomes.filter((outcome) => !outcome.right);
    const wrong = outcomes.filter((outcome) => outcome.confidentlyWrong);
    const rate = (outcomes.length - misses.length) / outcomes.length;
    expect(
      wrong.map((outcome) => outcome.report),
      "confidently wrong",
    ).toEqual([]);
    expect(
      rate,
      `right ${outcomes.length - misses.length} of ${outcomes.length}; misses:\n${misses.map((outcome) => outcome.report).join("\n")}`,
    ).toBeGreaterThanOrEqual(0.95);
  });
});

// The address matcher against its corpus (corpus.ts, corpus-buyers.ts): at least 97 % of the writings give
// the right branch (or, for an ambiguous one, no branch), no wrong branch reaches
// DEFAULT_BRANCH_MATCH_THRESHOLD, and an unsure answer offers the right branch among its three candidates.
// The figures are printed; a failure lists every miss readably.
import { beforeAll, describe, expect, it } from "vitest";
import { matchBranch } from "../../app/reference/matcher";
import { buildReferenceSearch } from "../../app/reference/search";
import { CORPUS } from "./corpus";
import { corpusFigures, corpusJudge, type CorpusJudge } from "./corpus-judge";
import { simulatorReferenceData } from "./sim-data";

let judge: CorpusJudge;

beforeAll(() => {
  const { cities, branches } = simulatorReferenceData();
  judge = corpusJudge(buildReferenceSearch(cities, branches), cities, matchBranch);
});

describe("the address matcher's corpus", () => {
  it("has at least 400 writings, a third of them ambiguous or wrong, each naming a branch the data has", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(400);
    for (const entry of CORPUS) {
      if (entry.expect !== "unsure") judge.resolve(entry.expect);
      for (const offered of entry.offer ?? []) judge.resolve(offered);
    }
    // The hard cases are there: villages sharing a name with and without region, structured data.
    expect(CORPUS.filter((entry) => entry.expect === "unsure").length * 3).toBeGreaterThanOrEqual(
      CORPUS.length,
    );
    expect(
      CORPUS.filter((entry) => entry.note?.includes("{") || entry.noteAttributes).length,
    ).toBeGreaterThanOrEqual(10);
  });

  it("matches at least 97 % right, never a wrong branch at or above the threshold, and offers the right one when unsure", () => {
    const outcomes = CORPUS.map((entry, index) => judge.judge(entry, index));
    const figures = corpusFigures(outcomes);
    console.log(`matcher corpus: ${JSON.stringify(figures)}`);
    const misses = outcomes.filter((outcome) => !outcome.right);
    const wrong = outcomes.filter((outcome) => outcome.confidentlyWrong);
    expect(
      wrong.map((outcome) => outcome.report),
      "confidently wrong",
    ).toEqual([]);
    expect(
      figures.right / figures.cases,
      `right ${figures.right} of ${figures.cases}; misses:\n${misses.map((outcome) => outcome.report).join("\n")}`,
    ).toBeGreaterThanOrEqual(0.97);
    expect(
      outcomes.filter((outcome) => outcome.unsureOffered === false).map((outcome) => outcome.report),
      "unsure, and the right branch not among the three candidates",
    ).toEqual([]);
  });
});

// `npm run bench:matcher`: the address matcher (app/reference/matcher/) over its corpus
// (test/reference/corpus.ts and corpus-buyers.ts) on the simulator's directory: how often it is right, how
// often confidently wrong, and how long one order takes, as order intake asks it. Figures: the corpus's
// (`cases`, `right`, `rightPercent`, `confidentlyWrong`, `unsureWithRightOffered`), then `p50Ms`, `p95Ms`
// and `maxMs` per order over ROUNDS rounds of the whole corpus, each order timed alone after one unmeasured
// round. With `--misses` it lists each miss. Prints one JSON object as its last line.
import { matchBranch } from "../app/reference/matcher";
import { buildReferenceSearch } from "../app/reference/search";
import { CORPUS } from "../test/reference/corpus";
import { corpusFigures, corpusJudge } from "../test/reference/corpus-judge";
import { simulatorReferenceData } from "../test/reference/sim-data";
import { percentile, round } from "./support";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

const { cities, branches } = simulatorReferenceData();
const search = buildReferenceSearch(cities, branches);
const judge = corpusJudge(search, cities, matchBranch);

const outcomes = CORPUS.map((entry, index) => judge.judge(entry, index));
if (process.argv.includes("--misses")) {
  for (const outcome of outcomes) {
    if (!outcome.right) console.log(`${outcome.confidentlyWrong ? "WRONG " : "miss  "}${outcome.report}`);
  }
}
const figures = corpusFigures(outcomes);

const orders = CORPUS.map((entry, index) => judge.orderOf(entry, index));
for (const order of orders) matchBranch(order, search);
const times: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  for (const order of orders) {
    const start = performance.now();
    matchBranch(order, search);
    times.push(performance.now() - start);
  }
}
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    ...figures,
    orders: times.length,
    p50Ms: round(percentile(times, 50), 3),
    p95Ms: round(percentile(times, 95), 3),
    maxMs: round(times.at(-1)!, 2),
  }),
);

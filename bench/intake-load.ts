// The load generator of bench:intake, in its own process so that it does not share the app's event loop:
// signed orders/create webhooks over keep-alive HTTP at a steady rate (open loop), each answer timed.
// Reads JSON from argv[2]: {url, rate, seconds, first?} prints one JSON object with the latencies; with
// `steps` instead of `rate` ({url, steps, seconds, maxP99Ms, first?}) it runs each rate in turn and stops at
// the first whose p99 is not under maxP99Ms (the capacity search), printing each step's figures. With
// `waitForGo`, it prints "ready" once loaded and sends nothing until a line arrives on stdin, so that the
// caller's CPU count starts with the load, not with this process's start.
import http from "node:http";
import { orderPayload, SHOP } from "../test/e2e/harness";
import { signedWebhookRequest } from "../test/support/webhooks";
import { percentile, round } from "./support";

const options = JSON.parse(process.argv[2]!) as {
  url: string;
  seconds: number;
  /** The first order number; each order is distinct. */
  first?: number;
  waitForGo?: boolean;
} & ({ rate: number } | { steps: number[]; maxP99Ms: number; pauseMs?: number });
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const target = new URL(options.url);

async function send(n: number): Promise<{ status: number; ms: number } | { error: string }> {
  const request = signedWebhookRequest({ topic: "orders/create", shop: SHOP, payload: orderPayload(n) });
  const body = Buffer.from(await request.text());
  const headers = Object.fromEntries(request.headers);
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: "POST",
        path: new URL(request.url).pathname,
        headers: { ...headers, "content-length": body.length },
      },
      (answer) => {
        answer.resume();
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    outgoing.end(body);
  });
}

/** Sends `rate` a second for `seconds`, orders numbered from `first`; answers when every one is answered. */
async function steady(rate: number, seconds: number, first: number) {
  const total = Math.round(rate * seconds);
  const results: Promise<Awaited<ReturnType<typeof send>>>[] = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    results.push(send(first + i));
  }
  const done = await Promise.all(results);
  return {
    requests: total,
    elapsedS: (performance.now() - started) / 1000,
    latencies: done.flatMap((result) => ("ms" in result ? [result.ms] : [])),
    statuses: done.reduce<Record<string, number>>((counts, result) => {
      const key = "status" in result ? String(result.status) : result.error;
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {}),
  };
}

const first = options.first ?? 100_000;
if (options.waitForGo) {
  console.log("ready");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  process.stdin.pause();
}
if ("rate" in options) {
  console.log(JSON.stringify(await steady(options.rate, options.seconds, first)));
} else {
  const steps = [];
  let next = first;
  for (const rate of options.steps) {
    const result = await steady(rate, options.seconds, next);
    next += result.requests;
    const latencies = result.latencies.sort((a, b) => a - b);
    const p99Ms = round(percentile(latencies, 99));
    const ok = Object.keys(result.statuses).every((status) => status === "200");
    steps.push({
      rate,
      achievedRate: round(result.requests / result.elapsedS, 1),
      answers: result.statuses,
      p50Ms: round(percentile(latencies, 50)),
      p99Ms,
      met: ok && p99Ms < options.maxP99Ms,
    });
    if (!steps.at(-1)!.met) break;
    // Lets the step's stragglers and the worker's catch-up settle before the next rate.
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 1_000));
  }
  console.log(JSON.stringify({ steps, ordersSent: next - first }));
}
agent.destroy();

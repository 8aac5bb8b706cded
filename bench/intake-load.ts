// The load generator of bench:intake, in its own process so that it does not share the app's event loop:
// signed orders/create webhooks over keep-alive HTTP at a steady rate (open loop), each answer timed.
// Reads {url, rate, seconds} as JSON from argv[2]; prints one JSON object with the latencies.
import http from "node:http";
import { orderPayload, SHOP } from "../test/e2e/harness";
import { signedWebhookRequest } from "../test/support/webhooks";

const { url, rate, seconds } = JSON.parse(process.argv[2]!) as { url: string; rate: number; seconds: number };
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const target = new URL(url);

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

const total = rate * seconds;
const results: Promise<Awaited<ReturnType<typeof send>>>[] = [];
const started = performance.now();
for (let i = 0; i < total; i++) {
  const wait = started + (i * 1000) / rate - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  results.push(send(100_000 + i));
}
const done = await Promise.all(results);
console.log(
  JSON.stringify({
    elapsedS: (performance.now() - started) / 1000,
    latencies: done.flatMap((result) => ("ms" in result ? [result.ms] : [])),
    statuses: done.reduce<Record<string, number>>((counts, result) => {
      const key = "status" in result ? String(result.status) : result.error;
      counts[key] = (counts[key] ?? 0) + 1;
      return counts;
    }, {}),
  }),
);
agent.destroy();

// npm run bench:warehouse — what the typed client costs per call over a bare fetch, and how many
// requests a second the simulator answers, both on loopback. The last line printed is one JSON object.
import http from "node:http";
import { createWarehouseClient } from "../app/warehouse/client.server";
import { MemoryRateLimitStore, WarehouseRateLimiter } from "../app/warehouse/limiter.server";
import type { WarehouseOrder } from "../app/warehouse/schemas";
import { DELIVERY_METHOD, OPERATIONS, PAYMENT_METHOD } from "../app/warehouse/wire";
import { startWarehouseSimulator } from "../test/warehouse-sim";
import { KYIV_CITY_REF } from "../test/warehouse-sim/reference-data";
import { startSimulatorProcess } from "./support";

const CALLS_PER_KIND = Number(process.env.BENCH_CALLS ?? 2_000);
const CAPACITY_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 32;

const sim = await startWarehouseSimulator({ rateLimits: false, insufficientStock: "accept" });
const branch = sim.reference.branchesInCity(KYIV_CITY_REF)[0]!.Ref;
sim.seedProducts([{ sku: "BENCH-1", name: "Bench item", quantity: 1_000_000 }]);

const unlimited = new WarehouseRateLimiter(new MemoryRateLimitStore(), {
  limits: { requestsPerWindow: Number.MAX_SAFE_INTEGER, reportRequestsPerWindow: 0 },
});
let sequence = 0;
function order(): WarehouseOrder {
  sequence++;
  return {
    id_order: `B${sequence}`,
    date_order: "17.11.2026",
    recipient: "Шевченко Тарас",
    rec_phone: "380671234567",
    Cost: 300,
    payment_method: PAYMENT_METHOD.prepaid,
    order_payment_sum: "300",
    delivery_method: DELIVERY_METHOD.novaPoshta,
    delivery_address: { WarehouseRef: branch },
    products: [{ sku: "BENCH-1", name: "Bench item", count: "2", price: "150" }],
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

// The client's own cost is its whole call minus the time spent on the wire: the injected fetch
// reads the whole answer before handing it over, and adds up how long that took.
let wireMs = 0;
const timedFetch: typeof fetch = async (input, init) => {
  const started = performance.now();
  const response = await fetch(input, init);
  const body = await response.arrayBuffer();
  wireMs += performance.now() - started;
  return new Response(body, { status: response.status, headers: response.headers });
};
const client = createWarehouseClient({
  apiKey: sim.apiKey,
  endpoints: { baseUrl: sim.url, baseUrlV2: sim.urlV2, timeoutMs: 10_000 },
  limiter: unlimited,
  fetch: timedFetch,
});

const kinds: Array<{ name: string; call: () => Promise<unknown> }> = [
  { name: "AddOrder", call: () => client.addOrder(order()) },
  // A large answer (all 1,700 branches of Kyiv), where parsing the answer's schema is most of the cost.
  { name: "getWarehouses(Kyiv)", call: () => client.getWarehouses(KYIV_CITY_REF) },
];

const overhead: Record<string, unknown> = {};
for (const kind of kinds) {
  for (let i = 0; i < 200; i++) await kind.call(); // warm-up: JIT and sockets
  const totalMs: number[] = [];
  const ownMs: number[] = [];
  for (let i = 0; i < CALLS_PER_KIND; i++) {
    wireMs = 0;
    const started = performance.now();
    await kind.call();
    const total = performance.now() - started;
    totalMs.push(total);
    ownMs.push(total - wireMs);
  }
  totalMs.sort((a, b) => a - b);
  ownMs.sort((a, b) => a - b);
  const figures = {
    calls: CALLS_PER_KIND,
    overheadP50Ms: round(percentile(ownMs, 50)),
    overheadP99Ms: round(percentile(ownMs, 99)),
    callP50Ms: round(percentile(totalMs, 50)),
    callP99Ms: round(percentile(totalMs, 99)),
  };
  overhead[kind.name] = figures;
  console.log(`client overhead, ${kind.name}: ${JSON.stringify(figures)}`);
}
await sim.close();

// Capacity: the simulator alone in its own process (as `npm run sim` runs it), CONCURRENCY loops of
// AddOrder and getCities against it from this one for CAPACITY_SECONDS, over node:http with keep-alive
// (fetch is too slow a load generator: the simulator sat idle most of the time behind it).
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: string, body: object): Promise<string> {
  const target = new URL(url);
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": data.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      },
    );
    request.on("error", reject);
    request.end(data);
  });
}

async function capacity() {
  const separate = await startSimulatorProcess({ limits: false });
  await separate.seedProducts([{ sku: "BENCH-1", name: "Bench item", quantity: 100_000_000 }]);
  const call = async (operation: string, fields: object) =>
    JSON.parse(await post(`${separate.url}/${operation}`, { ApiKey: separate.apiKey, ...fields })) as unknown;
  let requests = 0;
  let errors = 0;
  const until = performance.now() + CAPACITY_SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < until) {
        const answer =
          worker % 2
            ? await call(OPERATIONS.addOrder, { order: order() })
            : await call(OPERATIONS.getCities, { CityName: "Льв" });
        if ((answer as { result?: string }).result === "ok") requests++;
        else errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await separate.close();
  agent.destroy();
  return { requests, seconds: round(seconds), perSecond: Math.round(requests / seconds), errors };
}

const simulator = await capacity();
console.log(
  `simulator capacity: ${simulator.perSecond} requests/s (${CONCURRENCY} concurrent AddOrder and getCities, ${simulator.errors} errors)`,
);

console.log(
  JSON.stringify({
    benchmark: "warehouse",
    node: process.version,
    clientOverhead: overhead,
    simulator: { ...simulator, concurrency: CONCURRENCY },
  }),
);

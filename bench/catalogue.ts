// `npm run bench:catalogue`: a full catalogue sync of 10,000 variants (the Shopify fake, its own process)
// against a warehouse (the simulator, its own process, at its real limits) that already holds 99 % of
// them with the same barcode, while orders keep arriving through the webhook. Figures:
// `addProductRequests` (target: the 100 cards the warehouse lacks, no more) and `orderLatencyP50Ms`, from
// an order's webhook to its acceptance at the warehouse during the sync (target < 2,000: the catalogue
// never holds orders up). Prints one JSON object as its last line.
import {
  percentile,
  prepareBenchEnvironment,
  round,
  benchShopInFake,
  startShopifyFakeProcess,
  startSimulatorProcess,
} from "./support";

const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 10_000);
const MISSING = Math.max(1, Math.round(VARIANTS / 100));
const ORDERS = Number(process.env.BENCH_ORDERS ?? 30);
const ORDER_EVERY_MS = 2_000;

await prepareBenchEnvironment();
const { installNetworkGuard, routeShopifyTo } = await import("../test/support/network");
// Before the Shopify library is imported: it keeps the fetch it finds.
installNetworkGuard();
const { orderPayload, startOrderFlow, SHOP } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { offlineShopAdmin } = await import("../app/assembly/engine.server");
const { startCatalogueSync } = await import("../app/catalogue/full-sync.server");
const { wakeWorker } = await import("../app/work/worker.server");
const { WAREHOUSE_RATE_LIMITS } = await import("../app/warehouse/limiter.server");
const { db } = appContext();

const fake = await startShopifyFakeProcess({ restoreRate: 1_000, maximumAvailable: 20_000 });
routeShopifyTo(fake.url);
const warehouse = await benchShopInFake(fake, db, SHOP);

const sku = (i: number) => `CAT-${String(i).padStart(5, "0")}`;
const barcode = (i: number) => `48200${String(i).padStart(8, "0")}`;
const sim = await startSimulatorProcess();
for (let from = 0; from < VARIANTS; from += 1_000) {
  const indexes = Array.from({ length: Math.min(1_000, VARIANTS - from) }, (_, k) => from + k);
  // The warehouse holds every SKU but the last MISSING, under its own names, with Shopify's barcodes.
  await sim.seedProducts(
    indexes
      .filter((i) => i < VARIANTS - MISSING)
      .map((i) => ({ sku: sku(i), name: `Склад ${i}`, barcode: barcode(i) })),
  );
  const products = [];
  for (let p = 0; p < indexes.length; p += 50) {
    products.push({
      title: `Товар ${from + p}`,
      variants: indexes.slice(p, p + 50).map((i) => ({ sku: sku(i), barcode: barcode(i), available: 0 })),
    });
  }
  await fake.control("products", { shop: SHOP, locationId: warehouse.id, products });
}

// The warehouse's real limits on both sides (the harness scales the worker's for the tests).
const flow = await startOrderFlow({
  warehouse: sim,
  worker: { admin: offlineShopAdmin, rateLimits: WAREHOUSE_RATE_LIMITS, sweepIntervalMs: 2_000 },
});
const addProductsBefore = (await sim.stats()).requests.AddProduct ?? 0;
const started = await startCatalogueSync(appContext(), SHOP);
if (!started.ok) throw new Error(started.message);
wakeWorker(SHOP);
const syncStarted = performance.now();

// Orders arrive through the webhook while the sync runs, each timed to its acceptance.
const latencies: number[] = [];
const pending = new Map<string, number>();
let sent = 0;
const poster = setInterval(() => {
  if (sent >= ORDERS) return;
  const n = 900_000 + ++sent;
  const payload = orderPayload(n);
  pending.set(String(payload.id), performance.now());
  void flow.post({ topic: "orders/create", payload });
}, ORDER_EVERY_MS);

const deadline = Date.now() + 60 * 60_000;
for (;;) {
  if (Date.now() > deadline) throw new Error("timed out waiting for the catalogue sync");
  for (const [id, at] of [...pending]) {
    const row = await db.warehouseOrder.findFirst({
      where: { shopifyOrderId: id },
      select: { acceptedAt: true },
    });
    if (row?.acceptedAt) {
      latencies.push(performance.now() - at);
      pending.delete(id);
    }
  }
  const sync = await db.catalogueSync.findUniqueOrThrow({ where: { id: started.sync.id } });
  if (sync.phase === "failed") throw new Error(`the catalogue sync failed: ${sync.error}`);
  if (sync.phase === "done" && sent >= ORDERS && pending.size === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
clearInterval(poster);
const sync = await db.catalogueSync.findUniqueOrThrow({ where: { id: started.sync.id } });
const elapsedS = (performance.now() - syncStarted) / 1000;
const addProductRequests = ((await sim.stats()).requests.AddProduct ?? 0) - addProductsBefore;
await flow.close();
await fake.close();
latencies.sort((a, b) => a - b);

console.log(
  JSON.stringify({
    benchmark: "catalogue",
    database: process.env.DATABASE_URL?.startsWith("postgres") ? "postgresql" : "sqlite",
    variants: VARIANTS,
    missing: MISSING,
    alreadyThere: sync.alreadyThere,
    toSend: sync.toSend,
    addProductRequests,
    targetAddProductRequests: MISSING,
    elapsedS: round(elapsedS, 1),
    orders: latencies.length,
    orderLatencyP50Ms: round(percentile(latencies, 50), 0),
    orderLatencyMaxMs: round(latencies.at(-1) ?? Number.NaN, 0),
    targetOrderLatencyP50Ms: 2_000,
  }),
);
process.exit(0);

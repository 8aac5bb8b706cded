// `npm run bench:stock`: 10,000 SKUs at the warehouse (the simulator) and in the Shopify fake, each in a
// process of its own, synced through the engine's stock kind: a first sync that writes every SKU, then one
// with 1 % of them changed at the warehouse, then one more with 1 % changed while sales race the writes
// (each sale lands in Shopify after the sync read the item and before it writes it). The warehouse's
// report limit is scaled from a minute to a second so the three syncs need not wait for it; Shopify's
// bucket restores BENCH_SHOPIFY_RESTORE points a second. Figures: `mutations` (inventorySetQuantities
// calls: target ⌈changed/250⌉ for the changed sync and ⌈skus/250⌉ for the first), `lost` (sales the sync
// overwrote: target 0), each sync's elapsed time, and `heapMb`, the peak heap of this process, which holds
// the app and its worker (target < 200). Prints one JSON object as its last line.
import {
  prepareBenchEnvironment,
  round,
  benchShopInFake,
  startShopifyFakeProcess,
  startSimulatorProcess,
} from "./support";

const SKUS = Number(process.env.BENCH_SKUS ?? 10_000);
const RESTORE = Number(process.env.BENCH_SHOPIFY_RESTORE ?? 2_000);
const CHANGED = Math.max(1, Math.round(SKUS / 100));
const SALES = Math.min(20, CHANGED);

await prepareBenchEnvironment();
const { installNetworkGuard, routeShopifyTo } = await import("../test/support/network");
// Before the Shopify library is imported: it keeps the fetch it finds.
installNetworkGuard();
const { startOrderFlow, SHOP } = await import("../test/e2e/harness");
const { appContext } = await import("../app/context.server");
const { offlineShopAdmin } = await import("../app/assembly/engine.server");
const { createShopAdmin } = await import("../app/shopify/admin-graphql.server");
const { unauthenticated } = await import("../app/shopify.server");
const { saveStatusSettings } = await import("../app/statuses/settings.server");
const { requestStockSync } = await import("../app/stock/kinds.server");
const { wakeWorker } = await import("../app/work/worker.server");
const { db } = appContext();

let peakHeap = 0;
const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 20);

const fake = await startShopifyFakeProcess({
  restoreRate: RESTORE,
  maximumAvailable: Math.max(2_000, RESTORE),
});
routeShopifyTo(fake.url);
const warehouse = await benchShopInFake(fake, db, SHOP);

const sku = (i: number) => `BENCH-${String(i).padStart(5, "0")}`;
const skus = Array.from({ length: SKUS }, (_, i) => sku(i));
const sim = await startSimulatorProcess();
const limits = { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1 };
await sim.control("limits", limits);
const warehouseQuantity = new Map(skus.map((name, i) => [name, (i % 17) + 1]));
for (let from = 0; from < SKUS; from += 1_000) {
  const names = skus.slice(from, from + 1_000);
  await sim.seedProducts(names.map((name) => ({ sku: name, name, quantity: warehouseQuantity.get(name)! })));
  // A hundred variants a product, none in stock in Shopify yet.
  const products = [];
  for (let p = 0; p < names.length; p += 100) {
    products.push({
      title: `Товари ${from + p}`,
      variants: names.slice(p, p + 100).map((name) => ({ sku: name, available: 0 })),
    });
  }
  await fake.control("products", { shop: SHOP, locationId: warehouse.id, products });
}

/** Armed for one sync: right before its first write, a sale of one unit of each of these SKUs in Shopify. */
let salesBeforeWrite: string[] = [];
const sold = new Set<string>();
const admin = async (shop: string, signal: AbortSignal) => {
  if (!salesBeforeWrite.length) return offlineShopAdmin(shop, signal);
  const { admin: context } = await unauthenticated.admin(shop);
  return createShopAdmin(
    async (query, options) => {
      if (String(query).includes("inventorySetQuantities") && salesBeforeWrite.length) {
        const selling = salesBeforeWrite.splice(0);
        await fake.control("sales", { shop: SHOP, locationId: warehouse.id, skus: selling });
        for (const name of selling) sold.add(name);
      }
      return context.graphql(query, options);
    },
    { signal },
  );
};

const flow = await startOrderFlow({
  warehouse: sim,
  worker: { rateLimits: limits, admin, sweepIntervalMs: 200 },
});
const setQuantityCalls = async () => (await fake.stats()).operations.StockSetQuantities ?? 0;

/** Runs one sync (asked for now) and answers its record and the calls it made. */
async function syncOnce(first: boolean) {
  const callsBefore = await setQuantityCalls();
  const before = await db.stockSync.count({ where: { finishedAt: { not: null } } });
  const started = performance.now();
  if (first) {
    await saveStatusSettings(appContext(), SHOP, { locationId: warehouse.id }, [warehouse]);
  } else {
    await requestStockSync(db, SHOP, new Date(), true);
  }
  wakeWorker(SHOP);
  const deadline = Date.now() + 30 * 60_000;
  while ((await db.stockSync.count({ where: { finishedAt: { not: null } } })) === before) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the stock sync");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const elapsedS = (performance.now() - started) / 1000;
  const record = await db.stockSync.findFirstOrThrow({ orderBy: { startedAt: "desc" } });
  if (record.error) throw new Error(`the stock sync failed: ${record.error}`);
  return { record, elapsedS, mutations: (await setQuantityCalls()) - callsBefore };
}

/** Changes `count` SKUs at the warehouse, spread over the catalogue from `from`, and answers them. */
async function changeAtWarehouse(from: number, count: number): Promise<string[]> {
  const changed = Array.from({ length: count }, (_, k) => sku((from + k * 97) % SKUS));
  await sim.seedProducts(
    changed.map((name) => {
      const quantity = warehouseQuantity.get(name)! + 5;
      warehouseQuantity.set(name, quantity);
      return { sku: name, quantity };
    }),
  );
  return changed;
}

const firstSync = await syncOnce(true);
await changeAtWarehouse(1, CHANGED);
const changedSync = await syncOnce(false);
const racing = await changeAtWarehouse(50, CHANGED);
salesBeforeWrite = racing.slice(0, SALES);
const racedSync = await syncOnce(false);
clearInterval(sampler);

// A sale is lost when Shopify shows more for sale than the warehouse's free stock less what Shopify sold;
// anything else that differs from the warehouse is wrong.
let lost = 0;
let wrong = 0;
for (let from = 0; from < SKUS; from += 5_000) {
  const { levels } = (await fake.control("levels", {
    shop: SHOP,
    locationId: warehouse.id,
    skus: skus.slice(from, from + 5_000),
  })) as { levels: { sku: string; available: number | null }[] };
  for (const level of levels) {
    const expected = warehouseQuantity.get(level.sku)! - (sold.has(level.sku) ? 1 : 0);
    if (level.available === expected) continue;
    if (sold.has(level.sku) && (level.available ?? 0) > expected) lost++;
    else wrong++;
  }
}
await flow.close();
await fake.close();

console.log(
  JSON.stringify({
    benchmark: "stock",
    database: process.env.DATABASE_URL?.startsWith("postgres") ? "postgresql" : "sqlite",
    skus: SKUS,
    shopifyRestorePerS: RESTORE,
    first: {
      changed: firstSync.record.changed,
      mutations: firstSync.mutations,
      targetMutations: Math.ceil(SKUS / 250),
      elapsedS: round(firstSync.elapsedS, 1),
    },
    changed: changedSync.record.changed,
    mutations: changedSync.mutations,
    targetMutations: Math.ceil(CHANGED / 250),
    elapsedS: round(changedSync.elapsedS, 1),
    raced: {
      changed: racedSync.record.changed,
      sales: sold.size,
      mutations: racedSync.mutations,
      elapsedS: round(racedSync.elapsedS, 1),
    },
    lost,
    wrong,
    heapMb: round(peakHeap / 1024 / 1024, 1),
    targetHeapMb: 200,
  }),
);
process.exit(0);

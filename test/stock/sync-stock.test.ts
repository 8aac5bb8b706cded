// The stock sync against the Shopify fake, over real HTTP through the app's own Admin client: quantities set
// against what was read, in calls of at most 250, nothing sent when nothing changed, a sale meanwhile never
// overwritten, new items stocked at the location, drift reported, throttling waited out.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { createShopAdmin, type AdminGraphql, type ShopAdmin } from "../../app/shopify/admin-graphql.server";
import { unauthenticated } from "../../app/shopify.server";
import type { WarehouseStockRow } from "../../app/stock/plan";
import {
  MAX_STALE_RETRIES,
  skuSearchTerm,
  StockLocationNotFound,
  syncStock,
  type SyncStockInput,
} from "../../app/stock/shopify.server";
import { startShopifyFake, type LocationRecord, type ShopifyFake, type ShopStore } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const { db } = appContext();
const REFERENCE = "gid://sklad-sync/StockSync/sync-1";

let fake: ShopifyFake;
let store: ShopStore;
let warehouse: LocationRecord;
let shopFloor: LocationRecord;
let waits: number[];

beforeAll(async () => {
  fake = await startShopifyFake();
  routeShopifyTo(fake.url);
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
});

let shopCount = 0;
beforeEach(async () => {
  // A shop of its own per test: the fake keeps state for the whole file.
  const domain = `stock-shop-${++shopCount}.myshopify.com`;
  store = fake.state.addShop({ domain, accessToken: `shpat_stock_${shopCount}` });
  warehouse = store.addLocation({ name: "Склад Київ" });
  shopFloor = store.addLocation({ name: "Магазин" });
  waits = [];
  await db.session.create({
    data: {
      id: `offline_${domain}`,
      shop: domain,
      state: "",
      accessToken: store.shop.accessToken,
      scope: "",
    },
  });
});
afterEach(() => {
  fake.setThrottle({ shop: store.shop.myshopifyDomain, currentlyAvailable: 2000, restoreRate: 100 });
});

/** The app's client for the shop; `intercept` may act around a request, as a sale racing the sync. */
async function shopAdmin(
  intercept?: (query: string, send: () => Promise<Response>) => Promise<Response>,
): Promise<ShopAdmin> {
  const { admin } = await unauthenticated.admin(store.shop.myshopifyDomain);
  const graphql: AdminGraphql = (query, options) =>
    intercept ? intercept(String(query), () => admin.graphql(query, options)) : admin.graphql(query, options);
  return createShopAdmin(graphql, { sleep: async (ms) => void waits.push(ms) });
}

async function sync(overrides: Partial<SyncStockInput> & { warehouseRows: WarehouseStockRow[] }) {
  return syncStock({
    admin: await shopAdmin(),
    locationId: warehouse.id,
    quantityName: "available",
    referenceDocumentUri: REFERENCE,
    idempotencyKey: (seed) => `sync-1:${seed}`,
    ...overrides,
  });
}

/** A product whose one variant has `sku`, stocked where `inventory` says (nowhere when it is empty). */
function variant(
  sku: string,
  inventory: Array<{ locationId: string; available?: number; committed?: number }>,
) {
  return store.addProduct({ title: sku, variants: [{ sku, inventory }] }).variants[0]!;
}
const row = (sku: string, quantity: number, quantityAvailable = quantity): WarehouseStockRow => ({
  sku,
  quantity,
  quantityAvailable,
});
const at = (sku: string) => store.level(store.variantBySku(sku)!.inventoryItemId, warehouse.id);
const available = (sku: string) => at(sku)?.quantities.available;
/** A sale in Shopify: units move from available to committed, on_hand stays. */
function sell(sku: string, units = 1) {
  const level = at(sku)!;
  level.quantities.available -= units;
  level.quantities.committed += units;
}

const requests = () => fake.requests.filter((request) => request.shop === store.shop.myshopifyDomain);
const operations = () => requests().map((request) => request.operationName);
const sentQuantities = () =>
  requests()
    .filter((request) => request.operationName === "StockSetQuantities")
    .map((request) => request.variables as { input: { quantities: unknown[] }; idempotencyKey: string });

describe("syncStock", () => {
  it("sets every quantity that differs against the quantity read, in calls of at most 250", async () => {
    const skus = Array.from({ length: 600 }, (_, index) => `SKU-${String(index).padStart(3, "0")}`);
    for (const sku of skus) variant(sku, [{ locationId: warehouse.id, available: 1 }]);
    // Three pages of levels cost more than the bucket holds, and the test's sleep takes no time: a Plus shop's rate.
    fake.setThrottle({ shop: store.shop.myshopifyDomain, restoreRate: 100_000 });

    const report = await sync({ warehouseRows: skus.map((sku) => row(sku, 9, 4)) });

    expect(skus.map(available)).toEqual(skus.map(() => 4));
    const calls = sentQuantities();
    expect(calls.map((call) => call.input.quantities.length)).toEqual([250, 250, 100]);
    expect(calls[0]!.input).toMatchObject({
      name: "available",
      reason: "correction",
      referenceDocumentUri: REFERENCE,
    });
    expect(calls[0]!.input.quantities[0]).toEqual({
      inventoryItemId: store.variantBySku("SKU-000")!.inventoryItemId,
      locationId: warehouse.id,
      quantity: 4,
      changeFromQuantity: 1,
    });
    expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(3);
    expect(calls.every((call) => call.idempotencyKey.startsWith("sync-1:set:"))).toBe(true);
    expect(report.counts).toMatchObject({ skus: 600, changed: 600, written: 600, mutations: 3, failed: 0 });
    expect(report.written[0]).toEqual({
      sku: "SKU-000",
      inventoryItemId: store.variantBySku("SKU-000")!.inventoryItemId,
      from: 1,
      to: 4,
    });
    expect(report.stoppedBy).toBeNull();
  });

  it("sends no mutation when Shopify already holds the warehouse's figures", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 1 }]);
    variant("RSH-1", [{ locationId: warehouse.id, available: 0 }]);
    const warehouseRows = [row("VSH-M", 6, 5), row("RSH-1", 0)];
    await sync({ warehouseRows });
    const before = requests().length;

    const again = await sync({ warehouseRows });

    expect(operations().slice(before)).toEqual(["StockAtLocation"]);
    expect(again.counts).toMatchObject({ changed: 0, written: 0, unchanged: 2, mutations: 0 });
  });

  it("writes physical stock as on_hand, which leaves Shopify's committed units in place", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 2, committed: 1 }]);
    const report = await sync({ warehouseRows: [row("VSH-M", 8, 3)], quantityName: "on_hand" });
    expect(report.written).toMatchObject([{ sku: "VSH-M", from: 3, to: 8 }]);
    expect(at("VSH-M")!.quantities).toMatchObject({ available: 7, committed: 1 });
  });

  it("stocks a tracked item at the location first, and reports untracked items, shared SKUs and drift", async () => {
    const elsewhere = variant("NEW-1", [{ locationId: shopFloor.id, available: 3 }]);
    const zero = variant("ZERO-1", []);
    const untracked = variant("UNTRACKED-1", [{ locationId: warehouse.id, available: 0 }]);
    store.inventoryItems.get(untracked.inventoryItemId)!.tracked = false;
    // One stocked at the warehouse, one not: Shopify's duplicateSkuCount brings the second into view.
    const shared = [variant("SHARED-1", [{ locationId: warehouse.id }]), variant("SHARED-1", [])];
    const gone = variant("GONE-1", [{ locationId: warehouse.id, available: 2 }]);

    const report = await sync({
      warehouseRows: [
        row("NEW-1", 5),
        row("ZERO-1", 0),
        row("UNTRACKED-1", 4),
        row("SHARED-1", 7),
        row("ONLY-WH", 1),
      ],
    });

    expect(report.activated).toEqual([
      { sku: "NEW-1", inventoryItemId: elsewhere.inventoryItemId },
      { sku: "ZERO-1", inventoryItemId: zero.inventoryItemId },
    ]);
    expect(available("NEW-1")).toBe(5);
    expect(available("ZERO-1")).toBe(0);
    expect(store.level(elsewhere.inventoryItemId, shopFloor.id)!.quantities.available).toBe(3);
    expect(report.untracked).toEqual([{ sku: "UNTRACKED-1", inventoryItemId: untracked.inventoryItemId }]);
    expect(available("UNTRACKED-1")).toBe(0);
    expect(report.sharedSkus).toEqual([
      { sku: "SHARED-1", inventoryItemIds: shared.map((item) => item.inventoryItemId) },
    ]);
    expect(store.level(shared[0]!.inventoryItemId, warehouse.id)!.quantities.available).toBe(0);
    expect(report.missingInShopify).toEqual(["ONLY-WH"]);
    expect(report.missingAtWarehouse).toEqual([
      { sku: "GONE-1", inventoryItemId: gone.inventoryItemId, quantity: 2 },
    ]);
    expect(available("GONE-1")).toBe(2);
    expect(report.counts).toMatchObject({ activated: 2, untracked: 1, written: 1, mutations: 1 });
    const activations = requests().filter((request) => request.operationName === "StockActivateItem");
    expect(activations.map((request) => request.variables.idempotencyKey)).toEqual([
      `sync-1:activate:${elsewhere.inventoryItemId.split("/").pop()}`,
      `sync-1:activate:${zero.inventoryItemId.split("/").pop()}`,
    ]);
  });

  it("finds SKUs with spaces, colons and quotes, and a SKU written as a query finds only itself", async () => {
    const skus = ["VSH M", "a:b", 'say "hi"', "back\\slash"];
    for (const sku of skus) variant(sku, []);
    variant("VSH-M", []);
    const hostile = 'x" OR sku:"VSH-M';
    const found: string[] = [];
    const admin = await shopAdmin(async (query, send) => {
      const response = await send();
      if (query.includes("StockItemsBySku")) {
        const body = (await response.clone().json()) as {
          data: { productVariants: { nodes: Array<{ sku: string }> } };
        };
        found.push(...body.data.productVariants.nodes.map((node) => node.sku));
      }
      return response;
    });

    const report = await syncStock({
      admin,
      warehouseRows: [...skus, hostile].map((sku) => row(sku, 2)),
      locationId: warehouse.id,
      quantityName: "available",
      referenceDocumentUri: REFERENCE,
      idempotencyKey: (seed) => `sync-1:${seed}`,
    });

    expect(skuSearchTerm(hostile)).toBe('sku:"x\\" OR sku:\\"VSH-M"');
    expect(found.sort()).toEqual([...skus].sort());
    expect(skus.map(available)).toEqual([2, 2, 2, 2]);
    expect(report.missingInShopify).toEqual([hostile]);
    expect(at("VSH-M")).toBeUndefined();
  });

  it("keeps a sale made between the read and the write: the item is read again and written net of it", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 5 }]);
    variant("RSH-1", [{ locationId: warehouse.id, available: 0 }]);
    let raced = false;
    const admin = await shopAdmin(async (query, send) => {
      if (query.includes("StockSetQuantities") && !raced) {
        raced = true;
        sell("VSH-M");
      }
      return send();
    });

    const report = await syncStock({
      admin,
      warehouseRows: [row("VSH-M", 3), row("RSH-1", 2)],
      locationId: warehouse.id,
      quantityName: "available",
      referenceDocumentUri: REFERENCE,
      idempotencyKey: (seed) => `sync-1:${seed}`,
    });

    // The warehouse's report predates the sale: 3 free there, one of them sold in Shopify since, so 2 for sale.
    expect(at("VSH-M")!.quantities).toMatchObject({ available: 2, committed: 1 });
    expect(available("RSH-1")).toBe(2);
    expect(report.counts).toMatchObject({ written: 2, mutations: 2, staleRetries: 1, failed: 0 });
    expect(report.written).toContainEqual({
      sku: "VSH-M",
      inventoryItemId: store.variantBySku("VSH-M")!.inventoryItemId,
      from: 4,
      to: 2,
    });
    const [first, second] = sentQuantities();
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey);
    expect(operations()).toEqual([
      "StockAtLocation",
      "StockSetQuantities",
      "StockQuantitiesNow",
      "StockSetQuantities",
    ]);
  });

  it.each<[string, (sku: string) => void]>([
    // A sale does not move on_hand: the write goes through, and the sale's committed unit stays inside on_hand.
    ["a sale", (sku) => sell(sku)],
    // A merchant's count of two more moves it: stale, and the warehouse's physical count stands.
    ["a correction", (sku) => void (at(sku)!.quantities.available += 2)],
  ])("on_hand: %s meanwhile leaves on_hand at the warehouse's count", async (_, race) => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 5 }]);
    let raced = false;
    const admin = await shopAdmin(async (query, send) => {
      if (query.includes("StockSetQuantities") && !raced) {
        raced = true;
        race("VSH-M");
      }
      return send();
    });
    const report = await syncStock({
      admin,
      warehouseRows: [row("VSH-M", 8, 6)],
      locationId: warehouse.id,
      quantityName: "on_hand",
      referenceDocumentUri: REFERENCE,
      idempotencyKey: (seed) => `sync-1:${seed}`,
    });
    expect(store.quantity(at("VSH-M")!, "on_hand")).toBe(8);
    expect(report.counts.written).toBe(1);
  });

  it("reports a quantity that keeps changing after bounded retries, and writes the rest of its call", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 50 }]);
    variant("RSH-1", [{ locationId: warehouse.id, available: 0 }]);
    const admin = await shopAdmin(async (query, send) => {
      if (query.includes("StockSetQuantities")) sell("VSH-M");
      return send();
    });
    const report = await syncStock({
      admin,
      warehouseRows: [row("VSH-M", 3), row("RSH-1", 2)],
      locationId: warehouse.id,
      quantityName: "available",
      referenceDocumentUri: REFERENCE,
      idempotencyKey: (seed) => `sync-1:${seed}`,
    });
    expect(report.failures).toEqual([
      {
        sku: "VSH-M",
        inventoryItemId: store.variantBySku("VSH-M")!.inventoryItemId,
        step: "write",
        code: "CHANGE_FROM_QUANTITY_STALE",
        message: expect.stringMatching(/kept changing/),
      },
    ]);
    expect(available("RSH-1")).toBe(2);
    expect(report.counts).toMatchObject({
      written: 1,
      failed: 1,
      staleRetries: MAX_STALE_RETRIES,
      mutations: MAX_STALE_RETRIES + 2,
      notAttempted: 0,
    });
  });

  it("reports a quantity Shopify refuses with its code, and writes the rest of its call", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 1 }]);
    variant("RSH-1", [{ locationId: warehouse.id, available: 0 }]);
    const report = await sync({ warehouseRows: [row("VSH-M", 2_000_000_000), row("RSH-1", 2)] });
    expect(report.failures).toEqual([
      expect.objectContaining({ sku: "VSH-M", step: "write", code: "INVALID_QUANTITY_TOO_HIGH" }),
    ]);
    expect(available("VSH-M")).toBe(1);
    expect(available("RSH-1")).toBe(2);
    expect(report.counts).toMatchObject({ written: 1, failed: 1, mutations: 2, staleRetries: 0 });
  });

  it("reports an item Shopify refuses to stock, and writes nothing for it", async () => {
    const deleted = variant("GONE-1", [{ locationId: shopFloor.id, available: 1 }]);
    variant("VSH-M", [{ locationId: warehouse.id, available: 0 }]);
    // The merchant deletes the product while the sync runs.
    const admin = await shopAdmin(async (query, send) => {
      if (query.includes("StockActivateItem")) store.inventoryItems.delete(deleted.inventoryItemId);
      return send();
    });
    const report = await syncStock({
      admin,
      warehouseRows: [row("GONE-1", 4), row("VSH-M", 2)],
      locationId: warehouse.id,
      quantityName: "available",
      referenceDocumentUri: REFERENCE,
      idempotencyKey: (seed) => `sync-1:${seed}`,
    });
    expect(report.failures).toEqual([
      {
        sku: "GONE-1",
        inventoryItemId: deleted.inventoryItemId,
        step: "activate",
        code: null,
        message: "Inventory item does not exist",
      },
    ]);
    expect(sentQuantities().map((call) => call.input.quantities.length)).toEqual([1]);
    expect(available("VSH-M")).toBe(2);
    expect(report.counts).toMatchObject({ changed: 2, activated: 0, written: 1, failed: 1, notAttempted: 0 });
  });

  it("sends a call again under a new key when Shopify will not run its key", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 0 }]);
    const admin = await shopAdmin();
    // An earlier request under the key the first call is given, with other parameters.
    await admin.mutate(
      `mutation Earlier($input: InventorySetQuantitiesInput!) {
        inventorySetQuantities(input: $input) @idempotent(key: "taken") { userErrors { code } } }`,
      { input: { name: "available", reason: "correction", quantities: [] } },
    );
    let calls = 0;
    const report = await syncStock({
      admin,
      warehouseRows: [row("VSH-M", 2)],
      locationId: warehouse.id,
      quantityName: "available",
      referenceDocumentUri: REFERENCE,
      idempotencyKey: (seed) => (calls++ === 0 ? "taken" : `sync-1:${seed}`),
    });
    expect(available("VSH-M")).toBe(2);
    expect(report.counts).toMatchObject({ written: 1, mutations: 2, failed: 0, staleRetries: 0 });
  });

  it("waits out THROTTLED answers and writes once", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 1 }]);
    fake.throttleNext(2);
    const report = await sync({ warehouseRows: [row("VSH-M", 4)] });
    expect(waits).toHaveLength(2);
    expect(available("VSH-M")).toBe(4);
    expect(report.counts).toMatchObject({ written: 1, mutations: 1 });
  });

  it("stops when Shopify keeps throttling, reporting what it wrote and what it did not try", async () => {
    const skus = Array.from({ length: 300 }, (_, index) => `SKU-${index}`);
    for (const sku of skus) variant(sku, [{ locationId: warehouse.id, available: 0 }]);
    const admin = await shopAdmin(async (query, send) => {
      const response = await send();
      // After the first call the bucket empties and refills at 1 point a second: longer than a step waits.
      if (query.includes("StockSetQuantities")) {
        fake.setThrottle({ shop: store.shop.myshopifyDomain, currentlyAvailable: 0, restoreRate: 1 });
      }
      return response;
    });
    const report = await syncStock({
      admin,
      warehouseRows: skus.map((sku) => row(sku, 1)),
      locationId: warehouse.id,
      quantityName: "available",
      referenceDocumentUri: REFERENCE,
      idempotencyKey: (seed) => `sync-1:${seed}`,
    });
    expect(report.stoppedBy).toMatch(/throttled/);
    expect(report.counts).toMatchObject({ changed: 300, written: 250, notAttempted: 50, mutations: 1 });
    expect(skus.filter((sku) => available(sku) === 1)).toHaveLength(250);
  });

  it("refuses a location Shopify does not have, having written nothing", async () => {
    variant("VSH-M", [{ locationId: warehouse.id, available: 1 }]);
    await expect(
      sync({ warehouseRows: [row("VSH-M", 4)], locationId: "gid://shopify/Location/1" }),
    ).rejects.toThrow(StockLocationNotFound);
    expect(available("VSH-M")).toBe(1);
  });
});

describe("a large catalogue", () => {
  it("syncs 10,000 SKUs with the heap well under 200 MB, the Shopify fake's included", async () => {
    const skus = Array.from({ length: 10_000 }, (_, index) => `SKU-${String(index).padStart(5, "0")}`);
    // The last 100 are stocked elsewhere only: found by SKU, then stocked at the warehouse location.
    skus.forEach((sku, index) =>
      variant(sku, [{ locationId: index < 9_900 ? warehouse.id : shopFloor.id, available: 1 }]),
    );
    fake.setThrottle({ shop: store.shop.myshopifyDomain, restoreRate: 1_000_000 });
    let peak = 0;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    try {
      const report = await sync({ warehouseRows: skus.map((sku, index) => row(sku, 9, index % 7)) });
      // A figure of 1 where Shopify holds 1, or of 0 for an item just stocked, sends nothing.
      expect(report.counts).toMatchObject({ skus: 10_000, activated: 100, unchanged: 1_429 });
      expect(report.counts).toMatchObject({ written: 8_571, mutations: 35, failed: 0 });
    } finally {
      clearInterval(sample);
    }
    expect(peak / 2 ** 20).toBeLessThan(200);
  }, 60_000);
});

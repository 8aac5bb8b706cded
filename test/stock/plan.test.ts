// The stock plan: which warehouse figure lands on which Shopify item, what is left alone, what is reported, and
// the setting that picks the figure.
import { describe, expect, it } from "vitest";
import {
  chunkChanges,
  planStock,
  rebaseStaleChange,
  skusToLookUp,
  type ShopifyStockItem,
  type StockChange,
  type WarehouseStockRow,
} from "../../app/stock/plan";
import { quantityNameSchema, type QuantityName } from "../../app/stock/quantities";

const row = (sku: string, quantity: number, quantityAvailable = quantity): WarehouseStockRow => ({
  sku,
  quantity,
  quantityAvailable,
});
let nextId = 1;
const item = (sku: string | null, quantity: number | null, tracked = true): ShopifyStockItem => ({
  inventoryItemId: `gid://shopify/InventoryItem/${nextId++}`,
  sku,
  tracked,
  quantity,
});
const plan = (
  rows: WarehouseStockRow[],
  items: ShopifyStockItem[],
  quantityName: QuantityName = "available",
) => planStock({ rows, items, quantityName });

describe("planStock", () => {
  it("keeps off sale, with available, the units of orders the warehouse has not taken, and lists them", () => {
    const promised = new Map([
      ["VSH-M", 3],
      ["RSH-1", 5],
      ["NOT-HERE", 2],
    ]);
    const items = [item("VSH-M", 7), item("RSH-1", 4), item("KEPT", 1)];
    const rows = [row("VSH-M", 9, 7), row("RSH-1", 4), row("KEPT", 1)];
    const result = planStock({ rows, items, quantityName: "available", promised });
    // 7 free less 3 promised; 4 free less 5 promised is none (never below 0).
    expect(result.changes.map(({ sku, quantity }) => ({ sku, quantity }))).toEqual([
      { sku: "VSH-M", quantity: 4 },
      { sku: "RSH-1", quantity: 0 },
    ]);
    expect(result.promised).toEqual([
      { sku: "VSH-M", units: 3 },
      { sku: "RSH-1", units: 5 },
    ]);
    // With on_hand Shopify subtracts its committed orders itself: the physical figure goes as it is.
    const onHand = planStock({ rows, items, quantityName: "on_hand", promised });
    expect(onHand.changes.map(({ sku, quantity }) => ({ sku, quantity }))).toEqual([
      { sku: "VSH-M", quantity: 9 },
    ]);
    expect(onHand.promised).toEqual([]);
  });

  it("sends nothing for an item that already holds the warehouse's figure", () => {
    const result = plan([row("VSH-M", 7), row("RSH-1", 0)], [item("VSH-M", 7), item("RSH-1", 0)]);
    expect(result.changes).toEqual([]);
    expect(result.unchanged).toBe(2);
    expect(result.activations).toEqual([]);
  });

  it("sets a quantity that differs, comparing against the quantity Shopify holds", () => {
    const shirt = item("VSH-M", 7);
    const result = plan([row("VSH-M", 9, 4)], [shirt]);
    expect(result.changes).toEqual([
      { inventoryItemId: shirt.inventoryItemId, sku: "VSH-M", quantity: 4, changeFromQuantity: 7 },
    ]);
    expect(result.unchanged).toBe(0);
  });

  it("writes free stock as available and physical stock as on_hand", () => {
    const shirt = item("VSH-M", 2);
    const rows = [row("VSH-M", 10, 6)];
    expect(plan(rows, [shirt], "available").changes[0]).toMatchObject({ quantity: 6, changeFromQuantity: 2 });
    expect(plan(rows, [shirt], "on_hand").changes[0]).toMatchObject({ quantity: 10, changeFromQuantity: 2 });
    // The same item and report: unchanged under one name, a change under the other.
    expect(plan(rows, [item("VSH-M", 10)], "on_hand").changes).toEqual([]);
    expect(plan(rows, [item("VSH-M", 10)], "available").changes).toHaveLength(1);
  });

  it("stocks a tracked item at the location first, then writes it from 0 unless its figure is 0", () => {
    const shirt = item("VSH-M", null);
    const towel = item("RSH-1", null);
    const result = plan([row("VSH-M", 5), row("RSH-1", 0)], [shirt, towel]);
    expect(result.activations).toEqual([
      { sku: "VSH-M", inventoryItemId: shirt.inventoryItemId },
      { sku: "RSH-1", inventoryItemId: towel.inventoryItemId },
    ]);
    expect(result.changes).toEqual([
      { inventoryItemId: shirt.inventoryItemId, sku: "VSH-M", quantity: 5, changeFromQuantity: 0 },
    ]);
    expect(result.unchanged).toBe(1);
  });

  it("reports an item Shopify does not track, and neither stocks nor writes it", () => {
    const untracked = item("VSH-M", null, false);
    const stockedButUntracked = item("RSH-1", 3, false);
    const result = plan([row("VSH-M", 5), row("RSH-1", 1)], [untracked, stockedButUntracked]);
    expect(result.untracked).toEqual([
      { sku: "VSH-M", inventoryItemId: untracked.inventoryItemId },
      { sku: "RSH-1", inventoryItemId: stockedButUntracked.inventoryItemId },
    ]);
    expect(result.changes).toEqual([]);
    expect(result.activations).toEqual([]);
  });

  it("writes nothing to a SKU several Shopify items share, and names them all", () => {
    const [first, second] = [item("VSH-M", 1), item("VSH-M", null)];
    const result = plan([row("VSH-M", 5)], [first, second]);
    expect(result.sharedSkus).toEqual([
      { sku: "VSH-M", inventoryItemIds: [first.inventoryItemId, second.inventoryItemId] },
    ]);
    expect(result.changes).toEqual([]);
    expect(result.activations).toEqual([]);
  });

  it("reports drift both ways: a SKU only at the warehouse, and a tracked item only in Shopify left as it is", () => {
    const onlyInShopify = item("OLD-1", 4);
    const result = plan(
      [row("NEW-1", 3)],
      [onlyInShopify, item("UNTRACKED-1", 2, false), item("ELSEWHERE-1", null)],
    );
    expect(result.missingInShopify).toEqual(["NEW-1"]);
    // Absent from a report that lists zeros means no card at the warehouse: reported, never written as 0.
    expect(result.missingAtWarehouse).toEqual([
      { sku: "OLD-1", inventoryItemId: onlyInShopify.inventoryItemId, quantity: 4 },
    ]);
    expect(result.changes).toEqual([]);
  });

  it("uses no row it would have to guess about: a blank SKU, a SKU listed twice, a figure not a whole number", () => {
    const result = plan(
      [row("", 3), row("VSH-M", 1), row("VSH-M", 2), row("RSH-1", 1.5), row("RSH-2", -1), row("OK-1", 4)],
      [item("VSH-M", 0), item("RSH-1", 0), item("RSH-2", 0), item("OK-1", 0), item(null, 2)],
    );
    expect(result.invalidRows).toEqual([
      { sku: "", reason: "blank_sku" },
      { sku: "VSH-M", reason: "listed_twice" },
      { sku: "RSH-1", reason: "not_a_whole_number" },
      { sku: "RSH-2", reason: "not_a_whole_number" },
    ]);
    expect(result.changes.map((change) => change.sku)).toEqual(["OK-1"]);
    // Reported by the warehouse, if unusably: not drift.
    expect(result.missingAtWarehouse).toEqual([]);
    expect(result.withoutSku).toBe(1);
  });

  it("matches SKUs exactly, as Shopify keeps them case-sensitive", () => {
    const result = plan([row("vsh-m", 5)], [item("VSH-M", 1)]);
    expect(result.missingInShopify).toEqual(["vsh-m"]);
    expect(result.missingAtWarehouse.map((missing) => missing.sku)).toEqual(["VSH-M"]);
  });
});

describe("skusToLookUp", () => {
  it("asks for the report's SKUs the location lacks, and those Shopify says another item shares", () => {
    const rows = [
      row("AT-LOCATION", 1),
      row("ELSEWHERE", 1),
      row("SHARED", 1),
      row("", 1),
      row("ELSEWHERE", 2),
    ];
    const atLocation = [
      { sku: "AT-LOCATION", duplicateSkuCount: 0 },
      { sku: "SHARED", duplicateSkuCount: 1 },
      { sku: "NOT-REPORTED", duplicateSkuCount: 3 },
      { sku: null, duplicateSkuCount: 0 },
    ];
    expect(skusToLookUp(rows, atLocation)).toEqual(["ELSEWHERE", "SHARED"]);
  });
});

describe("chunkChanges", () => {
  const changes = (count: number): StockChange[] =>
    Array.from({ length: count }, (_, index) => ({
      inventoryItemId: `gid://shopify/InventoryItem/${index}`,
      sku: `SKU-${index}`,
      quantity: 1,
      changeFromQuantity: 0,
    }));

  it("splits into calls of at most 250 quantities, in order", () => {
    const all = changes(600);
    const chunks = chunkChanges(all);
    expect(chunks.map((chunk) => chunk.length)).toEqual([250, 250, 100]);
    expect(chunks.flat()).toEqual(all);
    expect(chunkChanges(changes(250)).map((chunk) => chunk.length)).toEqual([250]);
    expect(chunkChanges([])).toEqual([]);
  });
});

describe("rebaseStaleChange", () => {
  const change: StockChange = {
    inventoryItemId: "gid://shopify/InventoryItem/1",
    sku: "VSH-M",
    quantity: 5,
    changeFromQuantity: 8,
  };

  it("keeps a sale made meanwhile on top of the warehouse's free stock, never below 0", () => {
    // Read 8, the warehouse says 5 free, one sold meanwhile: 4, so the sold unit is not offered again.
    expect(rebaseStaleChange(change, 7, "available")).toEqual({
      ...change,
      quantity: 4,
      changeFromQuantity: 7,
    });
    expect(rebaseStaleChange({ ...change, quantity: 0 }, 7, "available")).toMatchObject({ quantity: 0 });
    // A return or cancellation meanwhile is kept the same way.
    expect(rebaseStaleChange(change, 9, "available")).toMatchObject({ quantity: 6, changeFromQuantity: 9 });
  });

  it("lets the warehouse's physical count stand for on_hand, which a sale does not move", () => {
    expect(rebaseStaleChange(change, 6, "on_hand")).toEqual({
      ...change,
      quantity: 5,
      changeFromQuantity: 6,
    });
  });

  it("leaves nothing to write when Shopify already holds the figure", () => {
    expect(rebaseStaleChange(change, 5, "on_hand")).toBeNull();
    expect(rebaseStaleChange({ ...change, quantity: 0 }, 0, "available")).toBeNull();
  });
});

describe("the quantity name setting", () => {
  it("defaults to available and accepts only Shopify's two settable names", () => {
    expect(quantityNameSchema.parse(undefined)).toBe("available");
    expect(quantityNameSchema.parse("on_hand")).toBe("on_hand");
    expect(quantityNameSchema.safeParse("committed").success).toBe(false);
  });
});

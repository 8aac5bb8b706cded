// What a stock sync writes to Shopify, decided from the warehouse's report and Shopify's picture at the warehouse
// location alone (pure, so every case is tested without a network): the quantities that differ, the items to
// stock at the location first, and the drift a merchant should see, from either side.
import { figureAfterMove, warehouseFigure, type QuantityName, type WarehouseFigures } from "./quantities";

/** inventorySetQuantities takes at most 250 quantities a call. */
export const MAX_QUANTITIES_PER_CALL = 250;

/** A ReportSklad row as the warehouse client returns it (stockRowSchema); only the SKU and figures matter here. */
export interface WarehouseStockRow extends WarehouseFigures {
  sku: string;
}

/** A Shopify inventory item whose SKU concerns the sync, with its quantity at the warehouse location. */
export interface ShopifyStockItem {
  inventoryItemId: string;
  /** Null or blank when the variant has none: such an item cannot be matched with the warehouse. */
  sku: string | null;
  /** Whether Shopify tracks its inventory; only the merchant turns tracking on. */
  tracked: boolean;
  /** The quantity of the synced name at the location; null when the item is not stocked there. */
  quantity: number | null;
}

/** One quantity to set: `changeFromQuantity` is what Shopify held when read, so a move meanwhile is refused. */
export interface StockChange {
  inventoryItemId: string;
  sku: string;
  quantity: number;
  changeFromQuantity: number;
}

export type StockItemRef = { sku: string; inventoryItemId: string };

/** Why a report row is not used: it would be a guess which item, or which figure, it means. */
export type InvalidRowReason = "blank_sku" | "listed_twice" | "not_a_whole_number";

export interface StockPlan {
  /** Only quantities that differ: an unchanged item sends nothing. */
  changes: StockChange[];
  /** Tracked items not yet stocked at the location: activated first, then written from 0 if the figure is not 0. */
  activations: StockItemRef[];
  /** Report rows whose one item already holds the warehouse's figure. */
  unchanged: number;
  /** Items at the warehouse that Shopify does not track: reported, not written, since tracking is the merchant's choice. */
  untracked: StockItemRef[];
  /** SKUs the warehouse reports that no Shopify item has. */
  missingInShopify: string[];
  /**
   * Tracked items stocked at the location whose SKU the warehouse does not report. The report lists zeros too
   * (ExcludeZero false), so a SKU absent from it has no card at the warehouse: that is drift for the merchant to
   * look at, not stock of 0, and the item's quantity is left as it is.
   */
  missingAtWarehouse: Array<StockItemRef & { quantity: number }>;
  /** SKUs the warehouse reports that several Shopify items share: which one the stock is for is not ours to guess. */
  sharedSkus: Array<{ sku: string; inventoryItemIds: string[] }>;
  invalidRows: Array<{ sku: string; reason: InvalidRowReason }>;
  /** Items stocked at the location without a SKU: the warehouse's stock can never reach them. */
  withoutSku: number;
  /**
   * SKUs whose figure was lowered by the units of orders the warehouse has not taken (with `available` only),
   * and by how many: units Shopify counts committed that the warehouse's free stock still counts as free.
   */
  promised: Array<{ sku: string; units: number }>;
}

const hasSku = (sku: string | null): sku is string => sku !== null && sku.trim() !== "";

/**
 * The report's usable figures by SKU, for `quantityName`. SKUs match exactly: Shopify's are case-sensitive, and
 * the warehouse keeps what the catalogue sync sent it.
 */
function readRows(rows: readonly WarehouseStockRow[], quantityName: QuantityName) {
  const bySku = new Map<string, WarehouseStockRow | "listed_twice">();
  let blank = 0;
  for (const row of rows) {
    // Two rows for one card (lots, storage dates): adding them up would be a guess, so neither is used.
    if (hasSku(row.sku)) bySku.set(row.sku, bySku.has(row.sku) ? "listed_twice" : row);
    else blank++;
  }
  const figures = new Map<string, number>();
  const invalidRows: StockPlan["invalidRows"] = Array.from({ length: blank }, () => ({
    sku: "",
    reason: "blank_sku" as const,
  }));
  for (const [sku, row] of bySku) {
    const figure = row === "listed_twice" ? null : warehouseFigure(row, quantityName);
    if (figure === null) invalidRows.push({ sku, reason: "listed_twice" });
    else if (!Number.isInteger(figure) || figure < 0) invalidRows.push({ sku, reason: "not_a_whole_number" });
    else figures.set(sku, figure);
  }
  return { figures, invalidRows, reported: (sku: string) => bySku.has(sku) };
}

/**
 * The SKUs of the report to look up in Shopify beyond the location's own items: those no item stocked there has,
 * and those whose item Shopify says shares its SKU (`duplicateSkuCount`), so every item of a shared SKU is seen.
 */
export function skusToLookUp(
  rows: readonly WarehouseStockRow[],
  atLocation: ReadonlyArray<{ sku: string | null; duplicateSkuCount: number }>,
): string[] {
  const stocked = new Set<string>();
  const shared = new Set<string>();
  for (const item of atLocation) {
    if (!hasSku(item.sku)) continue;
    stocked.add(item.sku);
    if (item.duplicateSkuCount > 0) shared.add(item.sku);
  }
  const skus = new Set<string>();
  for (const { sku } of rows) if (hasSku(sku) && (!stocked.has(sku) || shared.has(sku))) skus.add(sku);
  return [...skus];
}

export function planStock(input: {
  rows: readonly WarehouseStockRow[];
  /** The items stocked at the location and those found by SKU elsewhere, each once. */
  items: readonly ShopifyStockItem[];
  quantityName: QuantityName;
  /**
   * Per SKU, the units of the shop's orders Shopify counts committed that the warehouse has not taken
   * (promised.server.ts). With `available` they come off the warehouse's free figure: otherwise every sync would
   * put them back on sale for as long as the order waits. With `on_hand` Shopify subtracts them itself.
   */
  promised?: ReadonlyMap<string, number>;
}): StockPlan {
  const { figures, invalidRows, reported } = readRows(input.rows, input.quantityName);
  const promised = input.quantityName === "available" ? input.promised : undefined;
  const plan: StockPlan = {
    changes: [],
    activations: [],
    unchanged: 0,
    untracked: [],
    missingInShopify: [],
    missingAtWarehouse: [],
    sharedSkus: [],
    invalidRows,
    withoutSku: 0,
    promised: [],
  };

  const bySku = new Map<string, ShopifyStockItem[]>();
  for (const item of input.items) {
    if (!hasSku(item.sku)) {
      if (item.quantity !== null) plan.withoutSku++;
      continue;
    }
    const sharing = bySku.get(item.sku);
    if (sharing) sharing.push(item);
    else bySku.set(item.sku, [item]);
  }

  for (const [sku, reportedFigure] of figures) {
    const units = promised?.get(sku) ?? 0;
    const figure = Math.max(0, reportedFigure - units);
    const items = bySku.get(sku);
    if (!items) {
      plan.missingInShopify.push(sku);
      continue;
    }
    if (items.length > 1) {
      plan.sharedSkus.push({ sku, inventoryItemIds: items.map((item) => item.inventoryItemId) });
      continue;
    }
    const [item] = items as [ShopifyStockItem];
    const ref = { sku, inventoryItemId: item.inventoryItemId };
    if (!item.tracked) {
      plan.untracked.push(ref);
      continue;
    }
    if (units > 0) plan.promised.push({ sku, units });
    // Activation stocks the item with 0 of every quantity; a card at 0 is stocked too, so the next sync finds
    // the item at the location instead of looking it up again.
    if (item.quantity === null) plan.activations.push(ref);
    const current = item.quantity ?? 0;
    if (current === figure) plan.unchanged++;
    else plan.changes.push({ ...ref, quantity: figure, changeFromQuantity: current });
  }

  for (const [sku, items] of bySku) {
    if (reported(sku)) continue;
    for (const item of items) {
      if (item.tracked && item.quantity !== null) {
        plan.missingAtWarehouse.push({ sku, inventoryItemId: item.inventoryItemId, quantity: item.quantity });
      }
    }
  }
  return plan;
}

/** The changes in calls of at most `size` quantities, in order. */
export function chunkChanges(
  changes: readonly StockChange[],
  size: number = MAX_QUANTITIES_PER_CALL,
): StockChange[][] {
  const chunks: StockChange[][] = [];
  for (let start = 0; start < changes.length; start += size) chunks.push(changes.slice(start, start + size));
  return chunks;
}

/**
 * A change Shopify refused as stale, against the quantity it holds now (figureAfterMove says which figure wins):
 * the change to send instead, or null when Shopify already holds it and nothing is left to write.
 */
export function rebaseStaleChange(
  change: StockChange,
  current: number,
  quantityName: QuantityName,
): StockChange | null {
  const quantity = figureAfterMove(quantityName, change.quantity, {
    expected: change.changeFromQuantity,
    current,
  });
  return quantity === current ? null : { ...change, quantity, changeFromQuantity: current };
}

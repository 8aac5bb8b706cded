// The Shopify side of a stock sync at the warehouse location: read what Shopify holds there, find the report's
// other SKUs, stock new items at the location, and set every quantity that differs against the quantity read, so
// a sale made meanwhile is refused as stale instead of overwritten, then written again against the new figure.
// Throttling is waited out by the ShopAdmin client; inventorySetQuantities' userErrors are read quantity by
// quantity here, since one stale quantity refuses the whole call.
// Shopify's side is read in shopify-read.server.ts.
import { createHash } from "node:crypto";
import { ShopifyUserErrors, type ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  StockActivateItemMutation,
  StockQuantitiesNowQuery,
  StockSetQuantitiesMutation,
} from "../types/admin.generated";
import {
  chunkChanges,
  planStock,
  rebaseStaleChange,
  skusToLookUp,
  type StockChange,
  type StockItemRef,
  type StockPlan,
  type WarehouseStockRow,
} from "./plan";
import type { QuantityName } from "./quantities";
import {
  findItemsBySku,
  quantityNamed,
  readLocationItems,
  STOCK_QUANTITIES_NOW_QUERY,
} from "./shopify-read.server";

export {
  skuSearchTerm,
  STOCK_AT_LOCATION_QUERY,
  STOCK_ITEMS_BY_SKU_QUERY,
  STOCK_QUANTITIES_NOW_QUERY,
  StockLocationNotFound,
} from "./shopify-read.server";

export const STOCK_ACTIVATE_ITEM_MUTATION = `#graphql
  mutation StockActivateItem($inventoryItemId: ID!, $locationId: ID!, $idempotencyKey: String!) {
    inventoryActivate(inventoryItemId: $inventoryItemId, locationId: $locationId)
    @idempotent(key: $idempotencyKey) {
      inventoryLevel {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const STOCK_SET_QUANTITIES_MUTATION = `#graphql
  mutation StockSetQuantities($input: InventorySetQuantitiesInput!, $idempotencyKey: String!) {
    inventorySetQuantities(input: $input) @idempotent(key: $idempotencyKey) {
      inventoryAdjustmentGroup {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

/** A quantity refused as stale is read and sent again this many times; then it waits for the next sync. */
export const MAX_STALE_RETRIES = 3;
/** The warehouse's count corrects Shopify's figure: one of the reasons inventorySetQuantities accepts. */
const SET_REASON = "correction";

export interface SyncStockInput {
  admin: ShopAdmin;
  /**
   * ReportSklad's rows, taken before Shopify is read: a sale Shopify makes after our read is then certainly not
   * in them, which is what a stale write relies on (figureAfterMove).
   */
  warehouseRows: readonly WarehouseStockRow[];
  /** The GID of the location that stands for the warehouse. */
  locationId: string;
  quantityName: QuantityName;
  /**
   * Names the sync in Shopify's inventory history: the sync record, in the form Shopify prefers
   * (`gid://sklad-sync/StockSync/<id>`) or as the address of its page.
   */
  referenceDocumentUri: string;
  /**
   * The idempotency key for a request's seed: the same seed gives the same key within this sync, and no later
   * sync may get the same key (prefix the seed with the sync record's id). Shopify answers a key it has seen with
   * its first answer, so a later sync sending the same quantities under an old key would write nothing.
   */
  idempotencyKey: (seed: string) => string;
  /**
   * Per SKU, the units of orders Shopify counts committed that the warehouse had not taken when its report was
   * asked for (promised.server.ts); with `available` they are kept off sale. Read after Shopify's quantities: an
   * order placed before that read then has its webhook taken in (normally), and one placed after it is a sale
   * the write's changeFromQuantity keeps.
   */
  promisedUnits?: () => Promise<ReadonlyMap<string, number>>;
}

export type StockFailure = StockItemRef & {
  step: "activate" | "write";
  /** Shopify's userError code when it gave one (CHANGE_FROM_QUANTITY_STALE, INVALID_INVENTORY_ITEM, ...). */
  code: string | null;
  message: string;
};

/** What one sync did: the history row's counts, and the lists the Stock page shows. */
export type StockSyncReport = Omit<StockPlan, "changes" | "activations" | "unchanged"> & {
  quantityName: QuantityName;
  counts: {
    /** Rows in the warehouse's report. */
    skus: number;
    /** Quantities that differed from the report and were to be written. */
    changed: number;
    written: number;
    unchanged: number;
    /** inventorySetQuantities calls Shopify answered, retries included. */
    mutations: number;
    activated: number;
    untracked: number;
    /** Calls sent again after Shopify refused quantities as stale. */
    staleRetries: number;
    /** Changes that needed no write once re-read after a stale refusal: Shopify already held the figure. */
    settledMeanwhile: number;
    failed: number;
    /** Changes not tried because the sync stopped (stoppedBy). */
    notAttempted: number;
    /** Units kept off sale for orders the warehouse had not taken (`promised`, summed). */
    promisedUnits: number;
  };
  /** Each quantity set: what Shopify held before, and the figure written. */
  written: Array<StockItemRef & { from: number; to: number }>;
  activated: StockItemRef[];
  failures: StockFailure[];
  /** Why the sync stopped before its end (Shopify kept throttling, the network failed); null when it finished. */
  stoppedBy: string | null;
};

/**
 * Makes Shopify's quantities at the warehouse location those of the warehouse's report, writing only what differs,
 * and says what it did and what it found. Reading fails as a whole (the location gone, Shopify unreachable); once
 * writing has begun, a failure stops the sync and is reported with what was written before it. Running it again
 * is always safe: it reads again, and a write that Shopify has already applied is not among the differences.
 */
export async function syncStock(input: SyncStockInput): Promise<StockSyncReport> {
  const plan = await planAgainstShopify(input);
  const { changes, activations, unchanged, ...found } = plan;
  const report: StockSyncReport = {
    ...found,
    quantityName: input.quantityName,
    counts: {
      skus: input.warehouseRows.length,
      changed: changes.length,
      written: 0,
      unchanged,
      mutations: 0,
      activated: 0,
      untracked: found.untracked.length,
      staleRetries: 0,
      settledMeanwhile: 0,
      failed: 0,
      notAttempted: 0,
      promisedUnits: found.promised.reduce((sum, { units }) => sum + units, 0),
    },
    written: [],
    activated: [],
    failures: [],
    stoppedBy: null,
  };
  const sync = { ...input, report };

  let toWrite = changes;
  try {
    const notStocked = new Set<string>();
    for (const item of activations) {
      if (await activate(sync, item)) report.activated.push(item);
      else notStocked.add(item.inventoryItemId);
    }
    toWrite = changes.filter((change) => !notStocked.has(change.inventoryItemId));
    for (const chunk of chunkChanges(toWrite)) await writeChunk(sync, chunk);
  } catch (error) {
    // What was written stands; the rest is for the next sync, which reads Shopify again first.
    report.stoppedBy = error instanceof Error ? error.message : String(error);
  }
  const { counts, failures } = report;
  counts.activated = report.activated.length;
  counts.written = report.written.length;
  counts.failed = failures.length;
  // Every change to write ends written, failed or settled, unless the sync stopped first.
  const writeFailures = failures.filter((failure) => failure.step === "write").length;
  counts.notAttempted = toWrite.length - counts.written - writeFailures - counts.settledMeanwhile;
  return report;
}

type Sync = SyncStockInput & { report: StockSyncReport };

/** Shopify's picture (the location's items, and the report's other SKUs wherever they are) planned against the report. */
async function planAgainstShopify(input: SyncStockInput): Promise<StockPlan> {
  const { admin, warehouseRows: rows, locationId, quantityName } = input;
  const atLocation = await readLocationItems(admin, locationId, quantityName);
  const known = new Set(atLocation.map((item) => item.inventoryItemId));
  const elsewhere = await findItemsBySku(admin, skusToLookUp(rows, atLocation), locationId, quantityName);
  const items = [...atLocation, ...elsewhere.filter((item) => !known.has(item.inventoryItemId))];
  const promised = quantityName === "available" ? await input.promisedUnits?.() : undefined;
  return planStock({ rows, items, quantityName, promised });
}

const legacyId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

/** Stocks the item at the location with 0 of every quantity; false (and a failure reported) if Shopify refused. */
async function activate(sync: Sync, item: StockItemRef): Promise<boolean> {
  try {
    await sync.admin.mutate<StockActivateItemMutation>(STOCK_ACTIVATE_ITEM_MUTATION, {
      inventoryItemId: item.inventoryItemId,
      locationId: sync.locationId,
      idempotencyKey: sync.idempotencyKey(`activate:${legacyId(item.inventoryItemId)}`),
    });
    return true;
  } catch (error) {
    if (!(error instanceof ShopifyUserErrors)) throw error;
    const message = error.userErrors.map((userError) => userError.message).join(" ");
    sync.report.failures.push({ ...item, step: "activate", code: null, message });
    return false;
  }
}

type UserError = ShopifyUserErrors["userErrors"][number];

/** The position in `input.quantities` a userError is about, or null when it is about the whole call. */
function quantityIndex(field: UserError["field"]): number | null {
  if (field?.[0] !== "input" || field[1] !== "quantities" || field[2] === undefined) return null;
  const index = Number(field[2]);
  return Number.isInteger(index) ? index : null;
}

export const STALE = "CHANGE_FROM_QUANTITY_STALE";
export const STALE_GAVE_UP =
  "Shopify's quantity kept changing while the warehouse's figure was being written; the next sync tries again.";
export const NOT_STOCKED_NOW =
  "The item is no longer stocked at the warehouse location in Shopify, so its quantity was not written.";

/**
 * Sets one chunk's quantities. A call with any quantity refused sets none, so the others go again in the next
 * call: stale ones after reading what Shopify holds now (rebaseStaleChange), at most MAX_STALE_RETRIES times,
 * other refused ones reported and dropped. (Were Shopify to set the others anyway, sending them again would be
 * refused as stale and found settled on reading.) Every call has a key of its own: its seed follows the
 * parameters and the attempt.
 */
async function writeChunk(sync: Sync, chunk: StockChange[]): Promise<void> {
  const { report } = sync;
  const fail = (change: StockChange, code: string | null, message: string) =>
    report.failures.push({
      sku: change.sku,
      inventoryItemId: change.inventoryItemId,
      step: "write",
      code,
      message,
    });
  let pending = chunk;
  for (let attempt = 0; pending.length > 0; attempt++) {
    const userErrors = await setQuantities(sync, pending, attempt);
    if (userErrors.length === 0) {
      for (const change of pending) {
        const { sku, inventoryItemId, changeFromQuantity: from, quantity: to } = change;
        report.written.push({ sku, inventoryItemId, from, to });
      }
      return;
    }
    const whole = userErrors.find((userError) => !pending[quantityIndex(userError.field) ?? -1]);
    if (whole) {
      // A key Shopify will not run (an earlier request under it failed, runs still, or differed): the next
      // attempt has a key of its own. Anything else about the call as a whole leaves nothing it can write now.
      if (whole.code?.startsWith("IDEMPOTENCY_") && attempt < MAX_STALE_RETRIES) continue;
      for (const change of pending) fail(change, whole.code ?? null, whole.message);
      return;
    }
    const refused = new Map<StockChange, UserError>();
    for (const userError of userErrors) refused.set(pending[quantityIndex(userError.field)!]!, userError);
    const stale: StockChange[] = [];
    for (const [change, userError] of refused) {
      if (userError.code === STALE && attempt < MAX_STALE_RETRIES) stale.push(change);
      else fail(change, userError.code ?? null, userError.code === STALE ? STALE_GAVE_UP : userError.message);
    }
    pending = pending.filter((change) => !refused.has(change));
    if (stale.length === 0) continue;
    report.counts.staleRetries++;
    const now = await readQuantitiesNow(sync, stale);
    for (const change of stale) {
      const current = now.get(change.inventoryItemId);
      if (current === undefined) {
        fail(change, null, NOT_STOCKED_NOW);
        continue;
      }
      const rebased = rebaseStaleChange(change, current, sync.quantityName);
      if (rebased) pending.push(rebased);
      else report.counts.settledMeanwhile++;
    }
  }
}

/** Sends one inventorySetQuantities call; its userErrors (none when every quantity was set). */
async function setQuantities(sync: Sync, changes: StockChange[], attempt: number): Promise<UserError[]> {
  const quantities = changes.map(({ inventoryItemId, quantity, changeFromQuantity }) => ({
    inventoryItemId,
    locationId: sync.locationId,
    quantity,
    changeFromQuantity,
  }));
  const input = {
    name: sync.quantityName,
    reason: SET_REASON,
    referenceDocumentUri: sync.referenceDocumentUri,
    quantities,
  };
  // The seed follows the parameters, so a call sent again with other quantities never reuses a key.
  const digest = createHash("sha256")
    .update(JSON.stringify([attempt, input]))
    .digest("hex")
    .slice(0, 32);
  try {
    await sync.admin.mutate<StockSetQuantitiesMutation>(STOCK_SET_QUANTITIES_MUTATION, {
      input,
      idempotencyKey: sync.idempotencyKey(`set:${digest}`),
    });
    sync.report.counts.mutations++;
    return [];
  } catch (error) {
    if (!(error instanceof ShopifyUserErrors)) throw error;
    sync.report.counts.mutations++;
    return error.userErrors;
  }
}

/** What Shopify holds now of the synced quantity, by item; an item no longer stocked at the location is absent. */
async function readQuantitiesNow(sync: Sync, changes: StockChange[]): Promise<Map<string, number>> {
  const data = await sync.admin.query<StockQuantitiesNowQuery>(STOCK_QUANTITIES_NOW_QUERY, {
    ids: changes.map((change) => change.inventoryItemId),
    locationId: sync.locationId,
    names: [sync.quantityName],
  });
  const now = new Map<string, number>();
  for (const node of data.nodes) {
    if (node && "inventoryLevel" in node && node.inventoryLevel) {
      now.set(node.id, quantityNamed(node.inventoryLevel.quantities, sync.quantityName));
    }
  }
  return now;
}

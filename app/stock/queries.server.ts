// What the Stock page reads: the shop's last syncs, the newest finished sync's drift, the catalogue's
// problems, and the drift as CSV rows. Every list is bounded.
import type { Db } from "../db.server";
import { catalogueProblems } from "../catalogue/record.server";
import { csvDocument, type CsvValue } from "../http/csv";

/** The lists a finished sync keeps (app/stock/work.server.ts); tolerant of a record written by older code. */
export interface SyncDrift {
  missingInShopify: string[];
  missingAtWarehouse: Array<{ sku: string; quantity: number }>;
  sharedSkus: Array<{ sku: string; inventoryItemIds: string[] }>;
  untracked: Array<{ sku: string }>;
  written: Array<{ sku: string; from: number; to: number }>;
  failures: Array<{ sku: string; code?: string | null; message: string }>;
  /** Units kept off sale for orders the warehouse had not taken, by SKU (none on records before them). */
  promised: Array<{ sku: string; units: number }>;
}

const EMPTY_DRIFT: SyncDrift = {
  missingInShopify: [],
  missingAtWarehouse: [],
  sharedSkus: [],
  untracked: [],
  written: [],
  failures: [],
  promised: [],
};

export function driftOf(report: string | null): SyncDrift {
  if (!report) return EMPTY_DRIFT;
  try {
    const parsed = JSON.parse(report) as Partial<SyncDrift>;
    return {
      missingInShopify: parsed.missingInShopify ?? [],
      missingAtWarehouse: parsed.missingAtWarehouse ?? [],
      sharedSkus: parsed.sharedSkus ?? [],
      untracked: parsed.untracked ?? [],
      written: parsed.written ?? [],
      failures: parsed.failures ?? [],
      promised: parsed.promised ?? [],
    };
  } catch {
    return EMPTY_DRIFT;
  }
}

export async function stockOverview(db: Db, shop: string) {
  const [syncs, lastFinished, problems, schedule] = await Promise.all([
    db.stockSync.findMany({
      where: { shop },
      orderBy: { startedAt: "desc" },
      take: 20,
      select: {
        id: true,
        trigger: true,
        quantityName: true,
        startedAt: true,
        finishedAt: true,
        skus: true,
        changed: true,
        mutations: true,
        activated: true,
        problems: true,
        error: true,
        shopifyRead: true,
      },
    }),
    db.stockSync.findFirst({
      where: { shop, finishedAt: { not: null }, report: { not: null } },
      orderBy: { startedAt: "desc" },
      select: { id: true, report: true },
    }),
    catalogueProblems(db, shop),
    db.shopSchedule.findUnique({
      where: { shop_kind: { shop, kind: "stock" } },
      select: { nextRunAt: true },
    }),
  ]);
  return {
    syncs,
    drift: driftOf(lastFinished?.report ?? null),
    driftSyncId: lastFinished?.id ?? null,
    problems,
    nextSyncAt: schedule?.nextRunAt ?? null,
  };
}

/** The newest sync's drift as CSV: one row per SKU that does not match, with what each side has. */
export async function driftCsv(db: Db, shop: string): Promise<string> {
  const last = await db.stockSync.findFirst({
    where: { shop, finishedAt: { not: null }, report: { not: null } },
    orderBy: { startedAt: "desc" },
    select: { report: true },
  });
  const drift = driftOf(last?.report ?? null);
  const rows: CsvValue[][] = [["sku", "difference", "shopify_quantity", "warehouse_quantity"]];
  for (const sku of drift.missingInShopify) rows.push([sku, "not_in_shopify", "", ""]);
  for (const item of drift.missingAtWarehouse) rows.push([item.sku, "not_at_warehouse", item.quantity, ""]);
  for (const item of drift.written) rows.push([item.sku, "quantity_differed", item.from, item.to]);
  for (const item of drift.sharedSkus) rows.push([item.sku, "shared_in_shopify", "", ""]);
  for (const item of drift.untracked) rows.push([item.sku, "not_tracked_in_shopify", "", ""]);
  return csvDocument(rows);
}

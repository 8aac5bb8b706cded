// The stock sync at rest (docs/decisions/021-stock-sync-at-rest.md): a digest of everything the sync makes of
// Shopify's figures on our side (the location, the quantity, each reported SKU's figure net of promised units,
// the time of the shop's latest order change), kept when a sync read Shopify and left it holding those figures.
// A scheduled run whose digest is the same has nothing to write unless Shopify moved on its own (a merchant's
// edit, another app), so it skips reading Shopify, but never for longer than RECONCILE_MS. Pure.
import { createHash } from "node:crypto";
import { warehouseFigure, type QuantityName } from "./quantities";
import type { WarehouseStockRow } from "./plan";

/** The longest a shop's Shopify figures go unread by the stock sync: a merchant's edit stands at most this long. */
export const RECONCILE_MS = 60 * 60_000;

export interface StockBaseline {
  digest: string;
  /** The problems the sync that read Shopify found (drift, refusals): a run at rest repeats them on its record. */
  problems: number;
}

export function stockDigest(input: {
  locationId: string;
  quantityName: QuantityName;
  rows: readonly WarehouseStockRow[];
  /** Per SKU, the units kept off sale (with `available`); undefined with `on_hand`. */
  promised: ReadonlyMap<string, number> | undefined;
  /** When the shop's latest order last changed in Shopify (orderUpdatedAt), null without orders. */
  ordersChangedAt: Date | null;
}): string {
  const lines = input.rows.map((row) => {
    const figure = warehouseFigure(row, input.quantityName);
    const units = input.promised?.get(row.sku) ?? 0;
    // What planStock would write; a figure it refuses stays as it is, so a change to it still shows.
    const target =
      Number.isInteger(figure) && figure >= 0 ? String(Math.max(0, figure - units)) : `?${figure}`;
    return `${row.sku}\t${target}`;
  });
  lines.sort();
  const hash = createHash("sha256");
  hash.update(
    JSON.stringify([1, input.locationId, input.quantityName, input.ordersChangedAt?.toISOString() ?? null]),
  );
  for (const line of lines) hash.update(`\n${line}`);
  return hash.digest("hex").slice(0, 40);
}

export function parseBaseline(text: string | null): StockBaseline | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as Partial<StockBaseline>;
    return typeof parsed.digest === "string" && Number.isInteger(parsed.problems)
      ? { digest: parsed.digest, problems: parsed.problems! }
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether a scheduled run at `now` may rest on a baseline confirmed at `confirmedAt`: only if the run after it
 * (an interval later) still falls within RECONCILE_MS of the confirmation, so Shopify is read at least that often.
 */
export function mayRest(confirmedAt: Date | null, now: Date, intervalMs: number): boolean {
  if (!confirmedAt) return false;
  const since = now.getTime() - confirmedAt.getTime();
  return since >= 0 && since + intervalMs <= RECONCILE_MS;
}

// Which of the warehouse's two stock figures becomes which Shopify quantity at the warehouse location: the
// merchant's setting, the figure it takes from a ReportSklad row, and what to write when Shopify's quantity moved
// between our read and our write. Pure.
import { z } from "zod";

/** The two quantity names inventorySetQuantities accepts. */
export const QUANTITY_NAMES = ["available", "on_hand"] as const;
export type QuantityName = (typeof QUANTITY_NAMES)[number];

/**
 * The setting, `available` by default: the warehouse's free stock is what it can still promise a buyer. Each
 * figure goes with its own name, never crossed: free stock as `on_hand` would have Shopify subtract its committed
 * orders from a figure the warehouse has already subtracted its reservations from.
 */
export const quantityNameSchema = z.enum(QUANTITY_NAMES).default("available");

/** The two figures of a ReportSklad row (app/warehouse/schemas.ts, stockRowSchema). */
export interface WarehouseFigures {
  /** Physical stock at the warehouse. */
  quantity: number;
  /** Free stock: physical stock less what the warehouse has reserved for its orders. */
  quantityAvailable: number;
}

export function warehouseFigure(row: WarehouseFigures, name: QuantityName): number {
  return name === "available" ? row.quantityAvailable : row.quantity;
}

/**
 * The figure to write after Shopify refused ours as stale: its quantity moved from `expected` (what we read) to
 * `current` (what it holds now) after the warehouse's report was taken, so the report cannot know of that move.
 *
 * - `available`: a sale meanwhile lowered `available` by the units it reserved, and the warehouse will reserve them
 *   only once the order reaches it. Writing the warehouse's free figure as it stands would offer those units for
 *   sale again, so the move is kept: the warehouse's figure plus Shopify's change since our read (never below 0).
 *   The next sync, with a report that includes the order, settles the figure again.
 * - `on_hand`: a sale does not move `on_hand` (it moves units from available to committed inside it), so the sale
 *   is kept whatever `on_hand` is set to. What does move it is a fulfilment or a merchant's correction, and the
 *   warehouse's count of what is physically on its shelves is the truth for both, so its figure stands.
 */
export function figureAfterMove(
  name: QuantityName,
  figure: number,
  moved: { expected: number; current: number },
): number {
  if (name === "on_hand") return figure;
  return Math.max(0, figure + moved.current - moved.expected);
}

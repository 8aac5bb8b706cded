// What of an order is the warehouse's, from its fulfillment orders as last read (ShopifyFulfillmentOrder rows):
// waiting for Shopify (routing not done, a hold, a date, a fulfillment request), not the warehouse's at all, or
// the warehouse's lines with their remaining quantities. Pure: the same rows, mode and location always decide
// the same, so the same rows applied twice change nothing.
import type { ShopifyFulfillmentOrder } from "@prisma/client";

export type FulfillmentMode = "location" | "service";

/** What Shopify is waited for (WarehouseOrder.waitReason). */
export const WAIT_REASON = {
  routing: "routing",
  onHold: "on_hold",
  scheduled: "scheduled",
  request: "request",
} as const;
export type WaitReason = (typeof WAIT_REASON)[keyof typeof WAIT_REASON];
export const WAIT_REASONS = Object.values(WAIT_REASON);

/** One line of the warehouse's part of an order, as WarehouseOrder.warehouseLines keeps it. */
export interface WarehouseLine {
  /** The line item's GID (the payload's `admin_graphql_api_id`). */
  lineItemId: string;
  fulfillmentOrderId: string;
  quantity: number;
}

/** A hold on a fulfillment order, as the row keeps it. */
export interface FulfillmentHold {
  id: string;
  reason: string;
  heldByRequestingApp: boolean;
}

export type RoutingDecision =
  /** No fulfillment order read yet: Shopify has not routed the order (or it was not read yet). */
  | { kind: "waiting"; reason: "routing" }
  /** At the warehouse's location, and held there: only the merchant releases it. */
  | { kind: "waiting"; reason: "on_hold"; holds: FulfillmentHold[]; lines: WarehouseLine[] }
  /** At the warehouse's location, for later (pre-orders, subscriptions): due at `fulfillAt`. */
  | { kind: "waiting"; reason: "scheduled"; fulfillAt: Date | null; lines: WarehouseLine[] }
  /** Service mode: at the service's location, and the merchant has not requested fulfillment yet. */
  | { kind: "waiting"; reason: "request"; lines: WarehouseLine[] }
  /** Nothing is left for the warehouse's location: not the warehouse's order. */
  | { kind: "elsewhere" }
  /** The warehouse's lines; `split` when units are left at other locations too. */
  | { kind: "lines"; lines: WarehouseLine[]; split: boolean; fulfillmentOrderIds: string[] };

/** What of a stored row the decision reads. */
export type FulfillmentOrderFacts = Pick<
  ShopifyFulfillmentOrder,
  "id" | "locationId" | "status" | "requestStatus" | "fulfillAt" | "lines" | "holds"
>;

/** Statuses with work left; CLOSED, CANCELLED and INCOMPLETE have nothing left to fulfil. */
const LIVE = new Set(["OPEN", "IN_PROGRESS", "ON_HOLD", "SCHEDULED"]);

/**
 * Service mode: the request statuses under which the fulfillment order is (or is about to be) the service's.
 * A cancellation requested (or accepted), a request rejected or closed: no longer the warehouse's.
 */
const SERVICE_OURS = new Set(["UNSUBMITTED", "SUBMITTED", "ACCEPTED", "CANCELLATION_REJECTED"]);

interface StoredLine {
  id?: string;
  lineItemId: string;
  remainingQuantity: number;
}

function linesOf(row: FulfillmentOrderFacts): StoredLine[] {
  try {
    const parsed = JSON.parse(row.lines) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((line: Partial<StoredLine> | null) =>
      line && typeof line.lineItemId === "string" && Number.isInteger(line.remainingQuantity)
        ? [{ lineItemId: line.lineItemId, remainingQuantity: line.remainingQuantity! }]
        : [],
    );
  } catch {
    return [];
  }
}

function holdsOf(row: FulfillmentOrderFacts): FulfillmentHold[] {
  try {
    const parsed = JSON.parse(row.holds) as unknown;
    return Array.isArray(parsed)
      ? parsed.flatMap((hold: Partial<FulfillmentHold> | null) =>
          hold && typeof hold.reason === "string"
            ? [
                {
                  id: String(hold.id ?? ""),
                  reason: hold.reason,
                  heldByRequestingApp: Boolean(hold.heldByRequestingApp),
                },
              ]
            : [],
        )
      : [];
  } catch {
    return [];
  }
}

const unitsLeft = (row: FulfillmentOrderFacts) =>
  LIVE.has(row.status) && linesOf(row).some((line) => line.remainingQuantity > 0);

/** The units left on these rows, line by line, in a fixed order (so equal rows give equal JSON). */
function warehouseLinesOf(rows: FulfillmentOrderFacts[]): WarehouseLine[] {
  return rows
    .flatMap((row) =>
      linesOf(row)
        .filter((line) => line.remainingQuantity > 0)
        .map((line) => ({
          lineItemId: line.lineItemId,
          fulfillmentOrderId: row.id,
          quantity: line.remainingQuantity,
        })),
    )
    .sort((a, b) =>
      a.lineItemId === b.lineItemId
        ? a.fulfillmentOrderId.localeCompare(b.fulfillmentOrderId)
        : a.lineItemId.localeCompare(b.lineItemId),
    );
}

/**
 * The decision for one order from all its stored fulfillment orders, the mode the order is (or will be) sent
 * under, and the warehouse's location L.
 */
export function decideRouting(
  rows: readonly FulfillmentOrderFacts[],
  mode: FulfillmentMode,
  locationId: string,
): RoutingDecision {
  if (rows.length === 0) return { kind: "waiting", reason: "routing" };
  const ours = (row: FulfillmentOrderFacts) =>
    row.locationId === locationId && (mode === "location" || SERVICE_OURS.has(row.requestStatus));
  const live = rows.filter(unitsLeft);
  const atL = live.filter(ours);
  if (atL.length === 0) return { kind: "elsewhere" };
  const lines = warehouseLinesOf(atL);
  const held = atL.filter((row) => row.status === "ON_HOLD");
  if (held.length) return { kind: "waiting", reason: "on_hold", holds: held.flatMap(holdsOf), lines };
  const scheduled = atL.filter((row) => row.status === "SCHEDULED");
  if (scheduled.length) {
    const dates = scheduled.flatMap((row) => (row.fulfillAt ? [row.fulfillAt.getTime()] : []));
    return {
      kind: "waiting",
      reason: "scheduled",
      fulfillAt: dates.length ? new Date(Math.min(...dates)) : null,
      lines,
    };
  }
  if (mode === "service" && atL.some((row) => row.requestStatus === "UNSUBMITTED"))
    return { kind: "waiting", reason: "request", lines };
  return {
    kind: "lines",
    lines,
    split: live.some((row) => !ours(row)),
    fulfillmentOrderIds: [...new Set(lines.map((line) => line.fulfillmentOrderId))].sort(),
  };
}

/** The warehouse's lines as the column keeps them (null: the whole order). */
export function warehouseLinesColumn(lines: readonly WarehouseLine[] | null): string | null {
  return lines ? JSON.stringify(lines) : null;
}

/** The column read back; null for the whole order (and for anything unreadable, as before the column). */
export function parseWarehouseLines(stored: string | null | undefined): WarehouseLine[] | null {
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as unknown;
    if (!Array.isArray(parsed)) return null;
    return parsed.flatMap((line: Partial<WarehouseLine> | null) =>
      line &&
      typeof line.lineItemId === "string" &&
      typeof line.fulfillmentOrderId === "string" &&
      Number.isInteger(line.quantity)
        ? [
            {
              lineItemId: line.lineItemId,
              fulfillmentOrderId: line.fulfillmentOrderId,
              quantity: line.quantity!,
            },
          ]
        : [],
    );
  } catch {
    return null;
  }
}

/** Units per line item GID (a line split over two fulfillment orders at L counts once, summed). */
export function unitsByLineItem(lines: readonly WarehouseLine[]): Map<string, number> {
  const units = new Map<string, number>();
  for (const line of lines) units.set(line.lineItemId, (units.get(line.lineItemId) ?? 0) + line.quantity);
  return units;
}

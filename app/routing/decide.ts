// What of an order is the warehouse's, from its fulfillment orders as last read (ShopifyFulfillmentOrder rows):
// waiting for Shopify (routing not done, a hold, a date, a fulfillment request), not the warehouse's at all, or
// the warehouse's lines with their remaining quantities. Pure: the same rows, mode and location always decide
// the same, so the same rows applied twice change nothing.
import type { ShopifyFulfillmentOrder } from "@prisma/client";
import type { ShopifyOrder } from "../orders/payload";

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

/**
 * Line items the order's payload says need fulfilment that no stored fulfillment order covers yet (their GIDs;
 * UNREADABLE_PAYLOAD_LINE for a payload line without one).
 */
export type UncoveredLines = string[];

export type RoutingDecision =
  /**
   * No fulfillment order read yet: Shopify has not routed the order (or it was not read yet). Or, with
   * `uncovered`, some were read but not all the order's lines are in them yet (the completeness guard): the
   * order is looked at again at `decideBy`, when the guard gives up.
   */
  | { kind: "waiting"; reason: "routing"; uncovered?: UncoveredLines; decideBy?: Date }
  /** At the warehouse's location, and held there: only the merchant releases it. */
  | { kind: "waiting"; reason: "on_hold"; holds: FulfillmentHold[]; lines: WarehouseLine[] }
  /** At the warehouse's location, for later (pre-orders, subscriptions): due at `fulfillAt`. */
  | { kind: "waiting"; reason: "scheduled"; fulfillAt: Date | null; lines: WarehouseLine[] }
  /** Service mode: at the service's location, and the merchant has not requested fulfillment yet. */
  | { kind: "waiting"; reason: "request"; lines: WarehouseLine[] }
  /**
   * Nothing is left for the warehouse's location: not the warehouse's order. `uncovered`: decided though lines
   * were still not covered when the guard gave up.
   */
  | { kind: "elsewhere"; uncovered?: UncoveredLines }
  /** The warehouse's lines; `split` when units are left at other locations too. `uncovered` as for elsewhere. */
  | {
      kind: "lines";
      lines: WarehouseLine[];
      split: boolean;
      fulfillmentOrderIds: string[];
      uncovered?: UncoveredLines;
    };

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
  /** Absent when the stored line has none readable (it then covers nothing). */
  totalQuantity?: number;
}

function linesOf(row: FulfillmentOrderFacts): StoredLine[] {
  try {
    const parsed = JSON.parse(row.lines) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((line: Partial<StoredLine> | null) =>
      line && typeof line.lineItemId === "string" && Number.isInteger(line.remainingQuantity)
        ? [
            {
              lineItemId: line.lineItemId,
              remainingQuantity: line.remainingQuantity!,
              ...(Number.isInteger(line.totalQuantity) && { totalQuantity: line.totalQuantity! }),
            },
          ]
        : [],
    );
  } catch {
    return [];
  }
}

/** Stands in UncoveredLines for a payload line that cannot be matched to any fulfillment order line. */
export const UNREADABLE_PAYLOAD_LINE = "unreadable";

/**
 * What the order's payload says Shopify gives fulfillment orders for: units per line item GID, and how many
 * lines could not be read (no id, no quantity, or no line list at all: those are never covered, so only the
 * guard's bound decides such an order).
 *
 * Which lines get fulfillment orders. Every line that needs fulfilment, whether or not it requires shipping:
 * a fulfillment order line item has its own `requiresShipping` field
 * (https://shopify.dev/docs/api/admin-graphql/2026-01/objects/FulfillmentOrderLineItem), and the app's own
 * fulfilment (app/fulfillment/) and public automations (lightward/mechanic-tasks, "Auto-fulfill items that
 * don't require shipping") fulfil digital lines through their fulfillment orders; the one community report of
 * none for a digital product (community.shopify.com/t/196158) was answered by Shopify as the app's scopes
 * filtering it out, and this app holds all three fulfillment order read scopes. So requires_shipping=false
 * lines are waited for. Gift cards are not: Shopify issues and fulfils them itself (by default at once, "Fulfill
 * only the gift cards of the order"), through a fulfillment service of its own that the API marks apart
 * (shopify.dev/changelog/field-isgiftcard-on-all-line-item-types: `isGiftCard` replaces telling them by their
 * fulfillment service), and they cannot be fulfilled together with other items
 * (community.shopify.com/t/gift-card-fulfillment-errors/157514); no source says the fulfillment order of one is
 * listed to an app, and a gift card is never the warehouse's (the mapping leaves it out), so an order must not
 * wait for it. Quantities: `current_quantity` where present (an order edit's removals are out of it, so a
 * removed line is not waited for), else `quantity`.
 */
export interface ExpectedUnits {
  byLineItem: ReadonlyMap<string, number>;
  unreadable: number;
}

export function expectedUnits(order: Pick<ShopifyOrder, "line_items">): ExpectedUnits {
  const byLineItem = new Map<string, number>();
  if (!order.line_items) return { byLineItem, unreadable: 1 };
  let unreadable = 0;
  for (const line of order.line_items) {
    if (line.gift_card === true) continue;
    const units = line.current_quantity ?? line.quantity;
    const gid = line.admin_graphql_api_id ?? (line.id ? `gid://shopify/LineItem/${line.id}` : null);
    if (units == null || !gid) {
      unreadable += 1;
      continue;
    }
    if (units > 0) byLineItem.set(gid, (byLineItem.get(gid) ?? 0) + units);
  }
  return { byLineItem, unreadable };
}

/**
 * The expected lines the stored rows do not cover: a line is covered when the totalQuantity of its lines over
 * all the order's stored rows, whatever their status (a closed or cancelled one still says where the units
 * went; a replacement after a move makes the sum exceed, which covers too), reaches what the payload expects.
 */
export function uncoveredLines(
  rows: readonly FulfillmentOrderFacts[],
  expected: ExpectedUnits,
): UncoveredLines {
  const covered = new Map<string, number>();
  for (const row of rows)
    for (const line of linesOf(row))
      covered.set(line.lineItemId, (covered.get(line.lineItemId) ?? 0) + (line.totalQuantity ?? 0));
  const uncovered = [...expected.byLineItem]
    .filter(([gid, units]) => (covered.get(gid) ?? 0) < units)
    .map(([gid]) => gid)
    .sort();
  return expected.unreadable ? [...uncovered, UNREADABLE_PAYLOAD_LINE] : uncovered;
}

/**
 * How long the completeness guard waits, from the last time any of the order's fulfillment orders was stored
 * (by this app's clock: `readAt`), before the order is decided from what was read. A change Shopify made is
 * listed by a settle pass that begins SETTLE_MARGIN_MS (60 s) or more after it, and while an order waits for
 * routing a settle pass runs every ROUTING_REREAD_MS (2 min) (app/routing/work.server.ts): so about 3 minutes
 * after a change every fulfillment order it made has been read, webhook or not. Ten minutes is that three
 * times over, leaves room for a failed reconcile retried (a minute) and a throttled read, and is the sweep
 * (SWEEP_EVERY_MS), the longest the reader ever goes without a settle pass. Past it, what is still not covered
 * is something not foreseen (a line Shopify gives no fulfillment order, an unreadable payload line), and
 * waiting longer would only hold the order for ever.
 */
export const INCOMPLETE_WAIT_MS = 10 * 60_000;

/**
 * The completeness guard: an order is decided only from fulfillment orders that cover all its lines, until
 * `decideBy`, after which it is decided from what was read (the decision names what was not covered).
 */
export interface CompletenessGuard {
  expected: ExpectedUnits;
  decideBy: Date;
  now: Date;
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
 * under, and the warehouse's location L. With a guard: while the rows do not cover the order's lines (some of
 * its fulfillment orders not read yet, after its routing, a move or an edit), waiting for routing, until the
 * guard's `decideBy`. Pure: the caller passes the expected units and the times.
 */
export function decideRouting(
  rows: readonly FulfillmentOrderFacts[],
  mode: FulfillmentMode,
  locationId: string,
  guard?: CompletenessGuard,
): RoutingDecision {
  if (rows.length === 0) return { kind: "waiting", reason: "routing" };
  const uncovered = guard ? uncoveredLines(rows, guard.expected) : [];
  if (uncovered.length && guard!.now < guard!.decideBy)
    return { kind: "waiting", reason: "routing", uncovered, decideBy: guard!.decideBy };
  const decision = decideFromRows(rows, mode, locationId);
  return uncovered.length && (decision.kind === "lines" || decision.kind === "elsewhere")
    ? { ...decision, uncovered }
    : decision;
}

function decideFromRows(
  rows: readonly FulfillmentOrderFacts[],
  mode: FulfillmentMode,
  locationId: string,
): RoutingDecision {
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

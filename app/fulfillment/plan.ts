// What to do in Shopify for a shipped warehouse order, decided from the order's fulfillment picture alone
// (pure, so every case is tested without a network): the fulfillment already made, holds of our own to lift,
// the fulfillment orders to fulfil, or a problem only the merchant can solve.
import { normaliseTtn } from "./carriers";

/** FulfillmentOrderStatus of the Admin API. */
export type FulfillmentOrderStatus =
  "OPEN" | "IN_PROGRESS" | "ON_HOLD" | "SCHEDULED" | "INCOMPLETE" | "CLOSED" | "CANCELLED";

export interface PictureHold {
  id: string;
  reason: string;
  /** Shopify's own words for the reason, in the merchant's admin language. */
  displayReason: string;
  heldByRequestingApp: boolean;
}

/** One line of a fulfillment order: what of an order line is still to fulfil there. */
export interface PictureLine {
  id: string;
  sku: string | null;
  /** The product's and variant's titles, as the merchant knows the item. */
  title: string;
  /** False for a gift card or a service: never sent to the warehouse, so never missed when not shipped. */
  requiresShipping: boolean;
  remainingQuantity: number;
}

export interface PictureFulfillmentOrder {
  id: string;
  status: FulfillmentOrderStatus;
  /** Null when the location was deleted after the fulfillment order was assigned to it. */
  locationId: string | null;
  locationName: string;
  supportedActions: string[];
  holds: PictureHold[];
  /** Units still to fulfil on the lines read. */
  remainingQuantity: number;
  /** More lines than were read: what remains on them is unknown. */
  moreLines: boolean;
  /** The lines read (every line, unless moreLines). */
  lines: PictureLine[];
}

export interface PictureFulfillment {
  id: string;
  /** FulfillmentStatus: SUCCESS, CANCELLED, ERROR, FAILURE (OPEN and PENDING are deprecated). */
  status: string;
  locationId: string | null;
  trackingInfo: Array<{ number: string | null; company: string | null; url: string | null }>;
}

/** An order's fulfillment orders and fulfillments, as one read of Shopify saw them. */
export interface FulfillmentPicture {
  orderId: string;
  fulfillmentOrders: PictureFulfillmentOrder[];
  fulfillments: PictureFulfillment[];
}

export const FULFILLMENT_PROBLEMS = [
  "order_not_found",
  "fulfillment_cancelled",
  "on_hold",
  "scheduled",
  "closed",
  "moved",
  "already_fulfilled",
  "no_fulfillment_order",
  "shipped_not_in_order",
] as const;
export type FulfillmentProblemCode = (typeof FULFILLMENT_PROBLEMS)[number];

/**
 * What the merchant reads on the order's page and timeline, one whole sentence or two per problem (kept whole
 * for translation); the particulars (hold reasons, locations) travel beside the message, not inside it.
 */
export const FULFILLMENT_PROBLEM_MESSAGES: Readonly<Record<FulfillmentProblemCode, string>> = {
  order_not_found:
    "The order is no longer in Shopify, so its shipment cannot be recorded there. Nothing more will be tried for it.",
  fulfillment_cancelled:
    "The fulfillment with this waybill was cancelled in Shopify, so the app will not create it again. Fulfil the order in Shopify yourself if it should be.",
  on_hold:
    "The order is on hold in Shopify at the warehouse location, so the app cannot mark it as shipped. Release the hold on the order's page in Shopify and the app will record the shipment.",
  scheduled:
    "The order is scheduled for later fulfilment in Shopify, so the app cannot mark it as shipped yet. Mark it as ready to fulfil on the order's page in Shopify and the app will record the shipment.",
  closed:
    "The order's items at the warehouse location are closed or cancelled in Shopify, so the app cannot mark them as shipped. Check whether the order was cancelled or its items were removed.",
  moved:
    "The order's items were moved to another location in Shopify, so the app cannot mark them as shipped from the warehouse. Move them back to the warehouse location, or fulfil them in Shopify yourself.",
  already_fulfilled:
    "The order was already fulfilled in Shopify without the warehouse's waybill, so the app made no second fulfillment. Add the tracking number to that fulfillment in Shopify if the buyer needs it.",
  no_fulfillment_order:
    "The order has nothing to fulfil at the warehouse location in Shopify. Check that Settings names the location that stands for the warehouse.",
  shipped_not_in_order:
    "None of the items the warehouse shipped is still to fulfil in the order in Shopify, so the app made no fulfillment. The order was probably changed after it was sent: fulfil or refund it in Shopify as it really went.",
};

export interface FulfillmentProblem {
  code: FulfillmentProblemCode;
  message: string;
  /** on_hold: the holds not ours to release, with Shopify's reasons. */
  holds?: Array<Pick<PictureHold, "reason" | "displayReason">>;
  /** moved: the names of the locations the items are assigned to now. */
  locations?: string[];
  /** already_fulfilled, fulfillment_cancelled: the fulfillments concerned. */
  fulfillmentIds?: string[];
}

/** What the Shopify order still holds at the warehouse location that the warehouse did not ship. */
export interface UnshippedLine {
  sku: string | null;
  title: string;
  quantity: number;
}

/** The units of one fulfillment order's lines to fulfil. */
export interface FulfilmentLines {
  fulfillmentOrderId: string;
  lineItems: Array<{ id: string; quantity: number }>;
}

export type FulfilmentPlan =
  | {
      action: "found";
      fulfillmentId: string;
      matchedBy: "known_id" | "tracking_number";
      trackingNumbers: string[];
      unshipped: UnshippedLine[];
    }
  | { action: "release_holds"; holds: Array<{ fulfillmentOrderId: string; holdIds: string[] }> }
  | {
      action: "create";
      fulfillmentOrderIds: string[];
      /** The units the warehouse shipped, line by line; absent: every remaining unit (nothing known sent). */
      lines?: FulfilmentLines[];
      unshipped: UnshippedLine[];
    }
  | { action: "problem"; problem: FulfillmentProblem };

export interface FulfilmentTarget {
  locationId: string;
  ttn: string;
  knownFulfillmentId?: string | null;
  /** Every waybill the order has had (waybillsOf): a fulfillment carrying any of them is ours. */
  waybills?: string[];
  /** The SKUs and counts the warehouse was sent (and took); null or absent: unknown, all that remains goes. */
  shipped?: Array<{ sku: string; count: number }> | null;
}

/** A fulfillment that stands: SUCCESS, or the deprecated OPEN and PENDING; not CANCELLED, ERROR or FAILURE. */
const LIVE_FULFILLMENT = new Set(["SUCCESS", "OPEN", "PENDING"]);
const FULFILLABLE_STATUS = new Set<FulfillmentOrderStatus>(["OPEN", "IN_PROGRESS"]);
const ACTIVE_STATUS = new Set<FulfillmentOrderStatus>(["OPEN", "IN_PROGRESS", "ON_HOLD", "SCHEDULED"]);

export function problem(
  code: FulfillmentProblemCode,
  details: Omit<FulfillmentProblem, "code" | "message"> = {},
) {
  return {
    action: "problem" as const,
    problem: { code, message: FULFILLMENT_PROBLEM_MESSAGES[code], ...details },
  };
}

const hasRemaining = (fo: PictureFulfillmentOrder) => fo.remainingQuantity > 0 || fo.moreLines;
const numbersOf = (fulfillment: PictureFulfillment) =>
  fulfillment.trackingInfo.flatMap((info) => (info.number ? [info.number] : []));

/**
 * Decides the next step for one shipped order. `found` comes first (by any waybill the order has had), so a
 * call whose answer was lost never makes a second fulfillment. With what the warehouse was sent known, only
 * those SKUs and units are fulfilled, and what else the order holds at the location is named as unshipped;
 * nothing is fulfilled in part while another piece of the shipment at the location is held, so one
 * fulfillment carries the whole shipment.
 */
export function planFulfilment(picture: FulfillmentPicture, target: FulfilmentTarget): FulfilmentPlan {
  const atLocation = picture.fulfillmentOrders.filter((fo) => fo.locationId === target.locationId);
  const active = atLocation.filter((fo) => ACTIVE_STATUS.has(fo.status) && hasRemaining(fo));
  const found = findOurFulfillment(picture, target);
  if (found) {
    // Ours already carries what the warehouse shipped: whatever still remains here, it did not ship.
    return found.action === "found" && target.shipped
      ? { ...found, unshipped: unshippedOf(active, new Map()) }
      : found;
  }

  const shipped = target.shipped ? budgetOf(target.shipped) : null;
  // A hold or a schedule on what the warehouse did not ship does not stop what it did ship.
  const pending = shipped
    ? active.filter((fo) => fo.moreLines || fo.lines.some((line) => shipped.has(line.sku ?? "")))
    : active;
  const heldByOthers = pending.flatMap((fo) =>
    fo.status === "ON_HOLD" ? fo.holds.filter((hold) => !hold.heldByRequestingApp) : [],
  );
  // ON_HOLD without a hold listed cannot be released by us either: it is the merchant's to clear.
  const heldWithoutHolds = pending.some((fo) => fo.status === "ON_HOLD" && fo.holds.length === 0);
  if (heldByOthers.length > 0 || heldWithoutHolds) {
    const holds = heldByOthers.map(({ reason, displayReason }) => ({ reason, displayReason }));
    return problem("on_hold", { holds });
  }
  const ours = pending.filter((fo) => fo.status === "ON_HOLD");
  if (ours.length > 0) {
    const holds = ours.map((fo) => ({ fulfillmentOrderId: fo.id, holdIds: fo.holds.map((hold) => hold.id) }));
    return { action: "release_holds", holds };
  }
  if (pending.some((fo) => fo.status === "SCHEDULED")) return problem("scheduled");

  const fulfillable = pending.filter(
    (fo) => FULFILLABLE_STATUS.has(fo.status) && fo.supportedActions.includes("CREATE_FULFILLMENT"),
  );
  if (fulfillable.length > 0 && !shipped)
    return { action: "create", fulfillmentOrderIds: fulfillable.map((fo) => fo.id), unshipped: [] };
  if (fulfillable.length > 0 && shipped) {
    const taken = new Map<string, number>();
    const lines = allocate(fulfillable, shipped, taken);
    if (lines.length === 0) return notShippedHere(picture, target, atLocation);
    return {
      action: "create",
      fulfillmentOrderIds: lines.map((group) => group.fulfillmentOrderId),
      lines,
      unshipped: unshippedOf(active, taken),
    };
  }
  return shipped
    ? notShippedHere(picture, target, atLocation)
    : whyNothingToFulfil(picture, target, atLocation);
}

/**
 * Nothing the warehouse shipped is left to fulfil here: why, as for any order, unless the order still holds
 * other items here (the order was changed after it was sent, and the warehouse shipped what it had).
 */
function notShippedHere(
  picture: FulfillmentPicture,
  target: FulfilmentTarget,
  atLocation: PictureFulfillmentOrder[],
): FulfilmentPlan {
  const why = whyNothingToFulfil(picture, target, atLocation);
  const stillHere = atLocation.some((fo) => ACTIVE_STATUS.has(fo.status) && hasRemaining(fo));
  return why.action === "problem" && why.problem.code === "no_fulfillment_order" && stillHere
    ? problem("shipped_not_in_order")
    : why;
}

/** Units by SKU, as the warehouse was sent them. */
function budgetOf(shipped: NonNullable<FulfilmentTarget["shipped"]>): Map<string, number> {
  const budget = new Map<string, number>();
  for (const { sku, count } of shipped) if (count > 0) budget.set(sku, (budget.get(sku) ?? 0) + count);
  return budget;
}

/**
 * The units to fulfil: each line of a SKU the warehouse shipped takes what remains on it, as far as the
 * units shipped go (a SKU on several lines fills them in turn). `taken` gets each line's units.
 */
function allocate(
  fulfillable: PictureFulfillmentOrder[],
  shipped: Map<string, number>,
  taken: Map<string, number>,
): FulfilmentLines[] {
  const left = new Map(shipped);
  const groups: FulfilmentLines[] = [];
  for (const fo of fulfillable) {
    const lineItems: FulfilmentLines["lineItems"] = [];
    for (const line of fo.lines) {
      const units = Math.min(line.remainingQuantity, left.get(line.sku ?? "") ?? 0);
      if (units <= 0) continue;
      left.set(line.sku!, left.get(line.sku!)! - units);
      taken.set(line.id, units);
      lineItems.push({ id: line.id, quantity: units });
    }
    if (lineItems.length) groups.push({ fulfillmentOrderId: fo.id, lineItems });
  }
  return groups;
}

/** What remains at the location once `taken` is fulfilled, one entry per SKU (or title, for an item without). */
function unshippedOf(active: PictureFulfillmentOrder[], taken: Map<string, number>): UnshippedLine[] {
  const byItem = new Map<string, UnshippedLine>();
  for (const line of active.flatMap((fo) => fo.lines)) {
    const quantity = line.remainingQuantity - (taken.get(line.id) ?? 0);
    if (quantity <= 0 || !line.requiresShipping) continue;
    const key = line.sku ?? `title:${line.title}`;
    const entry = byItem.get(key);
    if (entry) entry.quantity += quantity;
    else byItem.set(key, { sku: line.sku, title: line.title, quantity });
  }
  return [...byItem.values()];
}

function findOurFulfillment(picture: FulfillmentPicture, target: FulfilmentTarget): FulfilmentPlan | null {
  const known = target.knownFulfillmentId;
  if (known) {
    const stored = picture.fulfillments.find((fulfillment) => fulfillment.id === known);
    if (stored && !LIVE_FULFILLMENT.has(stored.status)) {
      return problem("fulfillment_cancelled", { fulfillmentIds: [stored.id] });
    }
    // Shopify never deletes a fulfillment: one stored but not read (an order with very many) still stands.
    const trackingNumbers = stored ? numbersOf(stored) : [];
    return { action: "found", fulfillmentId: known, matchedBy: "known_id", trackingNumbers, unshipped: [] };
  }
  const ttn = normaliseTtn(target.ttn);
  // Any waybill the order has had: a create whose answer was lost went with the waybill of its time.
  const ours = new Set([ttn, ...(target.waybills ?? []).map(normaliseTtn)]);
  const carries = (fulfillment: PictureFulfillment, wanted: (number: string) => boolean) =>
    numbersOf(fulfillment).some((number) => wanted(normaliseTtn(number)));
  const carrying = picture.fulfillments.filter((fulfillment) => carries(fulfillment, (n) => ours.has(n)));
  const live = carrying.filter((fulfillment) => LIVE_FULFILLMENT.has(fulfillment.status));
  // The one with today's waybill first; then the newest of the others (Shopify lists the oldest first).
  const chosen = live.find((fulfillment) => carries(fulfillment, (n) => n === ttn)) ?? live.at(-1);
  if (chosen) {
    return {
      action: "found",
      fulfillmentId: chosen.id,
      matchedBy: "tracking_number",
      trackingNumbers: numbersOf(chosen),
      unshipped: [],
    };
  }
  // Ours, cancelled by the merchant: making it again would undo their decision.
  if (carrying.length > 0)
    return problem("fulfillment_cancelled", { fulfillmentIds: carrying.map((f) => f.id) });
  return null;
}

/** Nothing at the location can be fulfilled: say why, in the order a merchant would look for it. */
function whyNothingToFulfil(
  picture: FulfillmentPicture,
  target: FulfilmentTarget,
  atLocation: PictureFulfillmentOrder[],
): FulfilmentPlan {
  const others = picture.fulfillments.filter((fulfillment) => LIVE_FULFILLMENT.has(fulfillment.status));
  const fulfilledHere = others.filter((fulfillment) => fulfillment.locationId === target.locationId);
  if (fulfilledHere.length > 0) {
    return problem("already_fulfilled", {
      fulfillmentIds: fulfilledHere.map((fulfillment) => fulfillment.id),
    });
  }
  const elsewhere = picture.fulfillmentOrders.filter(
    (fo) => fo.locationId !== target.locationId && ACTIVE_STATUS.has(fo.status) && hasRemaining(fo),
  );
  if (elsewhere.length > 0) {
    return problem("moved", { locations: [...new Set(elsewhere.map((fo) => fo.locationName))] });
  }
  if (others.length > 0 && picture.fulfillmentOrders.every((fo) => !hasRemaining(fo))) {
    return problem("already_fulfilled", { fulfillmentIds: others.map((fulfillment) => fulfillment.id) });
  }
  if (
    atLocation.some((fo) => fo.status === "CLOSED" || fo.status === "CANCELLED" || fo.status === "INCOMPLETE")
  ) {
    return problem("closed");
  }
  return problem("no_fulfillment_order");
}

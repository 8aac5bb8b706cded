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

export type FulfilmentPlan =
  | {
      action: "found";
      fulfillmentId: string;
      matchedBy: "known_id" | "tracking_number";
      trackingNumbers: string[];
    }
  | { action: "release_holds"; holds: Array<{ fulfillmentOrderId: string; holdIds: string[] }> }
  | { action: "create"; fulfillmentOrderIds: string[] }
  | { action: "problem"; problem: FulfillmentProblem };

export interface FulfilmentTarget {
  locationId: string;
  ttn: string;
  knownFulfillmentId?: string | null;
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
 * Decides the next step for one shipped order. `found` comes first, so a call whose answer was lost never
 * makes a second fulfillment; nothing is fulfilled in part while another piece at the location is held, so
 * one fulfillment carries the whole shipment.
 */
export function planFulfilment(picture: FulfillmentPicture, target: FulfilmentTarget): FulfilmentPlan {
  const found = findOurFulfillment(picture, target);
  if (found) return found;

  const atLocation = picture.fulfillmentOrders.filter((fo) => fo.locationId === target.locationId);
  const pending = atLocation.filter((fo) => ACTIVE_STATUS.has(fo.status) && hasRemaining(fo));
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
  if (fulfillable.length > 0)
    return { action: "create", fulfillmentOrderIds: fulfillable.map((fo) => fo.id) };

  return whyNothingToFulfil(picture, target, atLocation);
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
    return { action: "found", fulfillmentId: known, matchedBy: "known_id", trackingNumbers };
  }
  const ttn = normaliseTtn(target.ttn);
  const carrying = picture.fulfillments.filter((fulfillment) =>
    numbersOf(fulfillment).some((number) => normaliseTtn(number) === ttn),
  );
  const live = carrying.find((fulfillment) => LIVE_FULFILLMENT.has(fulfillment.status));
  if (live) {
    return {
      action: "found",
      fulfillmentId: live.id,
      matchedBy: "tracking_number",
      trackingNumbers: numbersOf(live),
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

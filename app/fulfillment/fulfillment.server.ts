// The Shopify side of a shipped warehouse order: one fulfillment with the waybill, exactly once, its tracking
// when the waybill changes, and the carrier's progress as fulfillment events. No fulfillment mutation takes an
// idempotency key, so every create is preceded by a read that finds a fulfillment an earlier, unanswered call
// made. Throttling is waited out and userErrors raised by the ShopAdmin client (ShopifyUserErrors).
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  FulfillmentCreateMutation,
  FulfillmentEventAddMutation,
  FulfillmentHoldReleaseMutation,
  FulfillmentNowQuery,
  FulfillmentOrderLinesQuery,
  FulfillmentTrackingUpdateMutation,
  OrderFulfillmentPictureQuery,
} from "../types/admin.generated";
import { normaliseTtn, type TrackingDetails } from "./carriers";
import type { FulfillmentEventStatus } from "./carrier-events";
import {
  planFulfilment,
  problem,
  type FulfillmentOrderStatus,
  type FulfillmentPicture,
  type FulfillmentProblem,
  type FulfilmentPlan,
  type PictureFulfillmentOrder,
  type PictureLine,
  type UnshippedLine,
} from "./plan";

// Ten fulfillment orders of up to 25 lines a page keeps the requested cost near 330 points, a third of the
// single-query limit; an order with more is read page by page, and a fulfillment order with more lines has
// the rest read by FULFILLMENT_ORDER_LINES_QUERY (a fulfillment carries what the warehouse shipped, line by
// line, so every line must be known).
export const ORDER_FULFILLMENT_PICTURE_QUERY = `#graphql
  query OrderFulfillmentPicture($id: ID!, $after: String) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 10, after: $after) {
        nodes {
          id
          status
          assignedLocation {
            name
            location {
              id
            }
          }
          supportedActions {
            action
          }
          fulfillmentHolds {
            id
            reason
            displayReason
            heldByRequestingApp
          }
          lineItems(first: 25) {
            nodes {
              id
              sku
              productTitle
              variantTitle
              requiresShipping
              remainingQuantity
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      fulfillments(first: 50) {
        id
        status
        location {
          id
        }
        trackingInfo(first: 10) {
          number
          company
          url
        }
      }
    }
  }
`;

export const FULFILLMENT_ORDER_LINES_QUERY = `#graphql
  query FulfillmentOrderLines($id: ID!, $after: String) {
    fulfillmentOrder(id: $id) {
      lineItems(first: 100, after: $after) {
        nodes {
          id
          sku
          productTitle
          variantTitle
          requiresShipping
          remainingQuantity
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

/** What a fulfillment shows now: its tracking and its newest event, read before either is written. */
export const FULFILLMENT_NOW_QUERY = `#graphql
  query FulfillmentNow($id: ID!) {
    fulfillment(id: $id) {
      id
      status
      trackingInfo(first: 10) {
        number
        company
        url
      }
      events(first: 1, reverse: true, sortKey: ID) {
        nodes {
          status
        }
      }
    }
  }
`;

export const FULFILLMENT_CREATE_MUTATION = `#graphql
  mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const FULFILLMENT_HOLD_RELEASE_MUTATION = `#graphql
  mutation FulfillmentHoldRelease($id: ID!, $holdIds: [ID!]) {
    fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
      fulfillmentOrder {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export const FULFILLMENT_TRACKING_UPDATE_MUTATION = `#graphql
  mutation FulfillmentTrackingUpdate(
    $fulfillmentId: ID!
    $trackingInfoInput: FulfillmentTrackingInput!
    $notifyCustomer: Boolean
  ) {
    fulfillmentTrackingInfoUpdate(
      fulfillmentId: $fulfillmentId
      trackingInfoInput: $trackingInfoInput
      notifyCustomer: $notifyCustomer
    ) {
      fulfillment {
        id
        trackingInfo(first: 10) {
          number
          company
          url
        }
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const FULFILLMENT_EVENT_ADD_MUTATION = `#graphql
  mutation FulfillmentEventAdd($fulfillmentEvent: FulfillmentEventInput!) {
    fulfillmentEventCreate(fulfillmentEvent: $fulfillmentEvent) {
      fulfillmentEvent {
        id
        status
        happenedAt
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/** The order's fulfillment orders (every page) and fulfillments; null when Shopify has no such order. */
export async function readFulfillmentPicture(
  admin: ShopAdmin,
  orderId: string,
): Promise<FulfillmentPicture | null> {
  const fulfillmentOrders: PictureFulfillmentOrder[] = [];
  let after: string | null = null;
  for (;;) {
    const data: OrderFulfillmentPictureQuery = await admin.query<OrderFulfillmentPictureQuery>(
      ORDER_FULFILLMENT_PICTURE_QUERY,
      { id: orderId, after },
    );
    const order = data.order;
    if (!order) return null;
    for (const fo of order.fulfillmentOrders.nodes) {
      const lines = fo.lineItems.nodes.map(pictureLine);
      const more = fo.lineItems.pageInfo;
      if (more.hasNextPage && more.endCursor) lines.push(...(await moreLines(admin, fo.id, more.endCursor)));
      fulfillmentOrders.push({
        id: fo.id,
        status: fo.status as FulfillmentOrderStatus,
        locationId: fo.assignedLocation.location?.id ?? null,
        locationName: fo.assignedLocation.name,
        supportedActions: fo.supportedActions.map((supported) => supported.action as string),
        holds: fo.fulfillmentHolds.map((hold) => ({ ...hold, reason: hold.reason as string })),
        remainingQuantity: lines.reduce((sum, line) => sum + line.remainingQuantity, 0),
        moreLines: false,
        lines,
      });
    }
    const page = order.fulfillmentOrders.pageInfo;
    if (!page.hasNextPage || !page.endCursor) {
      const fulfillments = order.fulfillments.map((fulfillment) => ({
        id: fulfillment.id,
        status: fulfillment.status as string,
        locationId: fulfillment.location?.id ?? null,
        trackingInfo: fulfillment.trackingInfo.map(({ number, company, url }) => ({
          number: number ?? null,
          company: company ?? null,
          url: url ? String(url) : null,
        })),
      }));
      return { orderId: order.id, fulfillmentOrders, fulfillments };
    }
    after = page.endCursor;
  }
}

type LineNode = OrderFulfillmentPictureQuery extends {
  order?: { fulfillmentOrders: { nodes: Array<{ lineItems: { nodes: Array<infer Line> } }> } } | null;
}
  ? Line
  : never;

function pictureLine(line: LineNode): PictureLine {
  const title = [line.productTitle, line.variantTitle].filter(Boolean).join(" - ");
  const { id, requiresShipping, remainingQuantity } = line;
  return { id, sku: line.sku || null, title, requiresShipping, remainingQuantity };
}

/** The lines of a fulfillment order past its first page, page by page. */
async function moreLines(admin: ShopAdmin, id: string, from: string): Promise<PictureLine[]> {
  const lines: PictureLine[] = [];
  for (let after: string | null = from; after;) {
    const data: FulfillmentOrderLinesQuery = await admin.query<FulfillmentOrderLinesQuery>(
      FULFILLMENT_ORDER_LINES_QUERY,
      { id, after },
    );
    const page = data.fulfillmentOrder?.lineItems;
    if (!page) break;
    lines.push(...page.nodes.map(pictureLine));
    after = page.pageInfo.hasNextPage ? (page.pageInfo.endCursor ?? null) : null;
  }
  return lines;
}

export interface FulfilOrderInput {
  /** The Shopify order's GID. */
  orderId: string;
  /** The GID of the location that stands for the warehouse (the shop's setting). */
  locationId: string;
  /** The waybill: sent as the tracking number, and how a fulfillment made earlier is recognised. */
  ttn: string;
  /** The carrier as text and the waybill's tracking page (trackingFor gives both). */
  company: string;
  url: string;
  /** Whether Shopify e-mails the buyer (the shop's notifyBuyer setting). */
  notifyCustomer: boolean;
  /** The fulfillment stored for this order, if any: found again rather than made twice. */
  knownFulfillmentId?: string | null;
  /** Every waybill the order has had: a fulfillment carrying any of them is ours. */
  waybills?: string[];
  /** The SKUs and counts the warehouse was sent and took: only those are fulfilled. */
  shipped?: Array<{ sku: string; count: number }> | null;
  /**
   * Called just before fulfillmentCreate with the waybill it goes with: keeps it in the order's history, so a
   * create whose answer is lost is found by it even after the warehouse changes the waybill. Throws to stop.
   */
  beforeCreate?: (ttn: string) => Promise<void>;
}

export type FulfilOrderResult =
  | { kind: "created"; fulfillmentId: string; releasedHoldIds: string[]; unshipped: UnshippedLine[] }
  | {
      kind: "found";
      fulfillmentId: string;
      matchedBy: "known_id" | "tracking_number";
      /** The numbers the fulfillment carries: a different one than the waybill means its tracking is stale. */
      trackingNumbers: string[];
      unshipped: UnshippedLine[];
    }
  | { kind: "problem"; problem: FulfillmentProblem };

/**
 * Makes the one fulfillment of a shipped order at the warehouse location, or finds the one already made, or
 * says what the merchant must solve. Holds the app placed itself are released first (then the order is read
 * again); any other hold is the merchant's. Safe to call again after any failure, including an unanswered
 * create: the read before it finds the fulfillment by its waybill.
 */
export async function fulfilOrder(admin: ShopAdmin, input: FulfilOrderInput): Promise<FulfilOrderResult> {
  const releasedHoldIds: string[] = [];
  // One round to release our own holds, one to fulfil; a hold of ours back again after that is not fought.
  for (let round = 0; round < 2; round++) {
    const picture = await readFulfillmentPicture(admin, input.orderId);
    if (!picture) return { kind: "problem", problem: problem("order_not_found").problem };
    const plan = planFulfilment(picture, input);
    switch (plan.action) {
      case "found": {
        const { fulfillmentId, matchedBy, trackingNumbers, unshipped } = plan;
        return { kind: "found", fulfillmentId, matchedBy, trackingNumbers, unshipped };
      }
      case "problem":
        return { kind: "problem", problem: plan.problem };
      case "create": {
        await input.beforeCreate?.(normaliseTtn(input.ttn));
        const fulfillmentId = await createFulfillment(admin, plan, input);
        return { kind: "created", fulfillmentId, releasedHoldIds, unshipped: plan.unshipped };
      }
      case "release_holds":
        if (round > 0) break;
        for (const { fulfillmentOrderId, holdIds } of plan.holds) {
          await admin.mutate<FulfillmentHoldReleaseMutation>(FULFILLMENT_HOLD_RELEASE_MUTATION, {
            id: fulfillmentOrderId,
            holdIds,
          });
          releasedHoldIds.push(...holdIds);
        }
        continue;
    }
  }
  return { kind: "problem", problem: problem("on_hold").problem };
}

async function createFulfillment(
  admin: ShopAdmin,
  plan: Extract<FulfilmentPlan, { action: "create" }>,
  input: FulfilOrderInput,
): Promise<string> {
  // The lines and units the warehouse shipped, as read just now (never more than remains). Without any known
  // sent, no line items named: each fulfillment order's every remaining unit.
  const byFulfillmentOrder = plan.lines
    ? plan.lines.map(({ fulfillmentOrderId, lineItems }) => ({
        fulfillmentOrderId,
        fulfillmentOrderLineItems: lineItems,
      }))
    : plan.fulfillmentOrderIds.map((fulfillmentOrderId) => ({ fulfillmentOrderId }));
  const data = await admin.mutate<FulfillmentCreateMutation>(FULFILLMENT_CREATE_MUTATION, {
    fulfillment: {
      lineItemsByFulfillmentOrder: byFulfillmentOrder,
      trackingInfo: { company: input.company, number: normaliseTtn(input.ttn), url: input.url },
      notifyCustomer: input.notifyCustomer,
    },
  });
  const id = data.fulfillmentCreate?.fulfillment?.id;
  if (!id) throw new Error("Shopify answered fulfillmentCreate without a fulfillment or an error");
  return id;
}

/**
 * Replaces a fulfillment's tracking (a changed waybill). `notifyCustomer` also decides whether the buyer hears
 * of later updates to this fulfillment, as Shopify defines the argument. Returns the tracking as Shopify kept it.
 */
export async function updateTracking(
  admin: ShopAdmin,
  fulfillmentId: string,
  tracking: TrackingDetails,
  notifyCustomer: boolean,
): Promise<TrackingDetails[]> {
  const data = await admin.mutate<FulfillmentTrackingUpdateMutation>(FULFILLMENT_TRACKING_UPDATE_MUTATION, {
    fulfillmentId,
    // `url` goes with `number`, never with `numbers`/`urls` (FulfillmentTrackingInput).
    trackingInfoInput: { company: tracking.company, number: tracking.number, url: tracking.url },
    notifyCustomer,
  });
  const fulfillment = data.fulfillmentTrackingInfoUpdate?.fulfillment;
  if (!fulfillment) throw new Error("Shopify answered fulfillmentTrackingInfoUpdate without a fulfillment");
  return fulfillment.trackingInfo.map(({ company, number, url }) => ({
    company: company ?? "",
    number: number ?? "",
    url: url ? String(url) : "",
  }));
}

export interface FulfillmentEventInput {
  status: FulfillmentEventStatus;
  /** When the carrier reported it, not when Shopify is told. */
  happenedAt: Date;
  /** Shown to the merchant and on the buyer's order status page: the carrier's own status text. */
  message?: string | null;
}

/** Adds the carrier's progress to a fulfillment; returns the event's id. */
export async function addFulfillmentEvent(
  admin: ShopAdmin,
  fulfillmentId: string,
  event: FulfillmentEventInput,
): Promise<string> {
  const data = await admin.mutate<FulfillmentEventAddMutation>(FULFILLMENT_EVENT_ADD_MUTATION, {
    fulfillmentEvent: {
      fulfillmentId,
      status: event.status,
      happenedAt: event.happenedAt.toISOString(),
      ...(event.message ? { message: event.message } : {}),
    },
  });
  const id = data.fulfillmentEventCreate?.fulfillmentEvent?.id;
  if (!id) throw new Error("Shopify answered fulfillmentEventCreate without an event or an error");
  return id;
}

/** What a fulfillment shows now; null when Shopify has none by that id. */
export interface FulfillmentNow {
  status: string;
  trackingNumbers: string[];
  /** The status of the newest event, or null when it has none. */
  lastEvent: string | null;
}

export async function readFulfillmentNow(
  admin: ShopAdmin,
  fulfillmentId: string,
): Promise<FulfillmentNow | null> {
  const data = await admin.query<FulfillmentNowQuery>(FULFILLMENT_NOW_QUERY, { id: fulfillmentId });
  const fulfillment = data.fulfillment;
  if (!fulfillment) return null;
  return {
    status: fulfillment.status as string,
    trackingNumbers: fulfillment.trackingInfo.flatMap((info) => (info.number ? [info.number] : [])),
    lastEvent: (fulfillment.events.nodes[0]?.status as string | undefined) ?? null,
  };
}

/**
 * Gives the fulfillment the waybill unless Shopify shows it already: an update whose answer was lost is not
 * made again, so the buyer gets no second tracking e-mail. Answers whether it wrote.
 */
export async function updateTrackingOnce(
  admin: ShopAdmin,
  fulfillmentId: string,
  tracking: TrackingDetails,
  notifyCustomer: boolean,
): Promise<boolean> {
  const now = await readFulfillmentNow(admin, fulfillmentId);
  const wanted = normaliseTtn(tracking.number);
  if (now?.trackingNumbers.some((number) => normaliseTtn(number) === wanted)) return false;
  // A fulfillment not found is left to the update, whose userErrors say so.
  await updateTracking(admin, fulfillmentId, tracking, notifyCustomer);
  return true;
}

/**
 * Adds the event unless it is the fulfillment's newest already (an earlier call's answer was lost): a retry
 * puts no second line on the buyer's order status page. Answers whether it wrote.
 */
export async function addFulfillmentEventOnce(
  admin: ShopAdmin,
  fulfillmentId: string,
  event: FulfillmentEventInput,
): Promise<boolean> {
  const now = await readFulfillmentNow(admin, fulfillmentId);
  if (now?.lastEvent === event.status) return false;
  await addFulfillmentEvent(admin, fulfillmentId, event);
  return true;
}

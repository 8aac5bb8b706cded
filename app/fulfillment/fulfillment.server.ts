// The Shopify side of a shipped warehouse order: one fulfillment with the waybill, exactly once, its tracking
// when the waybill changes, and the carrier's progress as fulfillment events. No fulfillment mutation takes an
// idempotency key, so every create is preceded by a read that finds a fulfillment an earlier, unanswered call
// made. Throttling is waited out and userErrors raised by the ShopAdmin client (ShopifyUserErrors).
import type { ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  FulfillmentCreateMutation,
  FulfillmentEventAddMutation,
  FulfillmentHoldReleaseMutation,
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
  type PictureFulfillmentOrder,
} from "./plan";

// Ten fulfillment orders of up to 25 lines a page keeps the requested cost near 330 points, a third of the
// single-query limit; an order with more is read page by page. Lines beyond 25 only matter for telling
// "nothing left" apart, and are counted as remaining.
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
              remainingQuantity
            }
            pageInfo {
              hasNextPage
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
      fulfillmentOrders.push({
        id: fo.id,
        status: fo.status as FulfillmentOrderStatus,
        locationId: fo.assignedLocation.location?.id ?? null,
        locationName: fo.assignedLocation.name,
        supportedActions: fo.supportedActions.map((supported) => supported.action as string),
        holds: fo.fulfillmentHolds.map((hold) => ({ ...hold, reason: hold.reason as string })),
        remainingQuantity: fo.lineItems.nodes.reduce((sum, line) => sum + line.remainingQuantity, 0),
        moreLines: fo.lineItems.pageInfo.hasNextPage,
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
}

export type FulfilOrderResult =
  | { kind: "created"; fulfillmentId: string; releasedHoldIds: string[] }
  | {
      kind: "found";
      fulfillmentId: string;
      matchedBy: "known_id" | "tracking_number";
      /** The numbers the fulfillment carries: a different one than the waybill means its tracking is stale. */
      trackingNumbers: string[];
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
      case "found":
        return {
          kind: "found",
          fulfillmentId: plan.fulfillmentId,
          matchedBy: plan.matchedBy,
          trackingNumbers: plan.trackingNumbers,
        };
      case "problem":
        return { kind: "problem", problem: plan.problem };
      case "create": {
        const fulfillmentId = await createFulfillment(admin, plan.fulfillmentOrderIds, input);
        return { kind: "created", fulfillmentId, releasedHoldIds };
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
  fulfillmentOrderIds: string[],
  input: FulfilOrderInput,
): Promise<string> {
  // No line items named: each fulfillment order's every remaining unit, so a retry after a partial change
  // can never ask for more than remains.
  const data = await admin.mutate<FulfillmentCreateMutation>(FULFILLMENT_CREATE_MUTATION, {
    fulfillment: {
      lineItemsByFulfillmentOrder: fulfillmentOrderIds.map((fulfillmentOrderId) => ({ fulfillmentOrderId })),
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

// What the app owes Shopify on a fulfillment order's request in fulfillment-service mode, decided from the
// warehouse order's state alone (pure). A fulfillment request is accepted once the warehouse has taken the
// order, waits while the order is on its way there or held for the merchant, and is rejected only when the
// warehouse refused it for good; a cancellation request is accepted once nothing will ship, rejected with the
// stage in words once the warehouse picked or shipped it or refused to cancel it, and waits while the
// cancellation is on its way to the warehouse.
import { ATTENTION, ORDER_STATE, PENDING, STAGE } from "../orders/states";

/** The answers kept on ShopifyFulfillmentOrder.answer / .answered. */
export const ANSWER = {
  accept: "accept",
  reject: "reject",
  acceptCancellation: "accept_cancellation",
  rejectCancellation: "reject_cancellation",
} as const;
export type Answer = (typeof ANSWER)[keyof typeof ANSWER];

/** The request statuses that still want an answer, and which request each is. */
export const REQUEST_OF_STATUS: Record<string, "fulfillment" | "cancellation" | undefined> = {
  SUBMITTED: "fulfillment",
  CANCELLATION_REQUESTED: "cancellation",
};

/** The request statuses an answer leaves behind: seen after a call without an answer, it was made. */
export const STATUS_AFTER: Record<Answer, string> = {
  accept: "ACCEPTED",
  reject: "REJECTED",
  accept_cancellation: "CANCELLATION_ACCEPTED",
  reject_cancellation: "CANCELLATION_REJECTED",
};

/** What of the warehouse order the answer reads. */
export interface OrderFacts {
  state: string;
  stage: string | null;
  pending: string | null;
  attention: string | null;
  attentionMessage: string | null;
  lastError: string | null;
  /** Set once the warehouse had the order (its id there). */
  idOrderFF: string | null;
  /** Why a waiting order waits for Shopify (routing, on_hold, scheduled, request). */
  waitReason?: string | null;
}

/** Why a request waits: the order is on its way to the warehouse, or only the merchant can move it on. */
export type WaitWhy = "not_recorded" | "in_flight" | "merchant" | "cancelling";

export type Decision =
  | { do: "nothing" }
  | { do: "wait"; why: WaitWhy }
  | { do: "answer"; answer: "accept" }
  | {
      do: "answer";
      answer: "reject";
      why: "refused" | "cancelled_at_warehouse" | "cancelled";
      said: string | null;
    }
  | { do: "answer"; answer: "accept_cancellation" }
  | { do: "answer"; answer: "reject_cancellation"; stage: string; said: string | null };

/** Stages after which the warehouse can no longer stop the parcel. */
const TOO_LATE = new Set<string>([STAGE.picked, STAGE.shipped, STAGE.delivered, STAGE.returned]);

/** Order states the warehouse never had an order in (nothing to cancel there). */
const NEVER_SENT = new Set<string>([
  ORDER_STATE.held,
  ORDER_STATE.rejected,
  ORDER_STATE.waiting,
  ORDER_STATE.elsewhere,
]);

export function decideAnswer(requestStatus: string, order: OrderFacts | null): Decision {
  const request = REQUEST_OF_STATUS[requestStatus];
  if (!request) return { do: "nothing" };
  return request === "fulfillment" ? fulfillmentAnswer(order) : cancellationAnswer(order);
}

function fulfillmentAnswer(order: OrderFacts | null): Decision {
  // The order webhook has not come yet: it will, and the order goes its way.
  if (!order) return { do: "wait", why: "not_recorded" };
  switch (order.state) {
    case ORDER_STATE.accepted:
      if (order.stage === STAGE.cancelledAtWarehouse) {
        return { do: "answer", answer: "reject", why: "cancelled_at_warehouse", said: null };
      }
      return { do: "answer", answer: "accept" };
    case ORDER_STATE.rejected:
      // The warehouse refused the order: its words go to Shopify, where the merchant reads them.
      return {
        do: "answer",
        answer: "reject",
        why: "refused",
        said: order.lastError ?? order.attentionMessage,
      };
    case ORDER_STATE.cancelled:
      return { do: "answer", answer: "reject", why: "cancelled", said: null };
    case ORDER_STATE.held:
      return { do: "wait", why: "merchant" };
    case ORDER_STATE.waiting:
      // On hold in Shopify: only the merchant releases it; otherwise Shopify's routing moves it on soon.
      return { do: "wait", why: order.waitReason === "on_hold" ? "merchant" : "in_flight" };
    default:
      // Not found at the warehouse after a lost answer, or retries run out: the merchant decides.
      if (order.attention === ATTENTION.notAtWarehouse || order.attention === ATTENTION.retriesExhausted) {
        return { do: "wait", why: "merchant" };
      }
      return { do: "wait", why: "in_flight" };
  }
}

function cancellationAnswer(order: OrderFacts | null): Decision {
  if (!order) return { do: "answer", answer: "accept_cancellation" };
  if (order.stage && TOO_LATE.has(order.stage)) {
    return { do: "answer", answer: "reject_cancellation", stage: order.stage, said: null };
  }
  if (order.stage === STAGE.cancelledAtWarehouse || order.state === ORDER_STATE.cancelled) {
    return { do: "answer", answer: "accept_cancellation" };
  }
  if (order.attention === ATTENTION.cancelRefused) {
    return {
      do: "answer",
      answer: "reject_cancellation",
      stage: order.stage ?? "refused",
      said: order.attentionMessage,
    };
  }
  // Never reached the warehouse, and cannot go now (not ready to send): nothing there to stop.
  if (NEVER_SENT.has(order.state) && !order.idOrderFF) return { do: "answer", answer: "accept_cancellation" };
  if (order.state === ORDER_STATE.accepted && order.pending === PENDING.cancel)
    return { do: "wait", why: "cancelling" };
  // Ready, being sent or in doubt, or accepted without a cancellation queued yet: the order side moves it on.
  return { do: "wait", why: "cancelling" };
}

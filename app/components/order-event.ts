// The short label of each kind of timeline event, shown beside the event's own sentence. A record over
// every kind, so a new kind cannot reach the page without one.
import type { EventKind } from "../orders/states";

export const EVENT_LABEL: Record<EventKind, string> = {
  received: "Received",
  updated: "Updated in Shopify",
  held: "Held",
  ready: "Ready to send",
  corrected: "Corrected",
  sent: "Sent",
  accepted: "Accepted",
  rejected: "Rejected",
  retry_scheduled: "Retry scheduled",
  retries_exhausted: "Retries run out",
  in_doubt: "In doubt",
  found_at_warehouse: "Found at the warehouse",
  not_at_warehouse: "Not at the warehouse",
  paused: "Paused",
  edit_queued: "Change queued",
  edited: "Changed at the warehouse",
  edit_refused: "Change refused",
  cancel_queued: "Cancellation queued",
  cancelled: "Cancelled",
  cancel_refused: "Cancellation refused",
  retry_requested: "Retry requested",
  batch_unproven: "Batch not confirmed",
  picked: "Picked",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled_at_warehouse: "Cancelled by the warehouse",
  returned: "Returned",
  ttn_assigned: "Waybill assigned",
  ttn_changed: "Waybill changed",
  status_unknown: "Unknown status",
  fulfilled: "Fulfilled in Shopify",
  tracking_updated: "Tracking updated in Shopify",
  fulfillment_event: "Delivery progress in Shopify",
  fulfillment_problem: "Shopify needs you",
  awaiting_cards: "Waiting for product cards",
  cards_accepted: "Product cards at the warehouse",
};

/** The label of a stored kind; a kind written by a newer version reads as itself. */
export function eventLabel(kind: string): string {
  return Object.hasOwn(EVENT_LABEL, kind) ? EVENT_LABEL[kind as EventKind] : kind;
}

// The states an order passes through on its way to the warehouse, with what each means to a merchant.
// held → (merchant fixes) → ready → submitting → accepted; a request without a definite answer leaves
// it in_doubt until it is looked up; the warehouse refusing it leaves it rejected with its message.
export const ORDER_STATE = {
  held: "held",
  ready: "ready",
  submitting: "submitting",
  inDoubt: "in_doubt",
  accepted: "accepted",
  rejected: "rejected",
  cancelled: "cancelled",
} as const;
export type OrderState = (typeof ORDER_STATE)[keyof typeof ORDER_STATE];
export const ORDER_STATES = Object.values(ORDER_STATE);

export const ORDER_STATE_DESCRIPTION: Record<OrderState, string> = {
  held: "Waiting for you: something in the order must be fixed before it can go to the warehouse.",
  ready: "Waiting to be sent to the warehouse; it goes out with the next batch.",
  submitting: "Being sent to the warehouse now.",
  in_doubt:
    "The warehouse gave no clear answer when it was sent. It is being looked up at the warehouse; it is never sent again on a guess, so it cannot arrive twice. If the warehouse does not have it, you decide whether to send it again.",
  accepted: "The warehouse has the order.",
  rejected: "The warehouse refused the order; its reason is shown. Fix it and retry.",
  cancelled: "Cancelled; the warehouse will not ship it.",
};

/** A change that must still reach an order the warehouse already has. */
export const PENDING = { edit: "edit", cancel: "cancel" } as const;
export type Pending = (typeof PENDING)[keyof typeof PENDING];

/**
 * Whether an account's warehouse answered a batched AddOrder in the form we expect (ShopSettings.batchProof):
 * until proven, orders go one a request but for one batch of two; a batch answered otherwise turns it off.
 */
export const BATCH_PROOF = { unproven: "unproven", proven: "proven", failed: "failed" } as const;
export type BatchProof = (typeof BATCH_PROOF)[keyof typeof BATCH_PROOF];

/** Problems only the merchant can solve, shown on the order until they act. */
export const ATTENTION = {
  editRefused: "edit_refused",
  editHeld: "edit_held",
  cancelRefused: "cancel_refused",
  /** Found at the warehouse without its key_order: changes must be made at the warehouse. */
  editImpossible: "edit_impossible",
  /** In doubt, and not found at the warehouse after it had time enough: sent again only if the merchant says so. */
  notAtWarehouse: "not_at_warehouse",
  /** A request failed MAX_ATTEMPTS times over: retried only when the merchant asks. */
  retriesExhausted: "retries_exhausted",
} as const;
export type Attention = (typeof ATTENTION)[keyof typeof ATTENTION];

/** The kinds of an order's timeline events (see timeline.server.ts). */
export const EVENT = {
  received: "received",
  updated: "updated",
  held: "held",
  ready: "ready",
  corrected: "corrected",
  sent: "sent",
  accepted: "accepted",
  rejected: "rejected",
  retryScheduled: "retry_scheduled",
  retriesExhausted: "retries_exhausted",
  inDoubt: "in_doubt",
  foundAtWarehouse: "found_at_warehouse",
  notAtWarehouse: "not_at_warehouse",
  paused: "paused",
  editQueued: "edit_queued",
  edited: "edited",
  editRefused: "edit_refused",
  cancelQueued: "cancel_queued",
  cancelled: "cancelled",
  cancelRefused: "cancel_refused",
  retryRequested: "retry_requested",
  batchUnproven: "batch_unproven",
} as const;
export type EventKind = (typeof EVENT)[keyof typeof EVENT];

/** The ShopSchedule kind of a re-mapping run after the shop's mapping changed (app/orders/remap.server.ts). */
export const REMAP_KIND = "remap_orders";

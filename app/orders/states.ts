// The states an order passes through on its way to the warehouse, with what each means to a merchant.
// held → (merchant fixes) → ready → submitting → accepted; a request without a definite answer leaves
// it in_doubt until it is looked up; the warehouse refusing it leaves it rejected with its message.
// Before any of that, Shopify decides what of the order is the warehouse's (app/routing/): until it has, the
// order is waiting (WarehouseOrder.waitReason says for what); with nothing at the warehouse's location it is
// elsewhere (not a hold: nothing is sent, and it becomes the warehouse's if its items are moved there).
export const ORDER_STATE = {
  waiting: "waiting",
  held: "held",
  ready: "ready",
  submitting: "submitting",
  inDoubt: "in_doubt",
  accepted: "accepted",
  rejected: "rejected",
  cancelled: "cancelled",
  elsewhere: "elsewhere",
} as const;
export type OrderState = (typeof ORDER_STATE)[keyof typeof ORDER_STATE];
export const ORDER_STATES = Object.values(ORDER_STATE);

/** States in which the warehouse certainly does not have the order: a cancellation needs no CancelOrder. */
export const UNSENT_STATES: readonly string[] = [
  ORDER_STATE.held,
  ORDER_STATE.ready,
  ORDER_STATE.rejected,
  ORDER_STATE.waiting,
  ORDER_STATE.elsewhere,
];

export const ORDER_STATE_DESCRIPTION: Record<OrderState, string> = {
  waiting:
    "Waiting for Shopify: the order is not routed yet, is on hold or scheduled for later there, or waits for its fulfillment request; it goes to the warehouse once Shopify is done.",
  elsewhere:
    "Not the warehouse's: Shopify assigned none of its items to the warehouse's location, so nothing is sent. It is sent if its items are moved there.",
  held: "Waiting for you: something in the order must be fixed before it can go to the warehouse.",
  ready: "Waiting to be sent to the warehouse; it goes out with the next batch.",
  submitting: "Being sent to the warehouse now.",
  in_doubt:
    "The warehouse gave no clear answer when it was sent. It is being looked up at the warehouse; it is never sent again on a guess, so it cannot arrive twice. If the warehouse does not have it, you decide whether to send it again.",
  accepted: "The warehouse has the order.",
  rejected: "The warehouse refused the order; its reason is shown. Fix it and retry.",
  cancelled: "Cancelled; the warehouse will not ship it.",
};

/**
 * Where an accepted order is at the warehouse (WarehouseOrder.stage; null: not yet picked). Stages only move
 * forward, by their rank: a report of an earlier or an equal one changes nothing. Cancelled at the warehouse
 * can follow picking but not shipping; returned can follow shipping or delivery.
 */
export const STAGE = {
  picked: "picked",
  shipped: "shipped",
  delivered: "delivered",
  cancelledAtWarehouse: "cancelled_at_warehouse",
  returned: "returned",
} as const;
export type Stage = (typeof STAGE)[keyof typeof STAGE];
export const STAGES = Object.values(STAGE) as [Stage, ...Stage[]];
export const STAGE_RANK: Record<Stage, number> = {
  picked: 1,
  shipped: 2,
  cancelled_at_warehouse: 2,
  delivered: 3,
  returned: 4,
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
  /** The warehouse cancelled the order, or it came back: the merchant decides what happens in Shopify. */
  cancelledAtWarehouse: "cancelled_at_warehouse",
  returned: "returned",
  /** Part of what was sent came back: the order keeps its stage, the merchant decides about what came back. */
  partlyReturned: "partly_returned",
  /** Shopify moved, cancelled or split the warehouse's items after the warehouse picked the order. */
  routingChangedAfterPicking: "routing_changed_after_picking",
  /**
   * The order's fulfillment orders could not be applied to it, time after time (app/routing/failures.server.ts):
   * put aside until its fulfillment orders change or the merchant retries.
   */
  routingFailed: "routing_failed",
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
  picked: "picked",
  shipped: "shipped",
  delivered: "delivered",
  cancelledAtWarehouse: "cancelled_at_warehouse",
  returned: "returned",
  ttnAssigned: "ttn_assigned",
  ttnChanged: "ttn_changed",
  statusUnknown: "status_unknown",
  fulfilled: "fulfilled",
  trackingUpdated: "tracking_updated",
  fulfillmentEvent: "fulfillment_event",
  fulfillmentProblem: "fulfillment_problem",
  /** Fulfilled for what the warehouse shipped, with items of the Shopify order left unshipped. */
  unshipped: "unshipped",
  awaitingCards: "awaiting_cards",
  cardsAccepted: "cards_accepted",
  cardsNotAwaited: "cards_not_awaited",
  dataErased: "data_erased",
  branchFound: "branch_found",
  cityFound: "city_found",
  /** Routing (app/routing/): waiting for Shopify, not the warehouse's, the warehouse's lines decided or changed. */
  waiting: "waiting",
  elsewhere: "elsewhere",
  routed: "routed",
  routingChanged: "routing_changed",
  routingFailed: "routing_failed",
} as const;
export type EventKind = (typeof EVENT)[keyof typeof EVENT];

/** The ShopSchedule kind of a re-mapping run after the shop's mapping changed (app/orders/remap.server.ts). */
export const REMAP_KIND = "remap_orders";

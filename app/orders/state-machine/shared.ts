// What every part of the order rules shares: the row's facts as read, the patch and timeline events a
// transition answers, the inputs it takes, and the few helpers all parts use (a refusal, no change, a cancel).
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import type { UnshippedLine } from "../../fulfillment/plan";
import { message, type Message } from "../../i18n/message";
import type { MappingResult } from "../mapping";
import type { RoutingDecision } from "../../routing/decide";
import { storedTexts } from "../timeline";
import { inEnglish } from "../words";
import { ORDER_STATE, type EventKind, type Stage } from "../states";

/** Transient failures of one request are retried this many times; then the order waits for the merchant. */
export const MAX_ATTEMPTS = 12;

/** What of a row the rules read. */
export type OrderFacts = Pick<
  OrderRow,
  "state" | "mapped" | "holdReasons" | "sentOrder" | "pending" | "attempts" | "cancelledAt" | "attention"
> &
  Partial<
    Pick<
      OrderRow,
      | "stage"
      | "ttn"
      | "warehouseStatus"
      | "carrierStatus"
      | "fulfillmentId"
      | "fulfilledTtn"
      | "fulfillmentEvent"
      | "fulfillmentProblem"
      | "fulfillmentAttempts"
      | "waybills"
      | "unshipped"
      | "waitReason"
      | "warehouseLines"
      | "nextAttemptAt"
    >
  >;

/** The columns a transition writes (the caller adds the version and updatedAt). */
export type OrderPatch = Partial<
  Pick<
    OrderRow,
    | "state"
    | "mapped"
    | "holdReasons"
    | "sentOrder"
    | "pending"
    | "attempts"
    | "nextAttemptAt"
    | "lastError"
    | "cancelledAt"
    | "attention"
    | "attentionMessage"
    | "idOrderFF"
    | "keyOrder"
    | "acceptedAt"
    | "submittedAt"
    | "stage"
    | "stageAt"
    | "ttn"
    | "warehouseStatus"
    | "carrierStatus"
    | "statusCheckedAt"
    | "fulfillmentDueAt"
    | "fulfillmentAttempts"
    | "fulfillmentId"
    | "fulfilledTtn"
    | "fulfillmentEvent"
    | "fulfillmentProblem"
    | "waybills"
    | "unshipped"
    | "waitReason"
    | "warehouseLines"
  >
>;

/** An event of the timeline: what it says as keys of orders:timeline and values (never English words). */
export interface TimelineEntry {
  kind: EventKind;
  text: Message | readonly Message[];
  data?: unknown;
}

export interface Transition {
  patch: OrderPatch;
  events: TimelineEntry[];
}

/** A merchant's action that does not apply to the order as it is, with why (in English, and as a key). */
export interface Refusal {
  refused: string;
  text: Message;
}

/** A refusal, by its key in orders:answer. */
export function refuse(key: string): Refusal {
  const text = message(`orders:answer.${key}`);
  return { refused: inEnglish(text), text };
}

/** What the warehouse said about a request, classified by the caller from the error it got. */
export type Failure =
  /** Certainly not done, and trying again later can succeed (5xx before sending, 429, network). */
  | { kind: "transient"; reason: string; retryAt: Date }
  /** The warehouse may have done it: an AddOrder is looked up, and only the merchant may send it again. */
  | { kind: "in_doubt"; reason: string; lookAt: Date }
  /** Not done, and the same request will never succeed (400, 404, our schema refusing it). */
  | { kind: "refused"; reason: string }
  /** The ApiKey was refused: nothing is failed, the shop is paused until the key is fixed. */
  | { kind: "key_refused"; reason: string };

export type OrderInput =
  /** Intake or a re-mapping (new Shopify data, new settings, the merchant's corrections). */
  | { type: "remapped"; result: MappingResult }
  | { type: "shopify_cancelled"; cancelledAt: Date }
  | { type: "submit_now" }
  | { type: "cancel_requested" }
  | { type: "claimed" }
  | { type: "accepted"; idOrderFF: string; keyOrder: string; data?: unknown }
  | { type: "rejected"; messages: string[]; data?: unknown }
  | { type: "submission_failed"; failure: Failure; data?: unknown }
  | { type: "edit_sent"; sent: string; data?: unknown }
  | { type: "cancel_sent"; data?: unknown }
  | { type: "change_failed"; change: "edit" | "cancel"; failure: Failure; data?: unknown }
  /** ReportStatusOrder's record of the order, read through the status table (app/statuses/). */
  | { type: "status_reported"; report: StatusReport }
  /** The warehouse's returns register holds a return of this order, seen for the first time (app/returns/). */
  | { type: "return_booked"; booked: BookedReturn }
  /** A fulfillment is about to be asked for with this waybill: kept in the order's waybills first. */
  | { type: "waybill_used"; ttn: string }
  /** What the Shopify side did for the order (app/fulfillment/), and how it reads carrier statuses. */
  | { type: "shopify_told"; told: ShopifyTold; eventFor: (carrierStatusId: string) => string | null }
  /** The merchant asks for the Shopify side again after a problem. */
  | { type: "shopify_retry" }
  /**
   * What the order's fulfillment orders now say (app/routing/decide.ts), with the order mapped with the
   * decision's lines (only for a decision of lines; null otherwise).
   */
  | { type: "routed"; decision: RoutingDecision; result: MappingResult | null }
  /**
   * The order's fulfillment orders could not be applied to it `attempts` times over and are put aside
   * (app/routing/failures.server.ts): `payload`, the order as Shopify sent it could not be read; `other`, the
   * rest (its mapping, a branch or city look-up, a state the rules did not foresee).
   */
  | { type: "routing_failed"; failure: "payload" | "other"; attempts: number };

/** What the Shopify side did for an order in one step. */
export interface ShopifyTold {
  /** The fulfillment made, or found (an earlier call's answer was lost) carrying the order's waybill. */
  fulfilled?: {
    fulfillmentId: string;
    found: boolean;
    notified: boolean;
    /** Found: the waybill it carries (an earlier one of the order's, when the warehouse changed it since). */
    waybill?: string;
  };
  /** The waybill Shopify now shows (made with the fulfillment, or updated on it). */
  ttn?: string;
  /** The fulfillment event status sent. */
  event?: string;
  /** With `fulfilled`: what the Shopify order still holds at the location that the warehouse did not ship. */
  unshipped?: UnshippedLine[];
  /** A problem only the merchant can solve: the order waits for them. */
  problem?: { code: string; message: string; text: Message };
  /** Shopify could not be reached or asked us to wait: tried again at `retryAt`, counting an attempt. */
  failure?: { reason: string; retryAt: Date };
  data?: unknown;
}

/** A return as the returns register gave it, read (app/returns/read.ts). */
export interface BookedReturn {
  returnKey: string;
  ttn: string | null;
  lines: { sku: string; count: number; defective: boolean }[];
  units: number;
  /** The lines of the order's returns booked before this one (the register keeps each return once). */
  before?: { sku: string; count: number }[];
}

/** A status record as the rules take it. */
export interface StatusReport {
  /** The stage the status table gives the warehouse's status; null when it gives none. */
  stage: Stage | null;
  /** Whether the status table knows the warehouse's status at all. */
  known: boolean;
  /** The waybill, or "" when the warehouse has none yet. */
  ttn: string;
  warehouseStatus: { id: string; name: string; date: string };
  carrierStatus: { id: string; name: string; date: string };
  /** The record as the warehouse sent it, kept on the events it causes. */
  record: unknown;
}

/** The attention column's value: one sentence of orders:timeline, or the hold reasons. */
export const attentionOf = (text: Message | readonly Message[]) => storedTexts(text);

export const noChange = (): Transition => ({ patch: {}, events: [] });

/** Whether a transition answered a refusal (a merchant's action that does not apply). */
export function isRefusal(result: Transition | Refusal): result is Refusal {
  return "refused" in result;
}

/** The columns of an order cancelled here: nothing due, nothing pending, nothing for the merchant. */
export function cancelledColumns(): OrderPatch {
  return {
    state: ORDER_STATE.cancelled,
    nextAttemptAt: null,
    pending: null,
    attention: null,
    attentionMessage: null,
  };
}

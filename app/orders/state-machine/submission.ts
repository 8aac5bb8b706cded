// The one set of rules for how an order moves: given the row as read and what happened (a Shopify
// webhook, a merchant's action, the warehouse's answer), the columns to change and the timeline events.
// Pure: callers read the row, apply the patch conditionally on the version they read, and re-read on a clash.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { shopifyNeed, withWaybills } from "../../fulfillment/need";
import type { UnshippedLine } from "../../fulfillment/plan";
import { message, type Message } from "../../i18n/message";
import type { HoldReason, MappingResult } from "../mapping";
import { percent } from "../../reference/types";
import { INCOMPLETE_WAIT_MS, warehouseLinesColumn, type RoutingDecision } from "../../routing/decide";
import { storedTexts, timelineText as said } from "../timeline";
import { inEnglish, storedText } from "../words";
import {
  ATTENTION,
  EVENT,
  ORDER_STATE,
  PENDING,
  STAGE,
  STAGE_RANK,
  UNSENT_STATES,
  type EventKind,
  type OrderState,
  type Stage,
} from "../states";

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
function refuse(key: string): Refusal {
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
const attentionOf = (text: Message | readonly Message[]) => storedTexts(text);

const noChange = (): Transition => ({ patch: {}, events: [] });

/** The mapped order, or the hold reasons, as the columns keep them. */
export function mappingColumnsOf(result: MappingResult) {
  return result.ok
    ? { mapped: JSON.stringify(result.order), holdReasons: null }
    : { mapped: null, holdReasons: JSON.stringify(result.hold) };
}

/** The hold reasons as the merchant reads them; a reason written before it had a key, as it is. */
export function holdTextsOf(hold: HoldReason[]): Message[] {
  return hold.map((reason) => reason.text ?? storedText(reason.message));
}

/** The timeline's word on a branch the order did not name and the matcher found: which, and why. */
function branchFound(result: MappingResult): TimelineEntry[] {
  const found = result.ok ? result.foundBranch : undefined;
  if (!found) return [];
  const { evidence } = found;
  const text =
    found.source === "structured"
      ? said("branchFromData", { label: found.label, field: evidence.field ?? "note" })
      : said("branchFromAddress", {
          label: found.label,
          percent: percent(found.confidence),
          // The order's own words the match rests on, quoted, not a sentence.
          evidence: [evidence.city, evidence.number && `№${evidence.number}`, evidence.street]
            .filter(Boolean)
            .join(", "),
        });
  return [{ kind: EVENT.branchFound, text, data: found }];
}

/** The timeline's word on a courier city the order gave no Ref for and the matcher found. */
function cityFound(result: MappingResult): TimelineEntry[] {
  const found = result.ok ? result.foundCity : undefined;
  if (!found) return [];
  const text =
    found.source === "structured"
      ? said("courierCityFromData", { label: found.label })
      : said("courierCityFromAddress", {
          label: found.label,
          percent: percent(found.confidence),
        });
  return [{ kind: EVENT.cityFound, text, data: found }];
}

/** The columns and events of a new order, from its first webhook. */
export function created(input: {
  result: MappingResult;
  cancelled: boolean;
  orderName: string;
  now: Date;
  /** Shopify has yet to say what of the order is the warehouse's (app/routing/): it waits for routing. */
  waitForRouting?: boolean;
}) {
  const { result, cancelled, orderName, now } = input;
  const waiting = !cancelled && input.waitForRouting === true;
  const state: OrderState = cancelled
    ? ORDER_STATE.cancelled
    : waiting
      ? ORDER_STATE.waiting
      : result.ok
        ? ORDER_STATE.ready
        : ORDER_STATE.held;
  const events: TimelineEntry[] = [{ kind: EVENT.received, text: said("received", { order: orderName }) }];
  if (cancelled) events.push({ kind: EVENT.cancelled, text: said("cancelledBeforeSent") });
  else if (waiting) events.push({ kind: EVENT.waiting, text: WAITING_TEXT.routing! });
  else if (result.ok)
    events.push(...branchFound(result), ...cityFound(result), {
      kind: EVENT.ready,
      text: said("mapped"),
      data: result.order,
    });
  else events.push({ kind: EVENT.held, text: holdTextsOf(result.hold), data: result.hold });
  return {
    columns: {
      state,
      ...mappingColumnsOf(result),
      nextAttemptAt: state === ORDER_STATE.ready ? now : null,
      ...(waiting && { waitReason: "routing" }),
    },
    events,
  };
}

export function transition(row: OrderFacts, input: OrderInput, now: Date): Transition | Refusal {
  switch (input.type) {
    case "remapped":
      return remapped(row, input.result, now);
    case "shopify_cancelled":
      return shopifyCancelled(row, input.cancelledAt, now);
    case "submit_now":
      return submitNow(row, now);
    case "cancel_requested":
      return cancelRequested(row, now);
    case "claimed":
      return {
        patch: { state: ORDER_STATE.submitting, sentOrder: row.mapped, submittedAt: now },
        events: [],
      };
    case "accepted":
      return accepted(row, input.idOrderFF, input.keyOrder, now, input.data);
    case "rejected":
      return rejected(row, input.messages, input.data);
    case "submission_failed":
      return submissionFailed(row, input.failure, now, input.data);
    case "edit_sent":
      return editSent(row, input.sent, now, input.data);
    case "cancel_sent":
      return {
        // An edit refused before no longer matters: the order will not ship.
        patch: { ...cancelledColumns(), attempts: 0, lastError: null },
        events: [{ kind: EVENT.cancelled, text: said("cancelledAtWarehouse"), data: input.data }],
      };
    case "change_failed":
      return changeFailed(row, input.change, input.failure, now, input.data);
    case "status_reported":
      return statusReported(row, input.report, now);
    case "return_booked":
      return returnBooked(row, input.booked, now);
    case "shopify_told":
      return shopifyTold(row, input.told, input.eventFor, now);
    case "waybill_used": {
      const waybills = withWaybills(row, [input.ttn]);
      return waybills ? { patch: { waybills }, events: [] } : noChange();
    }
    case "routed": {
      const result = routed(row, input.decision, input.result, now);
      // Applied at last: the routing problem is over (a problem the routing itself raises stands).
      if (row.attention !== ATTENTION.routingFailed || "attention" in result.patch) return result;
      return { ...result, patch: { ...result.patch, attention: null, attentionMessage: null } };
    }
    case "routing_failed":
      return routingFailed(row, input.failure, input.attempts);
    case "shopify_retry":
      if (!row.fulfillmentProblem) return refuse("nothingForShopify");
      return {
        patch: { fulfillmentProblem: null, fulfillmentAttempts: 0, fulfillmentDueAt: now },
        events: [{ kind: EVENT.retryRequested, text: said("shopifyAgain") }],
      };
  }
}

/** The sentence of orders:timeline for each fulfillment event status sent. */
const EVENT_TOLD: Record<string, string> = {
  IN_TRANSIT: "toldInTransit",
  READY_FOR_PICKUP: "toldReadyForPickup",
  OUT_FOR_DELIVERY: "toldOutForDelivery",
  ATTEMPTED_DELIVERY: "toldAttemptedDelivery",
  DELAYED: "toldDelayed",
  FAILURE: "toldFailure",
  DELIVERED: "toldDelivered",
};

/**
 * Records what Shopify was told, and whether it still needs telling something (then the order stays due
 * at once). A transient failure counts an attempt; after MAX_ATTEMPTS the merchant decides.
 */
function shopifyTold(
  row: OrderFacts,
  told: ShopifyTold,
  eventFor: (carrierStatusId: string) => string | null,
  now: Date,
): Transition {
  const patch: OrderPatch = {};
  const events: TimelineEntry[] = [];
  const data = told.data;
  if (told.fulfilled && !row.fulfillmentId) {
    const { fulfillmentId, found, notified, waybill } = told.fulfilled;
    patch.fulfillmentId = fulfillmentId;
    events.push({
      kind: EVENT.fulfilled,
      text: said(found ? "fulfillmentFound" : notified ? "fulfilledNotified" : "fulfilledSilently", {
        ttn: (found ? waybill : undefined) ?? told.ttn ?? row.ttn ?? "",
      }),
      data,
    });
    if (told.unshipped?.length) {
      patch.unshipped = JSON.stringify(told.unshipped);
      events.push({
        kind: EVENT.unshipped,
        text: said("unshipped", { items: unshippedList(told.unshipped) }),
        data: { unshipped: told.unshipped },
      });
    }
  } else if (told.ttn && row.fulfillmentId && told.ttn !== row.fulfilledTtn) {
    events.push({
      kind: EVENT.trackingUpdated,
      text: said("trackingNow", { ttn: told.ttn }),
      data,
    });
  }
  if (told.ttn) patch.fulfilledTtn = told.ttn;
  if (told.event) {
    patch.fulfillmentEvent = told.event;
    events.push({
      kind: EVENT.fulfillmentEvent,
      text: EVENT_TOLD[told.event] ? said(EVENT_TOLD[told.event]!) : said("toldOther", { event: told.event }),
      data,
    });
  }
  if (told.problem) {
    patch.fulfillmentProblem = JSON.stringify(told.problem);
    patch.fulfillmentDueAt = null;
    events.push({ kind: EVENT.fulfillmentProblem, text: told.problem.text, data });
    return { patch, events };
  }
  if (told.failure) {
    const attempts = (row.fulfillmentAttempts ?? 0) + 1;
    if (attempts >= MAX_ATTEMPTS) {
      const text = said("shopifyGaveUp", { attempts, reason: told.failure.reason });
      patch.fulfillmentProblem = JSON.stringify({
        code: "retries_exhausted",
        message: inEnglish(text),
        text,
      });
      patch.fulfillmentDueAt = null;
      patch.fulfillmentAttempts = attempts;
      events.push({ kind: EVENT.fulfillmentProblem, text, data });
      return { patch, events };
    }
    return {
      patch: { ...patch, fulfillmentAttempts: attempts, fulfillmentDueAt: told.failure.retryAt },
      events,
    };
  }
  const after = {
    stage: row.stage ?? null,
    ttn: row.ttn ?? null,
    carrierStatus: row.carrierStatus ?? null,
    fulfillmentId: patch.fulfillmentId ?? row.fulfillmentId ?? null,
    fulfilledTtn: patch.fulfilledTtn ?? row.fulfilledTtn ?? null,
    fulfillmentEvent: patch.fulfillmentEvent ?? row.fulfillmentEvent ?? null,
    fulfillmentProblem: row.fulfillmentProblem ?? null,
  };
  patch.fulfillmentAttempts = 0;
  patch.fulfillmentDueAt = shopifyNeed(after, eventFor) ? now : null;
  return { patch, events };
}

/** The items left unshipped as one list: "Title (SKU) × 2, Other × 1". */
export function unshippedList(lines: UnshippedLine[]): string {
  return lines
    .map(
      (line) =>
        `${line.title || line.sku}${line.sku && line.title ? ` (${line.sku})` : ""} × ${line.quantity}`,
    )
    .join(", ");
}

const STAGE_EVENT: Record<Stage, { kind: EventKind; text: Message }> = {
  picked: { kind: EVENT.picked, text: said("picked") },
  shipped: { kind: EVENT.shipped, text: said("shipped") },
  delivered: { kind: EVENT.delivered, text: said("delivered") },
  cancelled_at_warehouse: { kind: EVENT.cancelledAtWarehouse, text: said("stageCancelled") },
  returned: { kind: EVENT.returned, text: said("stageReturned") },
};

/** The stages that ask the merchant to act in Shopify, and what to say on the order until they do. */
const STAGE_ATTENTION: Partial<Record<Stage, { attention: string; message: string }>> = {
  cancelled_at_warehouse: {
    attention: ATTENTION.cancelledAtWarehouse,
    message: attentionOf(said("attentionCancelled")),
  },
  returned: { attention: ATTENTION.returned, message: attentionOf(said("attentionReturned")) },
};

const rankOf = (stage: string | null | undefined) => (stage ? (STAGE_RANK[stage as Stage] ?? 0) : 0);

/**
 * What a status report changes: the stage only forwards (an earlier or equal one is ignored, whatever the
 * warehouse says), the waybill when it is new, the statuses as reported. Shopify is due to be told when
 * the order has shipped with a waybill and any of that moved.
 */
function statusReported(row: OrderFacts, report: StatusReport, now: Date): Transition {
  const patch: OrderPatch = { statusCheckedAt: now };
  const events: TimelineEntry[] = [];
  if (row.state !== ORDER_STATE.accepted) return { patch, events };
  const warehouseStatus = JSON.stringify(report.warehouseStatus);
  const carrierStatus = JSON.stringify(report.carrierStatus);
  const data = { record: report.record };
  const statusChanged = warehouseStatus !== (row.warehouseStatus ?? null);
  if (statusChanged) {
    patch.warehouseStatus = warehouseStatus;
    if (!report.known) {
      events.push({
        kind: EVENT.statusUnknown,
        text: said("statusUnknown", { status: report.warehouseStatus.name || report.warehouseStatus.id }),
        data,
      });
    }
  }
  const carrierChanged = carrierStatus !== (row.carrierStatus ?? null);
  if (carrierChanged) patch.carrierStatus = carrierStatus;
  const forward = report.stage !== null && rankOf(report.stage) > rankOf(row.stage);
  if (forward) {
    const stage = report.stage!;
    patch.stage = stage;
    patch.stageAt = now;
    events.push({ ...STAGE_EVENT[stage], data });
    const attention = STAGE_ATTENTION[stage];
    if (attention) {
      patch.attention = attention.attention;
      patch.attentionMessage = attention.message;
    }
  }
  const ttnChanged = report.ttn !== "" && report.ttn !== (row.ttn ?? "");
  if (ttnChanged) {
    patch.ttn = report.ttn;
    // Every waybill the order has had: a fulfillment made with an earlier one is still found as ours.
    const waybills = withWaybills(row, [row.ttn, report.ttn]);
    if (waybills) patch.waybills = waybills;
    events.push(
      row.ttn
        ? {
            kind: EVENT.ttnChanged,
            text: said("ttnChanged", { from: row.ttn, to: report.ttn }),
            data,
          }
        : { kind: EVENT.ttnAssigned, text: said("ttnAssigned", { ttn: report.ttn }), data },
    );
  }
  const stage = forward ? report.stage! : row.stage;
  const ttn = ttnChanged ? report.ttn : row.ttn;
  const toShopify = (stage === STAGE.shipped || stage === STAGE.delivered) && Boolean(ttn);
  if (toShopify && (forward || ttnChanged || carrierChanged)) {
    patch.fulfillmentDueAt = now;
    patch.fulfillmentAttempts = 0;
  }
  return { patch, events };
}

/**
 * A return the warehouse booked: the timeline says what came back. When everything the warehouse was sent
 * (the order as last sent, edits included) has come back, over this and the order's earlier returns, an
 * order the warehouse has moves to returned (the last stage, so from any other) and waits for the
 * merchant's refund decision in Shopify. When only part came back, the order keeps its stage (the rest
 * stays with the buyer) and is flagged with what came back and what did not. An order whose sent body
 * cannot be read is taken as wholly returned, as before.
 */
function returnBooked(row: OrderFacts, booked: BookedReturn, now: Date): Transition {
  const defective = booked.lines.filter((line) => line.defective).reduce((sum, line) => sum + line.count, 0);
  const values = { units: booked.units, defective };
  const event: TimelineEntry = {
    kind: EVENT.returned,
    text: booked.ttn
      ? said("returnBooked", { ...values, ttn: booked.ttn })
      : said("returnBookedNoTtn", values),
    data: { return: booked },
  };
  const patch: OrderPatch = {};
  if (row.state !== ORDER_STATE.accepted || row.stage === STAGE.returned) return { patch, events: [event] };
  const back = new Map<string, number>();
  for (const line of [...(booked.before ?? []), ...booked.lines])
    back.set(line.sku, (back.get(line.sku) ?? 0) + line.count);
  const missing = [...(sentUnits(row.sentOrder) ?? [])].flatMap(([sku, count]) => {
    const left = count - (back.get(sku) ?? 0);
    return left > 0 ? [{ sku, count: left }] : [];
  });
  if (missing.length) {
    const list = (lines: Iterable<[string, number]>) =>
      [...lines].map(([sku, count]) => `${sku} × ${count}`).join(", ");
    Object.assign(patch, {
      attention: ATTENTION.partlyReturned,
      attentionMessage: attentionOf(
        said("partlyReturned", {
          back: list(back),
          missing: list(missing.map((line) => [line.sku, line.count])),
        }),
      ),
    });
    return { patch, events: [event] };
  }
  if (rankOf(STAGE.returned) > rankOf(row.stage)) {
    const attention = STAGE_ATTENTION.returned!;
    Object.assign(patch, {
      stage: STAGE.returned,
      stageAt: now,
      attention: attention.attention,
      attentionMessage: attention.message,
    });
  }
  return { patch, events: [event] };
}

/** The units per SKU of the order as last sent to the warehouse; null when there is none to read. */
function sentUnits(sentOrder: string | null | undefined): Map<string, number> | null {
  if (!sentOrder) return null;
  let products: unknown;
  try {
    products = (JSON.parse(sentOrder) as { products?: unknown }).products;
  } catch {
    return null;
  }
  if (!Array.isArray(products)) return null;
  const units = new Map<string, number>();
  for (const product of products as { sku?: unknown; count?: unknown }[]) {
    const count = Number(product?.count);
    if (typeof product?.sku !== "string" || !Number.isInteger(count) || count < 1) return null;
    units.set(product.sku, (units.get(product.sku) ?? 0) + count);
  }
  return units.size ? units : null;
}

/** Whether a transition answered a refusal (a merchant's action that does not apply). */
export function isRefusal(result: Transition | Refusal): result is Refusal {
  return "refused" in result;
}

function remapped(row: OrderFacts, result: MappingResult, now: Date): Transition {
  const columns = mappingColumnsOf(result);
  const mappedChanged = columns.mapped !== row.mapped || columns.holdReasons !== row.holdReasons;
  const patch: OrderPatch = { ...columns };
  const events: TimelineEntry[] = [];
  switch (row.state) {
    case ORDER_STATE.held:
    case ORDER_STATE.ready:
    case ORDER_STATE.rejected: {
      if (!mappedChanged && row.state !== ORDER_STATE.held) break;
      if (result.ok) {
        if (row.state === ORDER_STATE.rejected && !mappedChanged) break;
        Object.assign(patch, {
          state: ORDER_STATE.ready,
          nextAttemptAt: now,
          attempts: 0,
          lastError: null,
          attention: null,
          attentionMessage: null,
        });
        if (row.state !== ORDER_STATE.ready)
          events.push(...branchFound(result), ...cityFound(result), {
            kind: EVENT.ready,
            text: said("mapped"),
            data: result.order,
          });
      } else if (mappedChanged || row.state !== ORDER_STATE.held) {
        Object.assign(patch, { state: ORDER_STATE.held, nextAttemptAt: null });
        events.push({ kind: EVENT.held, text: holdTextsOf(result.hold), data: result.hold });
      }
      break;
    }
    case ORDER_STATE.accepted: {
      if (!mappedChanged) break;
      // A cancellation on its way outranks any edit: the order is not to be shipped at all.
      if (row.pending === PENDING.cancel) break;
      if (!result.ok) {
        Object.assign(patch, {
          attention: ATTENTION.editHeld,
          attentionMessage: attentionOf(holdTextsOf(result.hold)),
          // An edit queued before cannot be sent as the order is now.
          ...(row.pending === PENDING.edit && { pending: null, nextAttemptAt: null }),
        });
        events.push({
          kind: EVENT.held,
          text: [said("changeHeld"), ...holdTextsOf(result.hold)],
          data: result.hold,
        });
      } else if (columns.mapped !== row.sentOrder) {
        Object.assign(patch, {
          pending: PENDING.edit,
          nextAttemptAt: now,
          attempts: 0,
          attention: null,
          attentionMessage: null,
        });
        events.push({
          kind: EVENT.editQueued,
          text: said("changeQueued"),
          data: result.order,
        });
      } else if (row.pending === PENDING.edit) {
        // Changed back to what the warehouse has: nothing to send.
        Object.assign(patch, { pending: null, nextAttemptAt: null, attention: null, attentionMessage: null });
      }
      break;
    }
    case ORDER_STATE.submitting:
    case ORDER_STATE.inDoubt:
      // Kept in `mapped`; once the warehouse's copy is known, the difference becomes an edit.
      if (mappedChanged)
        events.push({
          kind: EVENT.updated,
          text: said("changedWhileSending"),
        });
      break;
    case ORDER_STATE.waiting:
    case ORDER_STATE.elsewhere:
    case ORDER_STATE.cancelled:
      // Waiting for Shopify, or not the warehouse's: the mapping is kept, routing decides when it goes.
      break;
  }
  return { patch, events };
}

function shopifyCancelled(row: OrderFacts, cancelledAt: Date, now: Date): Transition {
  const patch: OrderPatch = { cancelledAt: row.cancelledAt ?? cancelledAt };
  if (row.state === ORDER_STATE.cancelled || row.pending === PENDING.cancel) return { patch, events: [] };
  if (UNSENT_STATES.includes(row.state)) {
    return {
      patch: { ...patch, ...cancelledColumns() },
      events: [
        {
          kind: EVENT.cancelled,
          text: said("cancelledUnsent"),
        },
      ],
    };
  }
  // The warehouse has it, or may have it: cancel there (after the in-doubt lookup, if one is due).
  return {
    patch: { ...patch, pending: PENDING.cancel, nextAttemptAt: now, attempts: 0 },
    events: [
      {
        kind: EVENT.cancelQueued,
        text: said("cancellationQueued"),
      },
    ],
  };
}

function cancelledColumns(): OrderPatch {
  return {
    state: ORDER_STATE.cancelled,
    nextAttemptAt: null,
    pending: null,
    attention: null,
    attentionMessage: null,
  };
}

function submitNow(row: OrderFacts, now: Date): Transition | Refusal {
  const due = { nextAttemptAt: now, attempts: 0, attention: null, attentionMessage: null };
  switch (row.state) {
    case ORDER_STATE.waiting:
      return refuse("waitingForShopify");
    case ORDER_STATE.elsewhere:
      return refuse("notTheWarehouses");
    case ORDER_STATE.held:
      return refuse("heldFixFirst");
    case ORDER_STATE.ready:
    case ORDER_STATE.rejected:
      // An order with nothing mapped cannot be claimed: made ready, it would be due and never sent.
      if (row.mapped === null) return refuse("correctFirst");
      return {
        patch: { state: ORDER_STATE.ready, ...due },
        events: [{ kind: EVENT.retryRequested, text: said("sendRequested") }],
      };
    case ORDER_STATE.inDoubt:
      // Not found at the warehouse after it had time enough: only the merchant may have it sent again,
      // since the warehouse may yet hold it. Any other order in doubt is only looked up again.
      if (row.attention === ATTENTION.notAtWarehouse) {
        return {
          patch: { state: ORDER_STATE.ready, ...due },
          events: [
            {
              kind: EVENT.retryRequested,
              text: said("sendAgainRequested"),
            },
          ],
        };
      }
      return {
        patch: due,
        events: [{ kind: EVENT.retryRequested, text: said("lookUpRequested") }],
      };
    case ORDER_STATE.accepted:
      if (row.pending === null) return refuse("nothingToSend");
      return {
        patch: due,
        events: [
          {
            kind: EVENT.retryRequested,
            text: said(
              row.pending === PENDING.cancel ? "cancellationAgainRequested" : "changeAgainRequested",
            ),
          },
        ],
      };
    case ORDER_STATE.submitting:
      return refuse("beingSent");
    default:
      return refuse("cancelledNothingToSend");
  }
}

function cancelRequested(row: OrderFacts, now: Date): Transition | Refusal {
  if (row.state === ORDER_STATE.cancelled) return refuse("alreadyCancelled");
  if (UNSENT_STATES.includes(row.state)) {
    return {
      patch: cancelledColumns(),
      events: [{ kind: EVENT.cancelled, text: said("cancelledFromAdmin") }],
    };
  }
  return {
    patch: {
      pending: PENDING.cancel,
      nextAttemptAt: now,
      attempts: 0,
      attention: null,
      attentionMessage: null,
    },
    events: [
      {
        kind: EVENT.cancelQueued,
        text: said("cancellationRequested"),
      },
    ],
  };
}

function accepted(
  row: OrderFacts,
  idOrderFF: string,
  keyOrder: string,
  now: Date,
  data: unknown,
): Transition {
  // An update that came in while the order was out becomes an edit; a cancellation stays due.
  const pending = row.pending ?? (changedSinceSent(row) ? PENDING.edit : null);
  return {
    patch: acceptedColumns({ idOrderFF, keyOrder, pending }, now),
    events: [{ kind: EVENT.accepted, text: said("accepted", { idOrderFF }), data }],
  };
}

/** Whether the order changed in Shopify after the body the warehouse has was sent. */
function changedSinceSent(row: OrderFacts): boolean {
  return row.mapped !== null && row.mapped !== row.sentOrder;
}

/** The columns of an order the warehouse now has, with the change still to send (if any) due now. */
function acceptedColumns(
  taken: { idOrderFF: string | null; keyOrder: string | null; pending: OrderFacts["pending"] },
  now: Date,
): OrderPatch {
  return {
    state: ORDER_STATE.accepted,
    ...taken,
    acceptedAt: now,
    // The warehouse just answered for it: polling looks at it again after the shop's interval.
    statusCheckedAt: now,
    attempts: 0,
    lastError: null,
    nextAttemptAt: taken.pending ? now : null,
  };
}

function rejected(row: OrderFacts, messages: string[], data: unknown): Transition {
  const reason = messages.join(" ");
  if (row.pending === PENDING.cancel) {
    return {
      patch: { ...cancelledColumns(), lastError: reason },
      events: [{ kind: EVENT.cancelled, text: said("cancelledRefusedAnyway"), data }],
    };
  }
  return {
    patch: { state: ORDER_STATE.rejected, nextAttemptAt: null, lastError: reason },
    events: [{ kind: EVENT.rejected, text: said("refused", { reason }), data }],
  };
}

function submissionFailed(row: OrderFacts, failure: Failure, now: Date, data: unknown): Transition {
  const attempts = row.attempts + 1;
  if (failure.kind === "in_doubt") {
    // Even when cancelled meanwhile: it may be at the warehouse, so it is looked up, then cancelled there.
    return {
      patch: {
        state: ORDER_STATE.inDoubt,
        attempts,
        lastError: failure.reason,
        nextAttemptAt: failure.lookAt,
      },
      events: [
        {
          kind: EVENT.inDoubt,
          text: said("inDoubt", { reason: failure.reason }),
          data,
        },
      ],
    };
  }
  // Certainly not at the warehouse: an order cancelled meanwhile is simply cancelled.
  if (row.pending === PENDING.cancel) {
    return {
      patch: { ...cancelledColumns(), lastError: failure.reason },
      events: [
        {
          kind: EVENT.cancelled,
          text: said("cancelledWhileSending"),
          data,
        },
      ],
    };
  }
  switch (failure.kind) {
    case "key_refused":
      return {
        patch: { state: ORDER_STATE.ready, nextAttemptAt: now, lastError: failure.reason },
        // The reason is always the same refused key, said whole by the sentence (the row keeps it in English).
        events: [{ kind: EVENT.paused, text: said("keyRefused"), data }],
      };
    case "refused":
      return {
        patch: { state: ORDER_STATE.rejected, nextAttemptAt: null, lastError: failure.reason },
        events: [{ kind: EVENT.rejected, text: said("notSent", { reason: failure.reason }), data }],
      };
    case "transient": {
      if (attempts >= MAX_ATTEMPTS) {
        return {
          patch: {
            state: ORDER_STATE.ready,
            attempts,
            nextAttemptAt: null,
            lastError: failure.reason,
            ...retriesExhausted(attempts, failure.reason),
          },
          events: [
            {
              kind: EVENT.retriesExhausted,
              text: said("notSentGaveUp", { attempts, reason: failure.reason }),
              data,
            },
          ],
        };
      }
      return {
        patch: {
          state: ORDER_STATE.ready,
          attempts,
          nextAttemptAt: failure.retryAt,
          lastError: failure.reason,
        },
        events: [
          {
            kind: EVENT.retryScheduled,
            text: said("notSentRetry", {
              reason: failure.reason,
              at: failure.retryAt.toISOString(),
              attempt: attempts + 1,
            }),
            data,
          },
        ],
      };
    }
  }
}

function retriesExhausted(attempts: number, reason: string): OrderPatch {
  return {
    attention: ATTENTION.retriesExhausted,
    attentionMessage: attentionOf(said("unreachable", { attempts, reason })),
  };
}

function editSent(row: OrderFacts, sent: string, now: Date, data: unknown): Transition {
  // Another change may have come in while this one was out: it goes next, a cancellation first of all.
  const next =
    row.pending === PENDING.cancel
      ? PENDING.cancel
      : row.mapped !== null && row.mapped !== sent
        ? PENDING.edit
        : null;
  return {
    patch: { sentOrder: sent, pending: next, nextAttemptAt: next ? now : null, attempts: 0, lastError: null },
    events: [{ kind: EVENT.edited, text: said("edited"), data }],
  };
}

function changeFailed(
  row: OrderFacts,
  change: "edit" | "cancel",
  failure: Failure,
  now: Date,
  data: unknown,
): Transition {
  const cancel = change === "cancel";
  switch (failure.kind) {
    case "key_refused":
      // Left due as it is: it goes once a valid key is saved.
      return noChange();
    case "refused": {
      // Too late (picked or shipped) or refused: only the merchant can decide what to do now. A cancellation
      // that came in while an edit was out is still sent.
      const stillCancel = !cancel && row.pending === PENDING.cancel;
      return {
        patch: {
          pending: stillCancel ? PENDING.cancel : null,
          nextAttemptAt: stillCancel ? now : null,
          attempts: 0,
          attention: cancel ? ATTENTION.cancelRefused : ATTENTION.editRefused,
          attentionMessage: attentionOf(
            said(cancel ? "cancelRefused" : "editRefused", { reason: failure.reason }),
          ),
        },
        events: [
          {
            kind: cancel ? EVENT.cancelRefused : EVENT.editRefused,
            text: said(cancel ? "cancelRefused" : "editRefused", { reason: failure.reason }),
            data,
          },
        ],
      };
    }
    case "transient":
    case "in_doubt": {
      // Sending an edit or a cancellation again does no harm, so doubt is retried like any failure.
      const attempts = row.attempts + 1;
      const retryAt = failure.kind === "transient" ? failure.retryAt : failure.lookAt;
      if (attempts >= MAX_ATTEMPTS) {
        return {
          patch: {
            attempts,
            nextAttemptAt: null,
            lastError: failure.reason,
            ...retriesExhausted(attempts, failure.reason),
          },
          events: [
            {
              kind: EVENT.retriesExhausted,
              text: said(cancel ? "cancellationGaveUp" : "changeGaveUp", {
                attempts,
                reason: failure.reason,
              }),
              data,
            },
          ],
        };
      }
      return {
        patch: { attempts, nextAttemptAt: retryAt, lastError: failure.reason },
        events: [
          {
            kind: EVENT.retryScheduled,
            text: said(cancel ? "cancellationRetry" : "changeRetry", {
              reason: failure.reason,
              at: retryAt.toISOString(),
            }),
            data,
          },
        ],
      };
    }
  }
}

/** What a look-up's report said of an order whose AddOrder may or may not have arrived. */
type LookedUpFacts = OrderFacts & Pick<OrderRow, "idOrder">;

/**
 * An order in doubt, found at the warehouse: it arrived, so it is accepted and never sent again. Without
 * the warehouse's key (or with several of its orders under this number) changes cannot be sent from here:
 * the order is flagged `edit_impossible`; a cancellation goes by id_order and needs no key.
 */
export function foundAtWarehouse(
  row: LookedUpFacts,
  records: Record<string, unknown>[],
  now: Date,
): Transition {
  const only = records.length === 1 ? records[0]! : undefined;
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const idOrderFF = text(only?.id_order_FF);
  const keyOrder = text(only?.key_order);
  const wantedEdit = row.pending === PENDING.edit || (row.pending === null && changedSinceSent(row));
  const pending =
    row.pending === PENDING.cancel ? PENDING.cancel : keyOrder && wantedEdit ? PENDING.edit : null;
  let attention: Message | null = null;
  if (pending === PENDING.cancel) {
    // Being cancelled: what edits would need no longer matters.
  } else if (records.length > 1) {
    attention = said("severalAtWarehouse", { count: records.length, idOrder: row.idOrder });
  } else if (!keyOrder) {
    attention = said(wantedEdit ? "noKeyChanged" : "noKey");
  }
  return {
    patch: {
      ...acceptedColumns({ idOrderFF, keyOrder, pending }, now),
      attention: attention ? ATTENTION.editImpossible : null,
      attentionMessage: attention ? attentionOf(attention) : null,
    },
    events: [
      {
        kind: EVENT.foundAtWarehouse,
        text: idOrderFF ? said("foundAs", { idOrderFF }) : said("foundByNumber", { idOrder: row.idOrder }),
        data: { records },
      },
    ],
  };
}

/**
 * An order in doubt, not found at the warehouse. Before the warehouse could have finished with it, a miss
 * proves nothing: it is looked up again. After that, each miss counts; after enough of them a pending
 * cancellation ends it, and otherwise the merchant decides (never a resend on a guess).
 */
export function notFoundAtWarehouse(
  row: LookedUpFacts,
  lookup: {
    missBelievedAfterMs: number;
    missesBeforeAttention: number;
    lookupIntervalMs: number;
    /** When its last AddOrder left. */
    sentAt: Date;
    /** Misses counted so far (past the window). */
    missesSoFar: number;
    /** Orders of the report under this number that are not this one, and why. */
    others: { record: unknown; field: string; theirs: string; mine: string }[];
  },
  now: Date,
): Transition {
  const data = { records: lookup.others.map(({ record }) => record) };
  const sentAt = lookup.sentAt.getTime();
  const believedAt = sentAt + lookup.missBelievedAfterMs;
  if (now.getTime() < believedAt) {
    // It may still be on its way in: look again, with nothing for the timeline until a miss counts.
    return {
      patch: { nextAttemptAt: new Date(Math.min(believedAt, now.getTime() + lookup.lookupIntervalMs)) },
      events: [],
    };
  }
  const misses = lookup.missesSoFar + 1;
  const minutes = Math.max(1, Math.round((now.getTime() - sentAt) / 60_000));
  const other = lookup.others[0];
  const of = lookup.missesBeforeAttention;
  if (misses < of) {
    const next = new Date(now.getTime() + lookup.lookupIntervalMs);
    return {
      patch: { nextAttemptAt: next },
      events: [
        {
          kind: EVENT.notAtWarehouse,
          text: other
            ? said("notFoundOther", {
                misses,
                of,
                idOrder: row.idOrder,
                field: other.field,
                theirs: other.theirs,
                mine: other.mine,
                at: next.toISOString(),
              })
            : said("notFound", { misses, of, at: next.toISOString() }),
          data,
        },
      ],
    };
  }
  if (row.pending === PENDING.cancel) {
    return {
      patch: {
        state: ORDER_STATE.cancelled,
        pending: null,
        nextAttemptAt: null,
        attention: null,
        attentionMessage: null,
      },
      events: [
        {
          kind: EVENT.cancelled,
          text: said("notFoundCancelled", { misses }),
          data,
        },
      ],
    };
  }
  const text = said("notAtWarehouse", { misses, minutes });
  return {
    patch: { nextAttemptAt: null, attention: ATTENTION.notAtWarehouse, attentionMessage: attentionOf(text) },
    events: [{ kind: EVENT.notAtWarehouse, text, data }],
  };
}

/**
 * The look-up of an order in doubt failed: the report could not be had. A failure that will not change on
 * a retry (400, 404, an answer we cannot read), or a transient one retried MAX_ATTEMPTS times, hands the
 * order to the merchant; it stays in doubt, and is never sent again on a guess.
 */
export function lookUpFailed(row: OrderFacts, failure: Failure, now: Date): Transition {
  const attempts = row.attempts + 1;
  if (failure.kind === "transient" && attempts < MAX_ATTEMPTS) {
    return {
      patch: { attempts, lastError: failure.reason, nextAttemptAt: failure.retryAt },
      events: [
        {
          kind: EVENT.retryScheduled,
          text: said("lookUpRetry", { reason: failure.reason, at: failure.retryAt.toISOString() }),
        },
      ],
    };
  }
  const text = said("lookUpGaveUp", { reason: failure.reason });
  return {
    patch: {
      attempts,
      lastError: failure.reason,
      nextAttemptAt: null,
      attention: ATTENTION.retriesExhausted,
      attentionMessage: attentionOf(text),
    },
    events: [{ kind: EVENT.retriesExhausted, text, data: { at: now.toISOString() } }],
  };
}

/** What the timeline says when an order starts waiting for Shopify, by what it waits for. */
const WAITING_TEXT: Record<string, Message> = {
  routing: said("waitingRouting"),
  on_hold: said("waitingOnHold"),
  scheduled: said("waitingScheduled"),
  request: said("waitingRequest"),
};

/** The Shopify hold reasons the timeline names (FulfillmentHoldReason); any other reads as OTHER. */
const HOLD_REASONS = new Set([
  "AWAITING_PAYMENT",
  "AWAITING_RETURN_ITEMS",
  "HIGH_RISK_OF_FRAUD",
  "INCORRECT_ADDRESS",
  "INVENTORY_OUT_OF_STOCK",
  "ONLINE_STORE_POST_PURCHASE_CROSS_SELL",
  "OTHER",
  "UNKNOWN_DELIVERY_DATE",
]);

/** What the timeline says of the waiting, with a hold's reasons each in a sentence of their own. */
function waitingTexts(decision: Extract<RoutingDecision, { kind: "waiting" }>): Message[] {
  if (decision.reason !== "on_hold") return [WAITING_TEXT[decision.reason]!];
  const reasons = [
    ...new Set(decision.holds.map((hold) => (HOLD_REASONS.has(hold.reason) ? hold.reason : "OTHER"))),
  ];
  return [WAITING_TEXT.on_hold!, ...reasons.map((reason) => message(`orders:shopifyHold.${reason}`))];
}

/** A stage at which Shopify's changes no longer reach the warehouse's order: it has left the warehouse. */
const GONE_STAGES: readonly string[] = [
  STAGE.shipped,
  STAGE.delivered,
  STAGE.returned,
  STAGE.cancelledAtWarehouse,
];

/**
 * What the order's fulfillment orders now say. Before the warehouse has the order: it waits for Shopify, is
 * not the warehouse's, or is mapped with the warehouse's lines and made ready (or held with what to fix).
 * Once sent: the warehouse's lines changing before picking become an edit, none left a cancellation (the paths
 * an orders/updated or orders/cancelled takes); after picking the merchant is told; once shipped or fulfilled
 * by the app, nothing (our own fulfillment closes the fulfillment order). A hold or a date placed after
 * sending changes nothing here: the warehouse has the order, and fulfilling it says so if it matters. The
 * same decision applied twice changes nothing the second time.
 */
function routed(
  row: OrderFacts,
  decision: RoutingDecision,
  result: MappingResult | null,
  now: Date,
): Transition {
  const transition = routedBy(row, decision, result, now);
  // Decided though Shopify's fulfillment orders did not cover all the order's lines when the completeness
  // guard gave up: the merchant reads that with whatever the decision changed.
  if (decision.kind === "waiting" || !decision.uncovered?.length || !transition.events.length)
    return transition;
  return {
    ...transition,
    events: [
      ...transition.events,
      {
        kind: EVENT.routed,
        text: said("routedIncomplete", { minutes: INCOMPLETE_WAIT_MS / 60_000 }),
        data: { uncovered: decision.uncovered },
      },
    ],
  };
}

function routedBy(
  row: OrderFacts,
  decision: RoutingDecision,
  result: MappingResult | null,
  now: Date,
): Transition {
  if (row.state === ORDER_STATE.cancelled) return noChange();
  const current = row.warehouseLines ?? null;
  if (UNSENT_STATES.includes(row.state)) {
    if (decision.kind === "waiting") {
      const lines = decision.reason === "routing" ? current : warehouseLinesColumn(decision.lines);
      const same = row.state === ORDER_STATE.waiting && row.waitReason === decision.reason;
      const patch: OrderPatch = {};
      if (lines !== current) patch.warehouseLines = lines;
      // Due at its date for a look at Shopify; a date already passed keeps the look-up's own schedule. Waiting
      // for fulfillment orders not read yet (the completeness guard): due when the guard gives up.
      const at =
        decision.reason === "scheduled"
          ? decision.fulfillAt
          : decision.reason === "routing"
            ? (decision.decideBy ?? null)
            : null;
      if (!same) patch.nextAttemptAt = at;
      else if (at && at > now && at.getTime() !== row.nextAttemptAt?.getTime()) patch.nextAttemptAt = at;
      if (same) return { patch, events: [] };
      return {
        patch: {
          ...patch,
          state: ORDER_STATE.waiting,
          waitReason: decision.reason,
          attempts: 0,
          lastError: null,
        },
        events: [{ kind: EVENT.waiting, text: waitingTexts(decision), data: decision }],
      };
    }
    if (decision.kind === "elsewhere") {
      if (row.state === ORDER_STATE.elsewhere) return noChange();
      return {
        patch: {
          state: ORDER_STATE.elsewhere,
          waitReason: null,
          warehouseLines: "[]",
          nextAttemptAt: null,
          attempts: 0,
          lastError: null,
        },
        events: [{ kind: EVENT.elsewhere, text: said("elsewhere"), data: decision }],
      };
    }
    if (!result) throw new Error("a routing decision of lines needs the order mapped with them");
    const lines = warehouseLinesColumn(decision.lines);
    const wasOut = row.state === ORDER_STATE.waiting || row.state === ORDER_STATE.elsewhere;
    if (!wasOut) {
      // Already routed: the lines changed, or not at all; the rules of a re-mapping apply.
      if (lines === current) return noChange();
      const remap = remapped(row, result, now);
      return {
        patch: { ...remap.patch, warehouseLines: lines },
        events: [routedEvent(row, decision), ...remap.events],
      };
    }
    const columns = mappingColumnsOf(result);
    const mappedEvents: TimelineEntry[] = result.ok
      ? [
          ...branchFound(result),
          ...cityFound(result),
          { kind: EVENT.ready, text: said("mapped"), data: result.order },
        ]
      : [{ kind: EVENT.held, text: holdTextsOf(result.hold), data: result.hold }];
    return {
      patch: {
        ...columns,
        warehouseLines: lines,
        waitReason: null,
        state: result.ok ? ORDER_STATE.ready : ORDER_STATE.held,
        nextAttemptAt: result.ok ? now : null,
        attempts: 0,
        lastError: null,
      },
      events: [routedEvent(row, decision), ...mappedEvents],
    };
  }

  // Sent, or being sent: the warehouse has the order, or may have it.
  if (row.fulfillmentId || GONE_STAGES.includes(row.stage ?? "")) return noChange();
  if (row.pending === PENDING.cancel || decision.kind === "waiting") return noChange();
  const lines = warehouseLinesColumn(decision.kind === "lines" ? decision.lines : []);
  if (lines === current) return noChange();
  const picked = row.stage === STAGE.picked;
  if (decision.kind === "elsewhere") {
    if (picked) return afterPicking(row, { warehouseLines: lines }, decision, "routingGoneAfterPicking");
    return {
      patch: { warehouseLines: lines, pending: PENDING.cancel, nextAttemptAt: now, attempts: 0 },
      events: [{ kind: EVENT.cancelQueued, text: said("routingGoneCancel"), data: decision }],
    };
  }
  if (!result) throw new Error("a routing decision of lines needs the order mapped with them");
  const columns = mappingColumnsOf(result);
  // The same goods as before (an order sent whole whose fulfillment orders are read now): only recorded.
  if (columns.mapped === row.mapped && columns.holdReasons === row.holdReasons)
    return { patch: { warehouseLines: lines }, events: [] };
  if (picked)
    return afterPicking(row, { warehouseLines: lines, ...columns }, decision, "routingChangedAfterPicking");
  const remap = remapped(row, result, now);
  const events =
    row.state === ORDER_STATE.accepted && remap.patch.pending === PENDING.edit
      ? [{ kind: EVENT.editQueued, text: said("routingEditQueued"), data: decision }]
      : remap.events;
  return { patch: { ...remap.patch, warehouseLines: lines }, events };
}

/** The timeline's word on the warehouse's lines being decided: how the order came to be the warehouse's. */
function routedEvent(row: OrderFacts, decision: Extract<RoutingDecision, { kind: "lines" }>): TimelineEntry {
  const key =
    row.state === ORDER_STATE.elsewhere
      ? "routedMovedIn"
      : row.state === ORDER_STATE.waiting && row.waitReason === "on_hold"
        ? "routedReleased"
        : row.state === ORDER_STATE.waiting && row.waitReason === "scheduled"
          ? "routedDue"
          : row.state !== ORDER_STATE.waiting
            ? "routedChanged"
            : decision.split
              ? "routedSplit"
              : "routedWhole";
  return { kind: EVENT.routed, text: said(key), data: decision };
}

/** The warehouse has picked the order: Shopify's change cannot follow it there, so the merchant decides. */
function afterPicking(
  row: OrderFacts,
  columns: OrderPatch,
  decision: RoutingDecision,
  key: "routingGoneAfterPicking" | "routingChangedAfterPicking",
): Transition {
  const text = said(key);
  return {
    patch: {
      ...columns,
      attention: ATTENTION.routingChangedAfterPicking,
      attentionMessage: attentionOf(text),
    },
    events: [{ kind: EVENT.routingChanged, text, data: decision }],
  };
}

/**
 * The order's fulfillment orders could not be applied to it, time after time: the merchant is told (an order
 * already showing another problem keeps it, the timeline says this one).
 */
function routingFailed(row: OrderFacts, failure: "payload" | "other", attempts: number): Transition {
  if (row.state === ORDER_STATE.cancelled) return noChange();
  const text = said(failure === "payload" ? "routingFailedPayload" : "routingFailedOther", { attempts });
  const event: TimelineEntry = { kind: EVENT.routingFailed, text, data: { failure, attempts } };
  if (row.attention && row.attention !== ATTENTION.routingFailed) return { patch: {}, events: [event] };
  return {
    patch: { attention: ATTENTION.routingFailed, attentionMessage: attentionOf(text) },
    events: [event],
  };
}

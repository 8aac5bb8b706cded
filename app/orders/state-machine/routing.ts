// The order rules for routing: what the order's fulfillment orders say of the warehouse's part (wait for
// Shopify, not the warehouse's, these lines), before the warehouse has the order and after, and what to tell
// the merchant when they cannot be applied.
import { message, type Message } from "../../i18n/message";
import type { MappingResult } from "../mapping";
import { INCOMPLETE_WAIT_MS, warehouseLinesColumn, type RoutingDecision } from "../../routing/decide";
import { timelineText as said } from "../timeline";
import { ATTENTION, EVENT, ORDER_STATE, PENDING, STAGE, UNSENT_STATES } from "../states";
import {
  attentionOf,
  noChange,
  type OrderFacts,
  type OrderPatch,
  type TimelineEntry,
  type Transition,
} from "./shared";
import { WAITING_TEXT, branchFound, cityFound, holdTextsOf, mappingColumnsOf, remapped } from "./intake";

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
export function routed(
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
export function routingFailed(row: OrderFacts, failure: "payload" | "other", attempts: number): Transition {
  if (row.state === ORDER_STATE.cancelled) return noChange();
  const text = said(failure === "payload" ? "routingFailedPayload" : "routingFailedOther", { attempts });
  const event: TimelineEntry = { kind: EVENT.routingFailed, text, data: { failure, attempts } };
  if (row.attention && row.attention !== ATTENTION.routingFailed) return { patch: {}, events: [event] };
  return {
    patch: { attention: ATTENTION.routingFailed, attentionMessage: attentionOf(text) },
    events: [event],
  };
}

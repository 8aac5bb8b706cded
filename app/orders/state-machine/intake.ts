// The order rules for intake: an order's first webhook, its re-mapping when Shopify's data, the shop's
// settings or the merchant's corrections change, and its cancellation in Shopify. Pure, as all the rules.
import type { HoldReason, MappingResult } from "../mapping";
import type { Message } from "../../i18n/message";
import { percent } from "../../reference/types";
import { timelineText as said } from "../timeline";
import { storedText } from "../words";
import { ATTENTION, EVENT, ORDER_STATE, PENDING, UNSENT_STATES, type OrderState } from "../states";
import {
  attentionOf,
  cancelledColumns,
  type OrderFacts,
  type OrderPatch,
  type TimelineEntry,
  type Transition,
} from "./shared";

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
export function branchFound(result: MappingResult): TimelineEntry[] {
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
export function cityFound(result: MappingResult): TimelineEntry[] {
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

export function remapped(row: OrderFacts, result: MappingResult, now: Date): Transition {
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

export function shopifyCancelled(row: OrderFacts, cancelledAt: Date, now: Date): Transition {
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

/** What the timeline says when an order starts waiting for Shopify, by what it waits for. */
export const WAITING_TEXT: Record<string, Message> = {
  routing: said("waitingRouting"),
  on_hold: said("waitingOnHold"),
  scheduled: said("waitingScheduled"),
  request: said("waitingRequest"),
};

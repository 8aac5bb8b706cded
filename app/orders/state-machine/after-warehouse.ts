// The order rules after the warehouse has the order: its status reports (stage, waybill, carrier), the
// returns it books, and what the Shopify side did with the fulfillment (told, found, a problem, a failure).
import { shopifyNeed, withWaybills } from "../../fulfillment/need";
import type { UnshippedLine } from "../../fulfillment/plan";
import type { Message } from "../../i18n/message";
import { timelineText as said } from "../timeline";
import { inEnglish } from "../words";
import { ATTENTION, EVENT, ORDER_STATE, STAGE, STAGE_RANK, type EventKind, type Stage } from "../states";
import {
  MAX_ATTEMPTS,
  attentionOf,
  type BookedReturn,
  type OrderFacts,
  type OrderPatch,
  type ShopifyTold,
  type StatusReport,
  type TimelineEntry,
  type Transition,
} from "./shared";

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
export function shopifyTold(
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
export function statusReported(row: OrderFacts, report: StatusReport, now: Date): Transition {
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
export function returnBooked(row: OrderFacts, booked: BookedReturn, now: Date): Transition {
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

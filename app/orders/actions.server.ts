// What a merchant can do to an order from the admin: send it now, retry, cancel it at the warehouse, or
// correct what held it. Each answers a message to show, and wakes the worker when work became due.
import type { ServiceDeps } from "../context.server";
import { message, type Message, type MessageValues } from "../i18n/message";
import { shopMapping } from "../settings/settings.server";
import { applyChange, storedShopifyOrder } from "./intake.server";
import { orderOverridesSchema } from "./settings";
import { ATTENTION, ORDER_STATE, PENDING, UNSENT_STATES } from "./states";
import { applyToOrder } from "./commit.server";
import { EVENT, recordEvents, timelineText } from "./timeline.server";
import { requestRoutingRead } from "../routing/kinds.server";
import { inEnglish } from "./words";

export type { ServiceDeps } from "../context.server";
/** The answer to show: `text` for the page to say in the admin's language, `message` its English. */
export interface ActionResult {
  ok: boolean;
  message: string;
  text: Message;
}

function answer(ok: boolean, key: string, values?: MessageValues): ActionResult {
  const text = message(`orders:answer.${key}`, values);
  return { ok, message: inEnglish(text), text };
}

const refusedWith = (refusal: { refused: string; text: Message }): ActionResult => ({
  ok: false,
  message: refusal.refused,
  text: refusal.text,
});

async function findOrder(deps: ServiceDeps, shop: string, orderId: string) {
  return deps.db.warehouseOrder.findFirst({ where: { id: orderId, shop } });
}

/**
 * Makes the order due now, by the order rules: a ready or rejected order is sent, an in-doubt one looked
 * up first, an edit or cancellation that ran out of retries is sent again.
 */
export async function submitNow(deps: ServiceDeps, shop: string, orderId: string): Promise<ActionResult> {
  const row = await findOrder(deps, shop, orderId);
  if (!row) return answer(false, "noSuchOrder");
  if (row.attention === ATTENTION.routingFailed) return retryRouting(deps, row);
  const refusal = await applyToOrder(deps, row, { type: "submit_now" });
  if (refusal) return refusedWith(refusal);
  deps.wake?.(shop);
  if (row.state === ORDER_STATE.inDoubt && row.attention === ATTENTION.notAtWarehouse)
    return answer(true, "sendAgain");
  if (row.state === ORDER_STATE.inDoubt) return answer(true, "lookUpAgain");
  if (row.state === ORDER_STATE.accepted)
    return answer(true, row.pending === PENDING.cancel ? "cancellationNow" : "changeNow");
  return answer(true, "sendNow");
}

/**
 * An order put aside after its fulfillment orders failed to apply (app/routing/failures.server.ts): owed again,
 * counted afresh, and read at once. The attention goes once they apply.
 */
async function retryRouting(
  deps: ServiceDeps,
  row: { id: string; shop: string; shopifyOrderId: string },
): Promise<ActionResult> {
  const now = deps.clock();
  await deps.db.shopifyFulfillmentOrder.updateMany({
    where: { shop: row.shop, shopifyOrderId: row.shopifyOrderId },
    data: { reconcilePending: true, reconcileFailures: 0, reconcileRetryAt: null },
  });
  await recordEvents(deps.db, [
    {
      shop: row.shop,
      orderId: row.id,
      at: now,
      kind: EVENT.retryRequested,
      text: timelineText("routingAgain"),
    },
  ]);
  await requestRoutingRead(deps.db, row.shop, "merchant_retry", now);
  deps.wake?.(row.shop);
  return answer(true, "routingAgain");
}

export async function retryOrders(
  deps: ServiceDeps,
  shop: string,
  orderIds: string[],
): Promise<{ retried: number; skipped: number }> {
  let retried = 0;
  for (const orderId of orderIds) if ((await submitNow(deps, shop, orderId)).ok) retried++;
  return { retried, skipped: orderIds.length - retried };
}

export async function cancelAtWarehouse(
  deps: ServiceDeps,
  shop: string,
  orderId: string,
): Promise<ActionResult> {
  const row = await findOrder(deps, shop, orderId);
  if (!row) return answer(false, "noSuchOrder");
  let cancelledHere = false;
  const refusal = await applyToOrder(deps, row, (current) => {
    cancelledHere = UNSENT_STATES.includes(current.state);
    return { type: "cancel_requested" };
  });
  if (refusal) return refusedWith(refusal);
  if (cancelledHere) return answer(true, "cancelledHere");
  deps.wake?.(shop);
  return answer(true, "cancellationQueued");
}

/** Keeps the merchant's corrections (phone, delivery method, branch, address) and maps the order again. */
export async function correctOrder(
  deps: ServiceDeps,
  shop: string,
  orderId: string,
  input: unknown,
): Promise<ActionResult> {
  const parsed = orderOverridesSchema.safeParse(input);
  if (!parsed.success) {
    // The first field refused, said whole for that field; the form shows it beside the field.
    const field = String(parsed.error.issues[0]?.path[0] ?? "");
    return answer(false, `invalid.${INVALID_FIELDS.has(field) ? field : "other"}`);
  }
  const found = await deps.db.warehouseOrder.findFirst({
    where: { id: orderId, shop },
    include: { shopifyOrder: true },
  });
  if (!found) return answer(false, "noSuchOrder");
  const { shopifyOrder, ...row } = found;
  if (row.state === ORDER_STATE.cancelled) return answer(false, "orderCancelled");
  if (row.dataErasedAt) return answer(false, "dataErased");
  const overrides = { ...orderOverridesSchema.parse(JSON.parse(row.overrides)), ...parsed.data };
  const order = storedShopifyOrder(row.id, shopifyOrder);
  await recordEvents(deps.db, [
    {
      shop,
      orderId: row.id,
      at: deps.clock(),
      kind: EVENT.corrected,
      // A whole sentence for each field corrected (orders:timeline.corrected.*).
      text: Object.keys(parsed.data).map((field) => timelineText(`corrected.${field}`)),
      data: parsed.data,
    },
  ]);
  await applyChange(deps, row, {
    order,
    settings: await shopMapping(deps.db, shop, deps.log),
    cancelled: false,
    overrides,
    extra: { overrides: JSON.stringify(overrides) },
  });
  const after = await deps.db.warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
  deps.wake?.(shop);
  if (after.state === ORDER_STATE.held) return answer(false, "stillHeld");
  return answer(true, after.pending === PENDING.edit ? "savedChange" : "savedSend");
}

/** The corrections that have a sentence of their own when refused (orders:answer.invalid.*). */
const INVALID_FIELDS = new Set(["phone", "postcode", "warehouseRef", "deliveryMethod", "courier"]);

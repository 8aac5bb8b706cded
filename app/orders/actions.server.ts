// What a merchant can do to an order from the admin: send it now, retry, cancel it at the warehouse, or
// correct what held it. Each answers a message to show, and wakes the worker when work became due.
import type { ServiceDeps } from "../context.server";
import { shopMapping } from "../settings/settings.server";
import { applyChange, storedShopifyOrder } from "./intake.server";
import { orderOverridesSchema } from "./settings";
import { ATTENTION, ORDER_STATE, PENDING } from "./states";
import { EVENT, recordEvents } from "./timeline.server";

export type { ServiceDeps } from "../context.server";
export type ActionResult = { ok: true; message: string } | { ok: false; message: string };

/** States from which the merchant may send an order again. */
const RETRYABLE = [ORDER_STATE.ready, ORDER_STATE.rejected, ORDER_STATE.inDoubt] as const;

async function findOrder(deps: ServiceDeps, shop: string, orderId: string) {
  return deps.db.warehouseOrder.findFirst({ where: { id: orderId, shop } });
}

/**
 * Makes the order due now: a ready or rejected order is sent, an in-doubt one looked up first. An order
 * the look-up did not find (flagged `not_at_warehouse`) is sent again: only the merchant may decide that,
 * since the warehouse may yet have it.
 */
export async function submitNow(deps: ServiceDeps, shop: string, orderId: string): Promise<ActionResult> {
  const row = await findOrder(deps, shop, orderId);
  if (!row) return { ok: false, message: "No such order in this store." };
  if (row.state === ORDER_STATE.held) {
    return { ok: false, message: "The order is held: fix the reasons shown first." };
  }
  if (!(RETRYABLE as readonly string[]).includes(row.state)) {
    return { ok: false, message: `The order is ${row.state.replace("_", " ")}; there is nothing to send.` };
  }
  const now = deps.clock();
  const resend = row.state === ORDER_STATE.inDoubt && row.attention === ATTENTION.notAtWarehouse;
  const state = row.state === ORDER_STATE.rejected || resend ? ORDER_STATE.ready : row.state;
  const { count } = await deps.db.warehouseOrder.updateMany({
    // As read: a look-up that found the order meanwhile must not be undone by a resend.
    where: { id: row.id, state: row.state, attention: row.attention },
    data: {
      state,
      nextAttemptAt: now,
      attempts: 0,
      ...(resend && { attention: null, attentionMessage: null }),
    },
  });
  if (count === 0) return { ok: false, message: "The order changed meanwhile; look again." };
  await recordEvents(deps.db, [
    {
      shop,
      orderId: row.id,
      at: now,
      kind: EVENT.retryRequested,
      message: resend
        ? "Sending again requested from the admin, after the warehouse did not find the order."
        : "Sending requested from the admin.",
    },
  ]);
  deps.wake?.(shop);
  if (row.state !== ORDER_STATE.inDoubt) return { ok: true, message: "The order will be sent now." };
  return {
    ok: true,
    message: resend
      ? "The order will be sent to the warehouse again."
      : "The order will be looked up at the warehouse again. It is sent again only if you ask once the warehouse has not found it.",
  };
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
  if (!row) return { ok: false, message: "No such order in this store." };
  const now = deps.clock();
  if (row.state === ORDER_STATE.cancelled) return { ok: false, message: "The order is already cancelled." };
  if (
    row.state === ORDER_STATE.held ||
    row.state === ORDER_STATE.ready ||
    row.state === ORDER_STATE.rejected
  ) {
    const { count } = await deps.db.warehouseOrder.updateMany({
      where: { id: row.id, state: row.state },
      data: { state: ORDER_STATE.cancelled, nextAttemptAt: null, pending: null },
    });
    if (count === 0) return { ok: false, message: "The order changed meanwhile; look again." };
    await recordEvents(deps.db, [
      {
        shop,
        orderId: row.id,
        at: now,
        kind: EVENT.cancelled,
        message: "Cancelled from the admin; nothing was sent.",
      },
    ]);
    return { ok: true, message: "Cancelled. The warehouse never had it." };
  }
  await deps.db.warehouseOrder.update({
    where: { id: row.id },
    data: { pending: PENDING.cancel, nextAttemptAt: now, attention: null, attentionMessage: null },
  });
  await recordEvents(deps.db, [
    {
      shop,
      orderId: row.id,
      at: now,
      kind: EVENT.cancelQueued,
      message: "Cancellation requested from the admin; it will be sent to the warehouse.",
    },
  ]);
  deps.wake?.(shop);
  return { ok: true, message: "The cancellation will be sent to the warehouse." };
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
    return {
      ok: false,
      message: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
    };
  }
  const found = await deps.db.warehouseOrder.findFirst({
    where: { id: orderId, shop },
    include: { shopifyOrder: true },
  });
  if (!found) return { ok: false, message: "No such order in this store." };
  const { shopifyOrder, ...row } = found;
  if (row.state === ORDER_STATE.cancelled) return { ok: false, message: "The order is cancelled." };
  const overrides = { ...orderOverridesSchema.parse(JSON.parse(row.overrides)), ...parsed.data };
  const order = storedShopifyOrder(row.id, shopifyOrder);
  await recordEvents(deps.db, [
    {
      shop,
      orderId: row.id,
      at: deps.clock(),
      kind: EVENT.corrected,
      message: `Corrected in the admin: ${Object.keys(parsed.data).join(", ")}.`,
      data: parsed.data,
    },
  ]);
  await applyChange(deps, row, {
    order,
    settings: await shopMapping(deps.db, shop),
    cancelled: false,
    overrides,
    extra: { overrides: JSON.stringify(overrides) },
  });
  const after = await deps.db.warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
  deps.wake?.(shop);
  if (after.state === ORDER_STATE.held) {
    return { ok: false, message: "Saved, but the order is still held: see the reasons left." };
  }
  return {
    ok: true,
    message:
      after.pending === PENDING.edit
        ? "Saved; the change will be sent to the warehouse."
        : "Saved; the order will be sent.",
  };
}

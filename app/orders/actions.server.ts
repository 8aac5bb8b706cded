// What a merchant can do to an order from the admin: send it now, retry, cancel it at the warehouse, or
// correct what held it. Each answers a message to show, and wakes the worker when work became due.
import type { ServiceDeps } from "../context.server";
import { shopMapping } from "../settings/settings.server";
import { applyChange, storedShopifyOrder } from "./intake.server";
import { orderOverridesSchema } from "./settings";
import { ATTENTION, ORDER_STATE, PENDING } from "./states";
import { applyToOrder } from "./commit.server";
import { EVENT, recordEvents } from "./timeline.server";

export type { ServiceDeps } from "../context.server";
export type ActionResult = { ok: true; message: string } | { ok: false; message: string };

async function findOrder(deps: ServiceDeps, shop: string, orderId: string) {
  return deps.db.warehouseOrder.findFirst({ where: { id: orderId, shop } });
}

/**
 * Makes the order due now, by the order rules: a ready or rejected order is sent, an in-doubt one looked
 * up first, an edit or cancellation that ran out of retries is sent again.
 */
export async function submitNow(deps: ServiceDeps, shop: string, orderId: string): Promise<ActionResult> {
  const row = await findOrder(deps, shop, orderId);
  if (!row) return { ok: false, message: "No such order in this store." };
  const refusal = await applyToOrder(deps, row, { type: "submit_now" });
  if (refusal) return { ok: false, message: refusal.refused };
  deps.wake?.(shop);
  if (row.state === ORDER_STATE.inDoubt && row.attention === ATTENTION.notAtWarehouse)
    return { ok: true, message: "The order will be sent to the warehouse again." };
  if (row.state === ORDER_STATE.inDoubt)
    return {
      ok: true,
      message:
        "The order will be looked up at the warehouse again. It is sent again only if you ask once the warehouse has not found it.",
    };
  if (row.state === ORDER_STATE.accepted)
    return {
      ok: true,
      message:
        row.pending === PENDING.cancel
          ? "The cancellation will be sent to the warehouse now."
          : "The change will be sent to the warehouse now.",
    };
  return { ok: true, message: "The order will be sent now." };
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
  let cancelledHere = false;
  const refusal = await applyToOrder(deps, row, (current) => {
    cancelledHere = UNSENT.includes(current.state);
    return { type: "cancel_requested" };
  });
  if (refusal) return { ok: false, message: refusal.refused };
  if (cancelledHere) return { ok: true, message: "Cancelled. The warehouse never had it." };
  deps.wake?.(shop);
  return { ok: true, message: "The cancellation will be sent to the warehouse." };
}

/** States in which the warehouse certainly does not have the order. */
const UNSENT: readonly string[] = [ORDER_STATE.held, ORDER_STATE.ready, ORDER_STATE.rejected];

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
    settings: await shopMapping(deps.db, shop, deps.log),
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

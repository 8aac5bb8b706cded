// Edits and cancellations of orders the warehouse already has, one request a step. What the warehouse
// answers is written by the order rules, conditionally on the order as it was read before the request:
// a change that came in while the request was out (a cancellation above all) is kept and sent next.
import { WarehouseError } from "../warehouse/errors";
import type { WarehouseOrder } from "../warehouse/schemas";
import { OPERATIONS } from "../warehouse/wire";
import { applyToOrder } from "./commit.server";
import type { OrderInput } from "./state-machine";
import { ORDER_STATE, PENDING } from "./states";
import {
  exchangeLog,
  exchangeSummary,
  failureOf,
  KEY_REFUSED,
  limiterWait,
  NOTHING,
  WORK,
  type ShopWorkDeps,
  type StepResult,
} from "./step.server";

/** Sends one due edit or cancellation of an order the warehouse has. */
export async function sendPendingChange(deps: ShopWorkDeps, shop: string): Promise<StepResult> {
  const { db } = deps;
  const now = deps.clock();
  const row = await db.warehouseOrder.findFirst({
    where: { shop, state: ORDER_STATE.accepted, pending: { not: null }, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
  });
  if (!row) return NOTHING;
  const cancel = row.pending === PENDING.cancel;
  const operation = cancel ? OPERATIONS.cancelOrder : OPERATIONS.editOrder;
  const wait = await limiterWait(deps, operation);
  if (wait) return { did: "wait", until: wait };

  const body = cancel
    ? { order: { id_order: row.idOrder } }
    : { ...(JSON.parse(row.mapped ?? "null") as WarehouseOrder), key_order: row.keyOrder ?? "" };
  const exchanges = exchangeLog();
  let outcome: OrderInput;
  let keyRefused = false;
  try {
    if (cancel) await deps.warehouse.cancelOrder(row.idOrder, exchanges);
    else await deps.warehouse.editOrder(body as WarehouseOrder & { key_order: string }, exchanges);
    const data = { request: body, exchange: exchangeSummary(exchanges.last()) };
    outcome = cancel ? { type: "cancel_sent", data } : { type: "edit_sent", sent: row.mapped ?? "", data };
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    const failure = failureOf(deps, error, { attempts: row.attempts, at: deps.clock(), addOrder: false });
    keyRefused = failure.kind === "key_refused";
    outcome = {
      type: "change_failed",
      change: cancel ? "cancel" : "edit",
      failure,
      data: { request: body, exchange: exchangeSummary(exchanges.last()) },
    };
  }
  // Written against the order as it was read before the request; if it changed meanwhile, the outcome is
  // applied to it as it is now (an edit's success still leaves a cancellation that came in due).
  await applyToOrder(deps, row, (current) => (current.state === ORDER_STATE.accepted ? outcome : null));
  return keyRefused ? KEY_REFUSED : WORK;
}

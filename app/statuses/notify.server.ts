// A warehouse notification taken in: the address's token names the shop, the body names orders, and the
// shop's accepted orders among them are marked to be looked up (statusHintAt). Nothing else changes and
// nothing is called: the notification is unsigned and its shape a guess, so it is only a hint, confirmed
// by ReportStatusOrder before any order moves.
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { databaseNowSql } from "../db/clock.server";
import { sqlTransaction } from "../db/sql.server";
import { readBodyWithin } from "../http/body.server";
import { ORDER_STATE } from "../orders/states";
import { requestStatusCheck } from "./kinds.server";
import { notifiedIds } from "./notification";
import { notifyTokenSchema, shopOfNotifyToken } from "./notify-token.server";

/** Far above a notification naming a few orders, far below harm. */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;

/** One answer for every token that opens nothing, so the answer tells nothing about why. */
function notFound(): Response {
  return Response.json({ error: "Not found." }, { status: 404 });
}

/**
 * Answers a notification POSTed to the address with `token`: 404 for a token of no installed shop, 413
 * for a body over the limit (or naming too many orders), 400 for one that is not JSON or names no order,
 * and otherwise 200 whether or not an order matched (the warehouse can do nothing about a miss).
 */
export async function takeWarehouseNotification(
  deps: ServiceDeps,
  token: string | undefined,
  request: Request,
): Promise<Response> {
  if (!notifyTokenSchema.safeParse(token).success) return notFound();
  const body = await readBodyWithin(request, MAX_NOTIFICATION_BYTES, "notification");
  const shop = await shopOfNotifyToken(deps.db, token!);
  if (shop === null) return notFound();
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(body));
  } catch {
    deps.log.warn(
      { shop, event: "statuses.notification_refused", reason: "not_json" },
      "notification refused",
    );
    return Response.json({ error: "The notification body is not valid JSON." }, { status: 400 });
  }
  const named = notifiedIds(payload);
  if (!named.ok) {
    deps.log.warn(
      { shop, event: "statuses.notification_refused", reason: named.reason },
      "notification refused",
    );
    return Response.json({ error: named.message }, { status: named.reason === "too_many_ids" ? 413 : 400 });
  }
  const now = deps.clock();
  const matched = await markStatusHints(deps.db, shop, named.ids);
  // Nothing became due for a miss.
  if (matched > 0) {
    await requestStatusCheck(deps.db, shop, now);
    deps.wake?.(shop);
  }
  deps.log.info(
    { shop, event: "statuses.notified", idsNamed: named.ids.length, ordersMatched: matched },
    "warehouse notification: orders marked to be looked up",
  );
  return Response.json({ ok: true });
}

/**
 * Sets statusHintAt on the shop's accepted orders that any of `ids` names (as id_order, key_order or
 * id_order_FF), in one statement, and answers how many. Plain SQL, not Prisma's updateMany: that would also
 * set updatedAt, and a hint must change nothing but itself; the version stays too, so the worker's
 * version-checked writes never clash with a notification. Stamped by the database's clock, as the worker's
 * report reads it (statuses/work.server.ts): a host whose clock lags would otherwise stamp a hint that came
 * during a report as older than the report, and the report would clear it unseen.
 */
export async function markStatusHints(db: Db, shop: string, ids: readonly string[]): Promise<number> {
  const list = ids.map(() => "?").join(", ");
  return sqlTransaction(db, (tx) =>
    tx.execute(
      `UPDATE "WarehouseOrder" SET "statusHintAt" = ${databaseNowSql(db)} WHERE "shop" = ? AND "state" = ?
         AND ("idOrder" IN (${list}) OR "keyOrder" IN (${list}) OR "idOrderFF" IN (${list}))`,
      [shop, ORDER_STATE.accepted, ...ids, ...ids, ...ids],
    ),
  );
}

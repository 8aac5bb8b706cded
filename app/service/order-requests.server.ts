// What the order page shows of Shopify's requests for an order in fulfillment-service mode: the answer owed
// or given on each of its fulfillment orders, and a problem the retries could not get past, which the
// merchant can send again from the page.
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { message, type Message } from "../i18n/message";
import { requestFulfillmentRequests } from "./kinds.server";
import { REQUEST_OF_STATUS } from "./answer";

export interface OrderRequest {
  fulfillmentOrderId: string;
  /** waiting: owed and not yet due to be given; answered: given; problem: retries ran out. */
  standing: "waiting" | "answered" | "problem";
  request: "fulfillment" | "cancellation" | null;
  answered: string | null;
  problem: string | null;
}

/** The requests of the order's fulfillment orders that Shopify made of the app (none in location mode). */
export async function orderRequests(db: Db, shop: string, shopifyOrderId: string): Promise<OrderRequest[]> {
  const rows = await db.shopifyFulfillmentOrder.findMany({
    where: {
      shop,
      shopifyOrderId,
      OR: [{ answerDueAt: { not: null } }, { answered: { not: null } }, { answerProblem: { not: null } }],
    },
    orderBy: { id: "asc" },
    select: { id: true, requestStatus: true, answered: true, answerProblem: true, answerDueAt: true },
  });
  return rows.map((row) => ({
    fulfillmentOrderId: row.id,
    standing: row.answerProblem ? "problem" : row.answerDueAt ? "waiting" : "answered",
    request: REQUEST_OF_STATUS[row.requestStatus] ?? null,
    answered: row.answered,
    problem: row.answerProblem,
  }));
}

/** The merchant's "Try again": the answers that ran out of retries are due now, with their attempts anew. */
export async function retryOrderAnswers(
  deps: ServiceDeps,
  shop: string,
  shopifyOrderId: string,
): Promise<{ ok: boolean; text: Message }> {
  const now = deps.clock();
  const { count } = await deps.db.shopifyFulfillmentOrder.updateMany({
    where: { shop, shopifyOrderId, answerProblem: { not: null } },
    data: { answerProblem: null, answerAttempts: 0, answerDueAt: now, version: { increment: 1 } },
  });
  if (count === 0) return { ok: false, text: message("statuses:serviceRequest.nothingToRetry") };
  await requestFulfillmentRequests(deps.db, shop, now);
  deps.wake?.(shop, "due_now");
  return { ok: true, text: message("statuses:serviceRequest.retrying") };
}

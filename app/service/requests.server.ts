// Fulfillment-service mode's requests as a kind of the engine's work. Shopify's callback and the request
// webhooks only mark the shop due; a run reads the service location's fulfillment orders with a request
// outstanding (assignedFulfillmentOrders, fulfillment then cancellation requests, pages of 50, routing's fields), stores them
// and lets the order side apply them (storeFulfillmentOrders, reconcileRouting), then answers each from its
// order's state (answer.ts). Each answer owed is kept on its ShopifyFulfillmentOrder row, and made exactly
// once: the row is claimed with a write conditional on its version before the call (two workers: one call),
// a claim never settled (a lost answer, a crash) makes the next run read the request's status before calling
// again (made already: recorded, not repeated), and an answer given before is given again only once Shopify
// says the request is still outstanding (a request made again). Retries end: after MAX_ANSWER_ATTEMPTS the
// problem is kept on the row for the merchant.
import type { ShopifyFulfillmentOrder as FoRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { i18nFor } from "../i18n/i18n";
import { supportedLocale, DEFAULT_LOCALE } from "../i18n/locales";
import { completeLines } from "../routing/read.server";
import type { FulfillmentOrderNode } from "../routing/store.server";
import { storeFulfillmentOrders } from "../routing/store.server";
import { reconcileRouting } from "../routing/reconcile.server";
import type { Stage } from "../orders/states";
import { ShopifyThrottled, ShopifyUserErrors, type ShopAdmin } from "../shopify/admin-graphql.server";
import type {
  ServiceAssignedFulfillmentOrdersQuery,
  ServiceFulfillmentOrderRequestStatusQuery,
} from "../types/admin.generated";
import { backoffMs } from "../work/backoff";
import { scheduledKind, type ScheduledRun } from "../work/schedule.server";
import type { ShopWork, StepResult } from "../work/steps.server";
import {
  decideAnswer,
  STATUS_AFTER,
  REQUEST_OF_STATUS,
  type Answer,
  type Decision,
  type WaitWhy,
} from "./answer";
import { FULFILLMENT_REQUESTS_KIND } from "./kinds.server";
import {
  ACCEPT_CANCELLATION_REQUEST,
  ACCEPT_FULFILLMENT_REQUEST,
  ASSIGNED_FULFILLMENT_ORDERS_QUERY,
  FULFILLMENT_ORDER_REQUEST_STATUS_QUERY,
  REJECT_CANCELLATION_REQUEST,
  REJECT_FULFILLMENT_REQUEST,
} from "./operations";

/** Calls for one answer before the problem is left to the merchant. */
export const MAX_ANSWER_ATTEMPTS = 6;
/** How soon a waiting request is looked at again: its order is on its way, or only the merchant moves it. */
export const RECHECK_MS: Record<WaitWhy, number> = {
  not_recorded: 60_000,
  in_flight: 60_000,
  cancelling: 60_000,
  merchant: 15 * 60_000,
};
/** Answers given in one run; the run is asked for again at once while more are due. */
const ANSWERS_A_RUN = 100;
/** The assignment statuses read, in this order: a fulfillment request's answer before a later cancellation's. */
const ASSIGNMENT_STATUSES = ["FULFILLMENT_REQUESTED", "CANCELLATION_REQUESTED"] as const;

/** The reading and order sides this kind hands the requests to (the routing's own; replaceable in tests). */
export interface RequestRouting {
  store(deps: ServiceDeps, shop: string, nodes: readonly FulfillmentOrderNode[]): Promise<string[]>;
  /** Orders failing on their own are answered, their rows left owed for the fulfillment_orders kind. */
  reconcile(deps: ServiceDeps, shop: string, shopifyOrderIds: readonly string[]): Promise<unknown>;
}

const ROUTING: RequestRouting = { store: storeFulfillmentOrders, reconcile: reconcileRouting };

export const fulfillmentRequestsWork = scheduledKind(FULFILLMENT_REQUESTS_KIND, (work) =>
  answerFulfillmentRequests(work),
);

export async function answerFulfillmentRequests(
  work: ShopWork,
  routing: RequestRouting = ROUTING,
): Promise<ScheduledRun | StepResult> {
  const { db, shop } = work;
  const settings = await db.shopSettings.findUnique({
    where: { shop },
    select: { fulfillmentMode: true, locationId: true, fulfillmentServiceId: true },
  });
  // Rows of an earlier service-mode spell keep their answers owed: they are answered still, as orders finish
  // under the mode they were sent in; only the reading of new requests needs the mode now.
  const serviceLocation =
    settings?.fulfillmentMode === "service" && settings.fulfillmentServiceId ? settings.locationId : null;
  const admin = await work.admin();
  const answering = new Answering(work, admin);
  const seen = new Set<string>();
  try {
    if (serviceLocation) {
      for (const assignmentStatus of ASSIGNMENT_STATUSES) {
        let after: string | null = null;
        for (;;) {
          const data: ServiceAssignedFulfillmentOrdersQuery = await admin.query(
            ASSIGNED_FULFILLMENT_ORDERS_QUERY,
            {
              status: assignmentStatus,
              locationIds: [serviceLocation],
              after,
            },
          );
          const page = data.assignedFulfillmentOrders;
          // Every line of each, so a stored row never holds part of what the warehouse should get.
          const nodes = await completeLines(admin, page.nodes);
          const changed = await routing.store(work, shop, nodes);
          if (changed.length) await routing.reconcile(work, shop, changed);
          for (const node of nodes) {
            if (seen.has(node.id)) continue;
            seen.add(node.id);
            await answering.one(node.id, node.requestStatus);
          }
          if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || answering.count >= ANSWERS_A_RUN)
            break;
          after = page.pageInfo.endCursor;
        }
      }
    }
    // Answers owed that no page showed: a call whose answer was lost (the request is no longer outstanding
    // once Shopify took it), and requests waiting for their order, looked at again when due.
    const due = await db.shopifyFulfillmentOrder.findMany({
      where: { shop, answerDueAt: { lte: work.clock() } },
      orderBy: { answerDueAt: "asc" },
      take: ANSWERS_A_RUN,
      select: { id: true },
    });
    for (const { id } of due) {
      if (seen.has(id) || answering.count >= ANSWERS_A_RUN) continue;
      await answering.one(id, null);
    }
  } catch (error) {
    if (!(error instanceof ShopifyThrottled)) throw error;
    return { nextRunAt: new Date(work.clock().getTime() + error.retryAfterMs) };
  }
  if (answering.count >= ANSWERS_A_RUN) return { nextRunAt: work.clock() };
  const next = await db.shopifyFulfillmentOrder.findFirst({
    where: { shop, answerDueAt: { not: null } },
    orderBy: { answerDueAt: "asc" },
    select: { answerDueAt: true },
  });
  return { nextRunAt: next?.answerDueAt ?? null };
}

/** The answers of one run: each fulfillment order's read, decided, claimed, made and recorded. */
class Answering {
  count = 0;
  private locale: Promise<string> | undefined;

  constructor(
    private readonly work: ShopWork,
    private readonly admin: ShopAdmin,
  ) {}

  /** `status`: the request status a page just showed; null when only the row is known (read it first). */
  async one(id: string, status: string | null): Promise<void> {
    const { db, shop } = this.work;
    const row = await db.shopifyFulfillmentOrder.findUnique({ where: { shop_id: { shop, id } } });
    if (!row) return;
    // Claimed by another worker whose call may still be under way: its to settle. Only once the claim's backoff
    // has passed unsettled (a lost answer, a crash) does a run take it over, reading Shopify's word first.
    const claimedElsewhere =
      row.answer !== null &&
      row.answerAttempts > 0 &&
      row.answerProblem === null &&
      row.answerDueAt !== null &&
      row.answerDueAt > this.work.clock();
    if (claimedElsewhere) return;
    let current = status ?? (await this.readStatus(id));
    let decision = await this.decide(row, current);
    // A claim never settled, or the same answer given before: Shopify's word on the request comes first.
    const unsettled = row.answer !== null && row.answerAttempts > 0;
    const givenBefore = decision.do === "answer" && row.answered === decision.answer;
    if (status !== null && (unsettled || givenBefore)) {
      current = await this.readStatus(id);
      decision = await this.decide(row, current);
    }
    if (row.answer && current === STATUS_AFTER[row.answer as Answer]) {
      await this.settle(row, row.answer as Answer, row.version);
      return;
    }
    if (decision.do === "nothing") {
      if (row.answer !== null || row.answerDueAt !== null || row.answerProblem !== null) {
        await this.write(row, { answer: null, answerDueAt: null, answerAttempts: 0, answerProblem: null });
      }
      return;
    }
    if (decision.do === "wait") {
      const dueAt = new Date(this.work.clock().getTime() + RECHECK_MS[decision.why]);
      await this.write(row, { answer: null, answerDueAt: dueAt, answerAttempts: 0 });
      return;
    }
    // Given up on this very answer: it stays with the merchant until the request changes.
    if (row.answerProblem && row.answer === decision.answer && row.answerDueAt === null) return;
    await this.answer(row, decision);
  }

  private async decide(row: FoRow, status: string | null): Promise<Decision> {
    if (status === null) return { do: "nothing" };
    const order = await this.work.db.warehouseOrder.findUnique({
      where: { shop_shopifyOrderId: { shop: this.work.shop, shopifyOrderId: row.shopifyOrderId } },
      select: {
        state: true,
        stage: true,
        pending: true,
        attention: true,
        attentionMessage: true,
        lastError: true,
        idOrderFF: true,
        waitReason: true,
      },
    });
    return decideAnswer(status, order);
  }

  /** The request status Shopify holds now; null when the fulfillment order is gone or no longer ours. */
  private async readStatus(id: string): Promise<string | null> {
    const data = await this.admin.query<ServiceFulfillmentOrderRequestStatusQuery>(
      FULFILLMENT_ORDER_REQUEST_STATUS_QUERY,
      { id },
    );
    return data.fulfillmentOrder?.requestStatus ?? null;
  }

  private async answer(row: FoRow, decision: Extract<Decision, { do: "answer" }>): Promise<void> {
    const { db, shop } = this.work;
    const now = this.work.clock();
    const attempts = (row.answer === decision.answer ? row.answerAttempts : 0) + 1;
    // The claim: one worker's, before the call. Due again after a backoff if the call is never settled.
    const claimed = await db.shopifyFulfillmentOrder.updateMany({
      where: { shop, id: row.id, version: row.version },
      data: {
        answer: decision.answer,
        answerAttempts: attempts,
        answerDueAt: new Date(now.getTime() + backoffMs(attempts)),
        answerProblem: null,
        version: { increment: 1 },
      },
    });
    if (claimed.count === 0) return;
    const version = row.version + 1;
    this.count++;
    try {
      await this.call(row.id, decision);
    } catch (error) {
      if (error instanceof ShopifyThrottled) throw error;
      // Refused, or no answer: Shopify's word on the request settles it if it can.
      const status = await this.readStatus(row.id).catch(() => undefined);
      if (status === STATUS_AFTER[decision.answer]) {
        await this.settle(row, decision.answer, version);
        return;
      }
      if (status !== undefined && (status === null || !REQUEST_OF_STATUS[status])) {
        // Withdrawn, closed or answered otherwise meanwhile: nothing is owed any more.
        await db.shopifyFulfillmentOrder.updateMany({
          where: { shop, id: row.id, version },
          data: { answer: null, answerDueAt: null, answerAttempts: 0, version: { increment: 1 } },
        });
        return;
      }
      this.work.log.warn(
        {
          shop,
          event: "service.answer_failed",
          fulfillmentOrderId: row.id,
          answer: decision.answer,
          attempts,
          refused: error instanceof ShopifyUserErrors,
          err: error,
        },
        "an answer to Shopify's request did not go through; it is tried again",
      );
      if (attempts >= MAX_ANSWER_ATTEMPTS) {
        await db.shopifyFulfillmentOrder.updateMany({
          where: { shop, id: row.id, version },
          data: {
            answerDueAt: null,
            answerProblem: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
            version: { increment: 1 },
          },
        });
      }
      // Otherwise the claim stays, due after its backoff, and the next try reads the request's status first.
      return;
    }
    await this.settle(row, decision.answer, version);
  }

  /** The answer was made: recorded, nothing owed. */
  private async settle(row: FoRow, answer: Answer, version: number): Promise<void> {
    await this.work.db.shopifyFulfillmentOrder.updateMany({
      where: { shop: this.work.shop, id: row.id, version },
      data: {
        answered: answer,
        answer: null,
        answerDueAt: null,
        answerAttempts: 0,
        answerProblem: null,
        requestStatus: STATUS_AFTER[answer],
        version: { increment: 1 },
      },
    });
    this.work.log.info(
      { shop: this.work.shop, event: "service.answered", fulfillmentOrderId: row.id, answer },
      "answered Shopify's request",
    );
  }

  private async write(
    row: FoRow,
    data: { answer: null; answerDueAt: Date | null; answerAttempts: number; answerProblem?: null },
  ): Promise<void> {
    await this.work.db.shopifyFulfillmentOrder.updateMany({
      where: { shop: this.work.shop, id: row.id, version: row.version },
      data: { ...data, version: { increment: 1 } },
    });
  }

  private async call(id: string, decision: Extract<Decision, { do: "answer" }>): Promise<void> {
    const t = i18nFor(supportedLocale(await this.shopLocale()) ?? DEFAULT_LOCALE).getFixedT(null, "statuses");
    switch (decision.answer) {
      case "accept":
        // The warehouse gives no expected ship date, so none is sent (estimatedShippedAt is optional).
        await this.admin.mutate(ACCEPT_FULFILLMENT_REQUEST, { id, message: t("serviceAnswer.accepted") });
        return;
      case "reject": {
        const text =
          decision.why === "refused"
            ? decision.said
              ? t("serviceAnswer.refusedSaid", { said: decision.said })
              : t("serviceAnswer.refused")
            : t(`serviceAnswer.${decision.why === "cancelled" ? "cancelled" : "cancelledAtWarehouse"}`);
        await this.admin.mutate(REJECT_FULFILLMENT_REQUEST, { id, reason: "OTHER", message: text });
        return;
      }
      case "accept_cancellation":
        await this.admin.mutate(ACCEPT_CANCELLATION_REQUEST, {
          id,
          message: t("serviceAnswer.cancellationAccepted"),
        });
        return;
      case "reject_cancellation": {
        const stage = decision.stage === "refused" ? null : t(`stages.${decision.stage as Stage}`);
        const text = stage
          ? t("serviceAnswer.tooLate", { stage })
          : decision.said
            ? t("serviceAnswer.cancelRefusedSaid", { said: decision.said })
            : t("serviceAnswer.cancelRefused");
        await this.admin.mutate(REJECT_CANCELLATION_REQUEST, { id, message: text });
        return;
      }
    }
  }

  /** The shop's primary language as read at install: Shopify's admin shows the messages to its merchant. */
  private shopLocale(): Promise<string> {
    this.locale ??= this.work.db.shop
      .findUnique({ where: { shop: this.work.shop }, select: { primaryLocale: true } })
      .then((row) => row?.primaryLocale ?? DEFAULT_LOCALE);
    return this.locale;
  }
}

// The order page's server side: what its loader reads of one order and what its action does, as two
// functions route.tsx calls. They live apart from the route so the cards beside it can take their prop types
// from them (./view.ts) without importing the route that imports the cards.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { appContext } from "../../context.server";
import { message, type Message } from "../../i18n/message";
import { cancelAtWarehouse, correctOrder, submitNow } from "../../orders/actions.server";
import { orderDetail } from "../../orders/queries.server";
import { DELIVERY_METHOD_KEYS } from "../../orders/settings";
import { returnsOfOrder } from "../../returns/queries.server";
import { authenticate } from "../../shopify.server";
import { orderRequests, retryOrderAnswers } from "../../service/order-requests.server";
import { wakeWorker } from "../../work/worker.server";
import { FIXES, overridesFrom, type Fix } from "./fixes";

const timelineCursorSchema = z.string().regex(/^[a-z0-9]{1,64}$/);

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value, null, 2);

/** What the page shows of one order, or `order: null` when the shop has no such order. */
export async function orderPageData({ request, params }: LoaderFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  // A cursor that is not an event id shows the newest page, as if none was given.
  const before = timelineCursorSchema.safeParse(new URL(request.url).searchParams.get("before"));
  const order = await orderDetail(
    db,
    session.shop,
    params.id ?? "",
    before.success ? { eventsBefore: before.data } : {},
  );
  if (!order) return { order: null, deliveryMethods: DELIVERY_METHOD_KEYS };
  // Moments travel as instants; the page says them in the admin's language and the shop's time zone.
  const time = (date: Date | null) => (date ? date.toISOString() : null);
  const returns = await returnsOfOrder(db, session.shop, order.id);
  const serviceRequests = await orderRequests(db, session.shop, order.shopifyOrderId);
  return {
    order: {
      id: order.id,
      orderName: order.orderName,
      shopifyOrderId: order.shopifyOrderId,
      idOrder: order.idOrder,
      idOrderFF: order.idOrderFF,
      keyOrder: order.keyOrder,
      state: order.state,
      waitReason: order.waitReason,
      warehouseLineCount: order.warehouseLineCount,
      pending: order.pending,
      attention: order.attention,
      attentionTexts: order.attentionTexts,
      lastError: order.lastError,
      attempts: order.attempts,
      nextAttemptAt: time(order.nextAttemptAt),
      placedAt: time(order.orderCreatedAt),
      acceptedAt: time(order.acceptedAt),
      dataErasedAt: time(order.dataErasedAt),
      holdReasons: order.holdReasons,
      overrides: order.overrides,
      shipment: {
        ...order.shipment,
        stageAt: time(order.shipment.stageAt),
        statusCheckedAt: time(order.shipment.statusCheckedAt),
      },
      fulfillment: {
        made: order.fulfillment.made,
        ttn: order.fulfillment.ttn,
        event: order.fulfillment.event,
        due: order.fulfillment.due,
        waitingForLocation: order.fulfillment.waitingForLocation,
        problem: order.fulfillment.problem?.text ?? null,
        unshipped: order.fulfillment.unshipped,
      },
      mappedJson: json(order.mapped),
      sentOrderJson: json(order.sentOrder),
      events: order.events.map((event) => ({
        id: event.id,
        at: time(event.at),
        kind: event.kind,
        texts: event.texts,
        dataJson: json(event.data),
        // The data of a call to the warehouse holds the request sent (and the answer, when one came).
        exchange: typeof event.data === "object" && event.data !== null && "request" in event.data,
      })),
      olderEvents: order.olderEvents,
      olderPage: before.success,
      returns: returns.map((booked) => ({ ...booked, returnedAt: time(booked.returnedAt) })),
      serviceRequests,
    },
    deliveryMethods: DELIVERY_METHOD_KEYS,
  };
}

const intentSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("submit") }),
    z.object({ intent: z.literal("retry") }),
    z.object({ intent: z.literal("cancel") }),
    z.object({ intent: z.literal("retryServiceAnswer") }),
    z.object({ intent: z.literal("correct"), fix: z.enum(FIXES) }),
  ],
  { error: "orders:answer.unknownAction" },
);

/** Carries out one of the page's actions and says the answer, in the admin's language, by key. */
export async function orderPageAnswer({ request, params }: ActionFunctionArgs) {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const parsed = intentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, text: message("orders:answer.notUnderstood"), fix: null };
  const deps = { ...appContext(), wake: wakeWorker };
  const orderId = params.id ?? "";
  // The page says the answer in the admin's language: its key and values go back, not its English.
  const said = ({ ok, text }: { ok: boolean; text: Message }, fix: Fix | null) => ({ ok, text, fix });
  switch (parsed.data.intent) {
    case "submit":
    case "retry":
      return said(await submitNow(deps, session.shop, orderId), null);
    case "cancel":
      return said(await cancelAtWarehouse(deps, session.shop, orderId), null);
    case "retryServiceAnswer": {
      const row = await deps.db.warehouseOrder.findFirst({
        where: { id: orderId, shop: session.shop },
        select: { shopifyOrderId: true },
      });
      if (!row) return { ok: false, text: message("orders:answer.notUnderstood"), fix: null };
      return said(await retryOrderAnswers(deps, session.shop, row.shopifyOrderId), null);
    }
    case "correct": {
      const { fix } = parsed.data;
      return said(await correctOrder(deps, session.shop, orderId, overridesFrom(fix, form)), fix);
    }
  }
}

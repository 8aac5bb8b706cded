// One order: where it stands and why, what held it with a form for each fix, the actions on it, where it is
// once the warehouse has it (stage, waybill, statuses, the Shopify fulfillment), the exact body the
// warehouse has, and its timeline with the requests sent and the answers read. The loader and the action
// are here; each card is a file beside this one (only route.tsx is a route in a flat-routes folder).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { OrderStateBadge } from "../../components/order-state";
import { appContext } from "../../context.server";
import { message, translate, type Message } from "../../i18n/message";
import { cancelAtWarehouse, correctOrder, submitNow } from "../../orders/actions.server";
import { orderDetail } from "../../orders/queries.server";
import { DELIVERY_METHOD_KEYS } from "../../orders/settings";
import { type OrderState } from "../../orders/states";
import { returnsOfOrder } from "../../returns/queries.server";
import { authenticate } from "../../shopify.server";
import { OrderRequests } from "../../service/order-requests";
import { orderRequests, retryOrderAnswers } from "../../service/order-requests.server";
import { wakeWorker } from "../../work/worker.server";
import { AttentionBanner } from "./attention-banner";
import { FIXES, overridesFrom, type Fix } from "./fixes";
import { HoldReasonsCard } from "./hold-reasons-card";
import { useWhen } from "./moments";
import { ReferenceNumbersCard } from "./reference-numbers-card";
import { ReturnsCard } from "./returns-card";
import { SentCard } from "./sent-card";
import { ShipmentCard } from "./shipment-card";
import { StandingCard } from "./standing-card";
import { TimelineCard } from "./timeline-card";

const timelineCursorSchema = z.string().regex(/^[a-z0-9]{1,64}$/);

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value, null, 2);

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
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
};

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

export const action = async ({ request, params }: ActionFunctionArgs) => {
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
};

const SENDABLE: OrderState[] = ["ready", "rejected", "in_doubt"];

export default function OrderPage() {
  const { order, deliveryMethods } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const { t } = useTranslation("orders");
  const when = useWhen();

  if (!order) {
    return (
      <Page title={t("detail.notFoundTitle")} backAction={{ content: t("detail.back"), url: "/app/orders" }}>
        <Card>
          <Text as="p">{t("detail.notFoundBody")}</Text>
        </Card>
      </Page>
    );
  }

  const busy = navigation.state !== "idle";
  const run = (intent: "submit" | "retry" | "cancel") => submit({ intent }, { method: "post" });
  const canCancel = order.state !== "cancelled" && order.pending !== "cancel";
  // An edit or cancellation that ran out of retries is sent again from here too, and an order whose
  // fulfillment orders failed to apply is tried again.
  const sendAction =
    SENDABLE.includes(order.state) ||
    (order.attention === "retries_exhausted" && order.pending) ||
    order.attention === "routing_failed"
      ? {
          content: order.state === "ready" ? t("detail.submitNow") : t("detail.retry"),
          onAction: () => run(order.state === "ready" ? "submit" : "retry"),
          loading: busy && navigation.formData?.get("intent") !== "cancel",
          disabled: busy,
        }
      : undefined;
  // A failed fix shows its error under the reason that needs it (HoldReasonsCard), not in a banner.
  const fixes = new Set(order.holdReasons.map((reason) => reason.action));

  return (
    <Page
      title={order.orderName}
      titleMetadata={<OrderStateBadge state={order.state} />}
      subtitle={
        order.placedAt
          ? t("detail.subtitlePlaced", { idOrder: order.idOrder, placedAt: when(order.placedAt) })
          : t("detail.subtitle", { idOrder: order.idOrder })
      }
      backAction={{ content: t("detail.back"), url: "/app/orders" }}
      primaryAction={sendAction}
      secondaryActions={[
        // The shopify: protocol is App Bridge's: the admin opens its own page for the order.
        { content: t("detail.openInShopify"), url: `shopify://admin/orders/${order.shopifyOrderId}` },
        ...(canCancel
          ? [
              {
                content: t("detail.cancelAtWarehouse"),
                destructive: true,
                disabled: busy,
                onAction: () => setConfirmingCancel(true),
              },
            ]
          : []),
      ]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {order.dataErasedAt && (
              <Banner tone="info" title={t("detail.dataErasedTitle")}>
                <p>{t("detail.dataErased", { at: when(order.dataErasedAt) })}</p>
              </Banner>
            )}
            {result && !(result.fix && !result.ok && fixes.has(result.fix)) && (
              <Banner tone={result.ok ? "success" : "warning"}>
                <p>{translate(t, result.text)}</p>
              </Banner>
            )}
            {confirmingCancel && canCancel && (
              <Banner tone="critical" title={t("detail.confirmCancelTitle", { order: order.orderName })}>
                <BlockStack gap="200">
                  <p>
                    {order.state === "accepted" || order.state === "in_doubt" || order.state === "submitting"
                      ? t("detail.confirmCancelSent")
                      : t("detail.confirmCancelUnsent")}
                  </p>
                  <InlineStack gap="200">
                    <Button
                      variant="primary"
                      tone="critical"
                      loading={busy}
                      onClick={() => {
                        setConfirmingCancel(false);
                        run("cancel");
                      }}
                    >
                      {t("detail.confirmCancel")}
                    </Button>
                    <Button onClick={() => setConfirmingCancel(false)}>{t("detail.keepOrder")}</Button>
                  </InlineStack>
                </BlockStack>
              </Banner>
            )}
            <StandingCard order={order} />
            {order.attention && <AttentionBanner attention={order.attention} texts={order.attentionTexts} />}
            <OrderRequests
              requests={order.serviceRequests}
              busy={busy && navigation.formData?.get("intent") === "retryServiceAnswer"}
              onRetry={() => submit({ intent: "retryServiceAnswer" }, { method: "post" })}
            />
            {(order.state === "accepted" || order.shipment.stage) && (
              <ShipmentCard shipment={order.shipment} fulfillment={order.fulfillment} />
            )}
            {order.returns.length > 0 && <ReturnsCard idOrder={order.idOrder} returns={order.returns} />}
            {order.holdReasons.length > 0 && (
              <HoldReasonsCard order={order} deliveryMethods={deliveryMethods} result={result} busy={busy} />
            )}
            <SentCard order={order} />
            <TimelineCard order={order} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <ReferenceNumbersCard order={order} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

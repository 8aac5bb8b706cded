// One order: where it stands and why, what held it with a form for each fix, the actions on it, where it is
// once the warehouse has it (stage, waybill, statuses, the Shopify fulfillment), the exact body the
// warehouse has, and its timeline with the requests sent and the answers read. The loader and the action
// call data.server.ts; each card is a file beside this one (only route.tsx is a route in a flat-routes folder).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../../components/message-text";
import { OrderStateBadge } from "../../components/order-state";
import { type OrderState } from "../../orders/states";
import { OrderRequests } from "../../service/order-requests";
import { AttentionBanner } from "./attention-banner";
import { orderPageAnswer, orderPageData } from "./data.server";
import { HoldReasonsCard } from "./hold-reasons-card";
import { useWhen } from "./moments";
import { ReferenceNumbersCard } from "./reference-numbers-card";
import { ReturnsCard } from "./returns-card";
import { SentCard } from "./sent-card";
import { ShipmentCard } from "./shipment-card";
import { StandingCard } from "./standing-card";
import { TimelineCard } from "./timeline-card";

export const loader = (args: LoaderFunctionArgs) => orderPageData(args);

export const action = (args: ActionFunctionArgs) => orderPageAnswer(args);

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
                <p>
                  <MessageText text={result.text} />
                </p>
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

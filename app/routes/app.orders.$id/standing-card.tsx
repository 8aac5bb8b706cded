// The order page's first card: where the order stands and why (its state, what it waits for, a change still
// to send, the last error), in the merchant's words.
import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { OrderStateBadge } from "../../components/order-state";
import { useWhen } from "./moments";
import type { OrderView } from "./view";

/** Where the order stands and why. */
export function StandingCard({ order }: { order: OrderView }) {
  const { t } = useTranslation("orders");
  const when = useWhen();
  return (
    <Card>
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("detail.whereItStands")}
          </Text>
          <OrderStateBadge state={order.state} />
        </InlineStack>
        <Text as="p">{t(`stateDescription.${order.state}`)}</Text>
        {order.state === "waiting" && order.waitReason && (
          <Text as="p" tone="caution">
            {t(`waitReason.${order.waitReason}`)}
          </Text>
        )}
        {order.warehouseLineCount !== null && order.state !== "elsewhere" && (
          <Text as="p" tone="subdued">
            {t("detail.warehouseLines", { count: order.warehouseLineCount })}
          </Text>
        )}
        {order.pending && (
          <Text as="p" tone="caution">
            {order.pending === "cancel" ? t("detail.pendingCancel") : t("detail.pendingEdit")}
          </Text>
        )}
        {order.lastError && order.state !== "accepted" && (
          <Text as="p" tone="critical">
            {order.state === "rejected"
              ? // The warehouse's own words, as it wrote them.
                `${t("warehouseSays", { ns: "common" })} ${order.lastError}`
              : order.state === "ready" && order.nextAttemptAt
                ? t("detail.lastAttemptNext", {
                    error: order.lastError,
                    next: when(order.nextAttemptAt),
                  })
                : t("detail.lastAttempt", { error: order.lastError })}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}

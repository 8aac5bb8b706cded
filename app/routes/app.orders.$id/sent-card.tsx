// The order page's card of the exact body the warehouse has, and the one that would be sent now when it
// differs.
import { Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { JsonBlock } from "./json-block";
import type { OrderView } from "./view";
import { TitledCard } from "../../components/titled-card";

/** What the warehouse has of the order, and what would be sent. */
export function SentCard({ order }: { order: OrderView }) {
  const { t } = useTranslation("orders");
  return (
    <TitledCard title={t("detail.sentHeading")} gap="200">
      {order.sentOrderJson ? (
        <>
          <Text as="p" tone="subdued">
            {t("detail.sentIntro")}
          </Text>
          <JsonBlock label={t("detail.orderSent")} json={order.sentOrderJson} />
        </>
      ) : (
        <Text as="p" tone="subdued">
          {order.dataErasedAt ? t("detail.sentErased") : t("detail.nothingAccepted")}
        </Text>
      )}
      {/* Nothing is to be sent while Shopify has not given the warehouse its lines. */}
      {order.mappedJson &&
        order.mappedJson !== order.sentOrderJson &&
        order.state !== "waiting" &&
        order.state !== "elsewhere" && (
          <>
            <Text as="p" tone="subdued">
              {order.sentOrderJson ? t("detail.differs") : t("detail.willBeSent")}
            </Text>
            <JsonBlock label={t("detail.orderToSend")} json={order.mappedJson} />
          </>
        )}
    </TitledCard>
  );
}

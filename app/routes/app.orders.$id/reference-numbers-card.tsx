// The order page's side card: the numbers the order is known by at the warehouse and in Shopify.
import {} from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { Fact } from "./fact";
import { useWhen } from "./moments";
import type { OrderView } from "./view";
import { TitledCard } from "../../components/titled-card";

/** The order's reference numbers, and when the warehouse accepted it. */
export function ReferenceNumbersCard({ order }: { order: OrderView }) {
  const { t } = useTranslation("orders");
  const when = useWhen();
  return (
    <TitledCard title={t("detail.referenceNumbers")} gap="200">
      {[
        { term: t("detail.idOrder"), description: order.idOrder },
        { term: t("detail.idOrderFF"), description: order.idOrderFF ?? t("detail.notYetAssigned") },
        { term: t("detail.keyOrder"), description: order.keyOrder ?? t("detail.notYetAssigned") },
        { term: t("detail.accepted"), description: when(order.acceptedAt) ?? t("detail.notYet") },
        { term: t("detail.shopifyOrderId"), description: order.shopifyOrderId },
      ].map(({ term, description }) => (
        <Fact term={term} key={term}>
          {description}
        </Fact>
      ))}
    </TitledCard>
  );
}

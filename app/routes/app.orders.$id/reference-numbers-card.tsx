// The order page's side card: the numbers the order is known by at the warehouse and in Shopify.
import { BlockStack, Card, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { Fact } from "./fact";
import { useWhen } from "./moments";
import type { OrderView } from "./view";

/** The order's reference numbers, and when the warehouse accepted it. */
export function ReferenceNumbersCard({ order }: { order: OrderView }) {
  const { t } = useTranslation("orders");
  const when = useWhen();
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("detail.referenceNumbers")}
        </Text>
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
      </BlockStack>
    </Card>
  );
}

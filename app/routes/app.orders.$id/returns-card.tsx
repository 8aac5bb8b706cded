// The order page's returns card: what the warehouse's returns register holds for the order.
import { Badge, BlockStack, Card, InlineStack, Link, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useFormat } from "../../i18n/react";

/** What the warehouse's returns register holds for the order, briefly; the Returns page has the rest. */
export function ReturnsCard({
  idOrder,
  returns,
}: {
  idOrder: string;
  returns: {
    id: string;
    returnedAt: string | null;
    ttn: string | null;
    lines: { sku: string; count: number; defective: boolean }[];
    unreadable: boolean;
  }[];
}) {
  const { t } = useTranslation("orders");
  const format = useFormat();
  return (
    <Card>
      <BlockStack gap="200">
        <InlineStack align="space-between">
          <Text as="h2" variant="headingMd">
            {t("detail.returnsHeading")}
          </Text>
          <Link url={`/app/returns?search=${encodeURIComponent(idOrder)}`}>{t("detail.returnsAll")}</Link>
        </InlineStack>
        <Text as="p" tone="subdued">
          {t("detail.returnsIntro")}
        </Text>
        {returns.map((booked) => (
          <BlockStack gap="100" key={booked.id}>
            <InlineStack gap="200">
              {booked.returnedAt && (
                <Text as="span" fontWeight="semibold">
                  {t("detail.returnWhen", { at: format.date(booked.returnedAt) })}
                </Text>
              )}
              {booked.ttn && <Text as="span">{t("detail.returnWaybill", { ttn: booked.ttn })}</Text>}
            </InlineStack>
            {booked.unreadable ? (
              <Text as="p" tone="critical">
                {t("detail.returnUnreadable")}
              </Text>
            ) : (
              <InlineStack gap="200">
                {booked.lines.slice(0, 20).map((line, index) => (
                  <InlineStack gap="100" key={`${line.sku}-${index}`}>
                    <Text as="span">
                      {t("detail.returnLine", { sku: line.sku, count: format.number(line.count) })}
                    </Text>
                    {line.defective && <Badge tone="critical">{t("detail.returnDefective")}</Badge>}
                  </InlineStack>
                ))}
              </InlineStack>
            )}
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}

// Settings' carrier reference card: the cities and branches stored for the shop's key, when they were last
// read, their last problem, and a refresh on request.
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import { useFormat } from "../i18n/react";
import type { ReferenceCard } from "../reference/store.server";

/** The carrier reference data (cities and branches) of the shop's key: counts, last refresh, problem, refresh. */
export function CarrierReference({
  reference,
  refreshing,
  onRefresh,
}: {
  reference: ReferenceCard;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation("settings");
  const format = useFormat();
  return (
    <Layout.AnnotatedSection title={t("reference.title")} description={t("reference.description")}>
      <Card>
        <BlockStack gap="300">
          {!reference.hasKey ? (
            <Text as="p">{t("reference.noKey")}</Text>
          ) : reference.refreshedAt ? (
            <BlockStack gap="100">
              <Text as="p">
                {t("reference.counts", {
                  cities: format.number(reference.cityCount),
                  branches: format.number(reference.branchCount),
                })}
              </Text>
              <Text as="p" tone="subdued">
                {t("reference.refreshedAt", { at: format.dateTime(reference.refreshedAt) })}
              </Text>
              {reference.undescribedCities > 0 && (
                <Text as="p" tone="subdued">
                  {t("reference.describing", { cities: format.number(reference.undescribedCities) })}
                </Text>
              )}
            </BlockStack>
          ) : (
            <Text as="p">{t("reference.none")}</Text>
          )}
          {reference.lastError && (
            <Banner tone="warning" title={t("reference.problem")}>
              <p>
                <MessageText text={reference.lastError} />
              </p>
            </Banner>
          )}
          {reference.hasKey && (
            <InlineStack>
              <Button onClick={onRefresh} loading={refreshing}>
                {t("reference.refresh")}
              </Button>
            </InlineStack>
          )}
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

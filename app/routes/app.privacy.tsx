// The compliance requests Shopify sent for this store, and for a data request the report to hand over.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, EmptyState, IndexTable, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { appContext } from "../context.server";
import { useFormat } from "../i18n/react";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const requests = await appContext().db.complianceRequest.findMany({
    where: { shop: session.shop },
    orderBy: { receivedAt: "desc" },
    take: 100,
  });
  return {
    requests: requests.map((request) => ({
      id: request.id,
      topic: request.topic,
      customerId: request.customerId,
      receivedAt: request.receivedAt.toISOString(),
      completed: request.completedAt !== null,
      report: request.report,
    })),
  };
};

/**
 * Shopify's topic (COMPLIANCE_TOPICS, a server module the page cannot import) as the merchant reads it; a
 * topic we do not know is shown as Shopify names it.
 */
const TOPIC_KEYS = {
  "customers/data_request": "topic.dataRequest",
  "customers/redact": "topic.customerRedact",
  "shop/redact": "topic.shopRedact",
} as const;

export default function PrivacyRequests() {
  const { requests } = useLoaderData<typeof loader>();
  const { t } = useTranslation("privacy");
  const format = useFormat();
  const topic = (name: string) =>
    name in TOPIC_KEYS ? t(TOPIC_KEYS[name as keyof typeof TOPIC_KEYS]) : name;
  return (
    <Page title={t("title")} subtitle={t("subtitle")}>
      <BlockStack gap="400">
        <Card padding="0">
          {requests.length === 0 ? (
            <EmptyState heading={t("empty.heading")} image="">
              <p>{t("empty.body")}</p>
            </EmptyState>
          ) : (
            <IndexTable
              itemCount={requests.length}
              selectable={false}
              resourceName={{ singular: t("resource.singular"), plural: t("resource.plural") }}
              headings={[
                { title: t("headings.received") },
                { title: t("headings.request") },
                { title: t("headings.customer") },
                { title: t("headings.status") },
              ]}
            >
              {requests.map((request, index) => (
                <IndexTable.Row id={request.id} key={request.id} position={index}>
                  <IndexTable.Cell>{format.dateTime(request.receivedAt)}</IndexTable.Cell>
                  <IndexTable.Cell>{topic(request.topic)}</IndexTable.Cell>
                  <IndexTable.Cell>{request.customerId ?? t("noCustomer")}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={request.completed ? "success" : "attention"}>
                      {request.completed ? t("status.done") : t("status.inProgress")}
                    </Badge>
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
        {requests
          .filter((request) => request.report)
          .map((request) => (
            <Card key={request.id}>
              <BlockStack gap="200">
                <Text as="h3" variant="headingSm">
                  {t("report.heading", { customer: request.customerId ?? t("noCustomer") })}
                </Text>
                <Text as="p" tone="subdued">
                  {t("report.note")}
                </Text>
                <pre style={{ whiteSpace: "pre-wrap", margin: 0 }}>
                  {JSON.stringify(JSON.parse(request.report ?? "{}"), null, 2)}
                </pre>
              </BlockStack>
            </Card>
          ))}
      </BlockStack>
    </Page>
  );
}

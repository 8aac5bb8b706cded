// The compliance requests Shopify sent for this store, and for a data request the report to hand over.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, EmptyState, IndexTable, Page, Text } from "@shopify/polaris";
import { appContext } from "../context.server";
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

export default function PrivacyRequests() {
  const { requests } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Privacy requests"
      subtitle="Data requests and erasures Shopify sent on behalf of your customers"
    >
      <BlockStack gap="400">
        <Card padding="0">
          {requests.length === 0 ? (
            <EmptyState heading="No privacy requests yet" image="">
              <p>
                When a customer asks for their data or its erasure, the request and its outcome appear here.
              </p>
            </EmptyState>
          ) : (
            <IndexTable
              itemCount={requests.length}
              selectable={false}
              headings={[
                { title: "Received" },
                { title: "Request" },
                { title: "Customer" },
                { title: "Status" },
              ]}
            >
              {requests.map((request, index) => (
                <IndexTable.Row id={request.id} key={request.id} position={index}>
                  <IndexTable.Cell>{new Date(request.receivedAt).toLocaleString()}</IndexTable.Cell>
                  <IndexTable.Cell>{request.topic}</IndexTable.Cell>
                  <IndexTable.Cell>{request.customerId ?? "—"}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={request.completed ? "success" : "attention"}>
                      {request.completed ? "Done" : "In progress"}
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
                  Data report for customer {request.customerId}
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

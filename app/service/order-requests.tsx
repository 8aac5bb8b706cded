// The order page's card of Shopify's requests in fulfillment-service mode (order-requests.server.ts): what
// was asked and answered, what waits and why, and a problem the retries could not get past, with "Try again".
import { Banner, BlockStack, Button, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { OrderRequest } from "./order-requests.server";
import { TitledCard } from "../components/titled-card";

type AnswerKey = "accept" | "reject" | "accept_cancellation" | "reject_cancellation";
const ANSWERS = new Set<string>(["accept", "reject", "accept_cancellation", "reject_cancellation"]);

export function OrderRequests({
  requests,
  onRetry,
  busy,
}: {
  requests: OrderRequest[];
  onRetry: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation("statuses");
  if (requests.length === 0) return null;
  const problem = requests.find((request) => request.standing === "problem");
  return (
    <TitledCard title={t("serviceRequest.title")}>
      {requests.map((request) => (
        <Text as="p" key={request.fulfillmentOrderId}>
          {request.standing === "waiting"
            ? request.request === "cancellation"
              ? t("serviceRequest.waitingCancellation")
              : t("serviceRequest.waitingFulfillment")
            : request.answered && ANSWERS.has(request.answered)
              ? t(`serviceRequest.answered.${request.answered as AnswerKey}`)
              : null}
        </Text>
      ))}
      {problem && (
        <Banner tone="critical" title={t("serviceRequest.problemTitle")}>
          <BlockStack gap="200">
            <p>{problem.problem}</p>
            <p>{t("serviceRequest.problemHelp")}</p>
            <div>
              <Button onClick={onRetry} loading={busy}>
                {t("serviceRequest.retry")}
              </Button>
            </div>
          </BlockStack>
        </Banner>
      )}
    </TitledCard>
  );
}

// The compliance requests Shopify sent for this store, and for a data request the report to hand over; and
// how long a finished order keeps its customer's details (app/compliance/retention.server.ts), which the
// merchant may change here.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  EmptyState,
  FormLayout,
  IndexTable,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { PERSONAL_DATA_DAYS, personalDataDays, savePersonalDataDays } from "../compliance/retention.server";
import { useTexts } from "../components/use-texts";
import { appContext } from "../context.server";
import { message, type Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { authenticate } from "../shopify.server";
import { wakeWorker } from "../work/worker.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  const requests = await db.complianceRequest.findMany({
    where: { shop: session.shop },
    orderBy: { receivedAt: "desc" },
    take: 100,
  });
  return {
    retentionDays: await personalDataDays(db, session.shop),
    retentionLimits: PERSONAL_DATA_DAYS,
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

/** The form's body, as the page posts it; the service checks the numbers. */
const actionSchema = z.object({ days: z.string().max(20), shownDays: z.string().max(20) });

type ActionAnswer = { ok: true; days: number } | { ok: false; error: Message };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const parsed = actionSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) return { ok: false, error: message("privacy:retention.error.form") };
  const saved = await savePersonalDataDays(appContext(), session.shop, parsed.data);
  if (saved.ok) wakeWorker(session.shop);
  return saved;
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
  const { requests, retentionDays } = useLoaderData<typeof loader>();
  const { t } = useTranslation("privacy");
  const format = useFormat();
  const topic = (name: string) =>
    name in TOPIC_KEYS ? t(TOPIC_KEYS[name as keyof typeof TOPIC_KEYS]) : name;
  return (
    <Page title={t("title")} subtitle={t("subtitle")}>
      <BlockStack gap="400">
        <Retention days={retentionDays} />
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

/** How long a finished order keeps its customer's details, and the form to change it. */
function Retention({ days }: { days: number }) {
  const { retentionLimits } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const submit = useSubmit();
  const { t } = useTranslation("privacy");
  const say = useTexts();
  const [chosen, setChosen] = useState(String(days));
  return (
    <Card>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit({ days: chosen, shownDays: String(days) }, { method: "post", encType: "application/json" });
        }}
      >
        <FormLayout>
          <Text as="h2" variant="headingMd">
            {t("retention.heading")}
          </Text>
          <Text as="p">{t("retention.body", { count: days })}</Text>
          <Text as="p" tone="subdued">
            {t("retention.kept")}
          </Text>
          {answer?.ok && <Banner tone="success">{t("retention.saved", { count: answer.days })}</Banner>}
          <TextField
            label={t("retention.label")}
            type="number"
            min={retentionLimits.min}
            max={retentionLimits.max}
            autoComplete="off"
            value={chosen}
            onChange={setChosen}
            helpText={t("retention.help", retentionLimits)}
            error={answer && !answer.ok ? say(answer.error) : undefined}
          />
          <Button submit loading={busy}>
            {t("retention.save")}
          </Button>
        </FormLayout>
      </form>
    </Card>
  );
}

// The home page once setup is done: the warehouse connection's health, the orders by state and stage with
// links to the list, what needs the merchant, the last stock and catalogue syncs, and the last 30 days.
import { Link as RemixLink, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Card,
  InlineGrid,
  InlineStack,
  Layout,
  List,
  Page,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import type { Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { ORDER_STATES, STAGES } from "../orders/states";
import { OrdersChart } from "./chart";
import type { DashboardData } from "./queries.server";
import { TitledCard } from "../components/titled-card";

export function Dashboard({ data, finished }: { data: DashboardData; finished: boolean }) {
  const { t } = useTranslation("dashboard");
  const submit = useSubmit();
  const reopen = () => submit({ intent: "reopen" }, { method: "post", encType: "application/json" });
  return (
    <Page title={t("title")} secondaryActions={[{ content: t("openSetup"), onAction: reopen }]}>
      <BlockStack gap="400">
        {!finished && (
          <Banner
            tone="info"
            title={t("postponed.title")}
            action={{ content: t("postponed.action"), onAction: reopen }}
          >
            <p>{t("postponed.body")}</p>
          </Banner>
        )}
        <Layout>
          <Layout.Section variant="oneHalf">
            <ConnectionCard connection={data.connection} />
          </Layout.Section>
          <Layout.Section variant="oneHalf">
            <AttentionCard data={data} />
          </Layout.Section>
          <Layout.Section>
            <OrdersCard data={data} />
          </Layout.Section>
          <Layout.Section>
            <TitledCard title={t("chart.title")}>
              <OrdersChart days={data.chart} />
            </TitledCard>
          </Layout.Section>
          <Layout.Section variant="oneHalf">
            <StockCard stock={data.stock} />
          </Layout.Section>
          <Layout.Section variant="oneHalf">
            <CatalogueCard catalogue={data.catalogue} />
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

function ConnectionCard({ connection }: { connection: DashboardData["connection"] }) {
  const { t } = useTranslation("dashboard");
  const format = useFormat();
  const status = !connection.hasKey ? "noKey" : connection.pausedAt ? "paused" : "connected";
  const tone = status === "connected" ? "success" : "critical";
  const limit = connection.rateLimit;
  return (
    <Card>
      <section aria-labelledby="dashboard-connection">
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd" id="dashboard-connection">
              {t("connection.title")}
            </Text>
            <Badge tone={tone}>{t(`connection.${status}`)}</Badge>
          </InlineStack>
          {connection.pausedAt && (
            <Banner tone="critical" action={{ content: t("connection.openSettings"), url: "/app/settings" }}>
              <p>{t("connection.pausedBody", { at: format.dateTime(connection.pausedAt) })}</p>
            </Banner>
          )}
          {!connection.hasKey && <Text as="p">{t("connection.noKeyBody")}</Text>}
          <InlineGrid columns={2} gap="200">
            <Text as="span" tone="subdued">
              {t("connection.environment")}
            </Text>
            <Text as="span">
              {connection.environment === "staging" ? t("connection.staging") : t("connection.production")}
            </Text>
            <Text as="span" tone="subdued">
              {t("connection.lastSuccess")}
            </Text>
            <Text as="span">
              {connection.lastSuccessAt ? format.dateTime(connection.lastSuccessAt) : t("connection.never")}
            </Text>
            <Text as="span" tone="subdued">
              {t("connection.rateLimit")}
            </Text>
            <Text as="span">
              {limit && limit.used > 0
                ? t("connection.rateLimitValue", {
                    used: format.number(limit.used),
                    limit: format.number(limit.limit),
                    share: format.percent(limit.used / limit.limit),
                  })
                : t("connection.rateLimitIdle")}
            </Text>
          </InlineGrid>
          {limit && limit.used > 0 && (
            <ProgressBar
              progress={Math.min(100, (limit.used / limit.limit) * 100)}
              size="small"
              tone={limit.used / limit.limit > 0.8 ? "critical" : "primary"}
            />
          )}
          {limit?.blockedUntil && (
            <Text as="p" tone="critical">
              {t("connection.blockedUntil", { at: format.dateTime(limit.blockedUntil) })}
            </Text>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}

function AttentionCard({ data }: { data: DashboardData }) {
  const { t } = useTranslation("dashboard");
  const items: { key: string; text: string; to: string }[] = [];
  const add = (count: number, key: string, to: string) => {
    if (count > 0) items.push({ key, text: t(`attention.${key}` as "attention.held", { count }), to });
  };
  add(data.states.held, "held", "/app/orders?state=held");
  add(data.states.attention, "flagged", "/app/orders?state=attention");
  add(data.states.rejected, "rejected", "/app/orders?state=rejected");
  add(data.attention.catalogueProblems, "catalogue", "/app/catalogue");
  add(data.attention.refusedWebhooks, "webhooks", "/app/orders");
  return (
    <Card>
      <section aria-labelledby="dashboard-attention">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd" id="dashboard-attention">
            {t("attention.title")}
          </Text>
          {items.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("attention.nothing")}
            </Text>
          ) : (
            <List>
              {items.map((item) => (
                <List.Item key={item.key}>
                  <RemixLink to={item.to}>{item.text}</RemixLink>
                </List.Item>
              ))}
            </List>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}

function OrdersCard({ data }: { data: DashboardData }) {
  const { t } = useTranslation("dashboard");
  // The states' and stages' names as the orders pages say them, so a link lands on a list named alike.
  const names = useTranslation("orders").t;
  const format = useFormat();
  return (
    <Card>
      <section aria-labelledby="dashboard-orders">
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd" id="dashboard-orders">
              {t("orders.title")}
            </Text>
            <RemixLink to="/app/orders">{t("orders.all", { count: data.states.all })}</RemixLink>
          </InlineStack>
          <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                {t("orders.byState")}
              </Text>
              <List>
                {ORDER_STATES.map((state) => (
                  <List.Item key={state}>
                    <RemixLink to={`/app/orders?state=${state}`}>
                      {t("orders.named", {
                        name: names(`state.${state}`),
                        value: format.number(data.states[state]),
                      })}
                    </RemixLink>
                  </List.Item>
                ))}
              </List>
            </BlockStack>
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                {t("orders.byStage")}
              </Text>
              <List>
                {STAGES.map((stage) => (
                  <List.Item key={stage}>
                    <RemixLink to={`/app/orders?stage=${stage}`}>
                      {t("orders.named", {
                        name: names(`stage.${stage}`),
                        value: format.number(data.stages[stage]),
                      })}
                    </RemixLink>
                  </List.Item>
                ))}
              </List>
            </BlockStack>
          </InlineGrid>
        </BlockStack>
      </section>
    </Card>
  );
}

function Errors({ errors }: { errors: Message[] }) {
  const { t } = useTranslation("dashboard");
  if (errors.length === 0) return null;
  return (
    <BlockStack gap="100">
      <Text as="p" tone="critical">
        {t("errors")}
      </Text>
      <List>
        {errors.map((error, index) => (
          <List.Item key={index}>
            <MessageText text={error} />
          </List.Item>
        ))}
      </List>
    </BlockStack>
  );
}

function StockCard({ stock }: { stock: DashboardData["stock"] }) {
  const { t } = useTranslation("dashboard");
  const format = useFormat();
  return (
    <Card>
      <section aria-labelledby="dashboard-stock">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd" id="dashboard-stock">
            {t("stock.title")}
          </Text>
          {stock ? (
            <BlockStack gap="200">
              <Text as="p">{t("stock.last", { at: format.dateTime(stock.startedAt) })}</Text>
              {stock.finishedAt ? (
                <Text as="p">
                  {t("stock.result", { count: stock.changed, problems: format.number(stock.problems) })}
                </Text>
              ) : (
                <Text as="p">{t("stock.running")}</Text>
              )}
              <Errors errors={stock.errors} />
            </BlockStack>
          ) : (
            <Text as="p" tone="subdued">
              {t("stock.none")}
            </Text>
          )}
          <RemixLink to="/app/stock">{t("stock.open")}</RemixLink>
        </BlockStack>
      </section>
    </Card>
  );
}

function CatalogueCard({ catalogue }: { catalogue: DashboardData["catalogue"] }) {
  const { t } = useTranslation("dashboard");
  const tOnboarding = useTranslation("onboarding").t;
  const format = useFormat();
  return (
    <Card>
      <section aria-labelledby="dashboard-catalogue">
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd" id="dashboard-catalogue">
            {t("catalogue.title")}
          </Text>
          {catalogue ? (
            <BlockStack gap="200">
              <Text as="p">
                {t("catalogue.last", {
                  at: format.dateTime(catalogue.startedAt),
                  phase: tOnboarding(`catalogue.phase.${catalogue.phase}`, { defaultValue: catalogue.phase }),
                })}
              </Text>
              <Errors errors={catalogue.errors} />
            </BlockStack>
          ) : (
            <Text as="p" tone="subdued">
              {t("catalogue.none")}
            </Text>
          )}
          <RemixLink to="/app/catalogue">{t("catalogue.open")}</RemixLink>
        </BlockStack>
      </section>
    </Card>
  );
}

// A SKU's page, under Stock (`/app/stock/sku?sku=…&from=…&to=…`): its card (the Shopify variants with
// the SKU, the warehouse's figures as last reported) and its goods movements over a period of Kyiv dates,
// asked of the warehouse now (ReportMoveProduct): a table with each movement's document, quantity in or
// out and the balance after it, a small chart of the balance, and the period as CSV. A period that is not
// one is refused beside its field; a warehouse that cannot answer is said, and the card is shown anyway.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  FormLayout,
  InlineStack,
  Link,
  List,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useDownload } from "../components/download";
import { MessageText } from "../components/message-text";
import { useTexts } from "../components/use-texts";
import { appContext } from "../context.server";
import { message, type Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { authenticate } from "../shopify.server";
import { BalanceChart } from "../stock/balance-chart";
import { MAX_PERIOD_DAYS, readPeriod, shownLines, readSkuQuery, type MovementLine } from "../stock/movements";
import { skuCard, skuMovements } from "../stock/movements.server";
import { OpenSku, skuCsvPath, skuPath } from "../stock/sku-link";
import { TitledCard } from "../components/titled-card";

/** A moment as the table shows it: Kyiv's wall clock "14.03.2026 10:15", or the warehouse's own text. */
function momentText(line: Pick<MovementLine, "moment" | "period">): string {
  const kyiv = line.moment.kyiv;
  if (!kyiv) return line.period;
  const [date = "", time = ""] = kyiv.split(" ");
  const [year, month, day] = date.split("-");
  return `${day}.${month}.${year} ${time.slice(0, 5)}`;
}

type PeriodErrors = Partial<Record<"from" | "to", Message>>;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const deps = appContext();
  const query = readSkuQuery(new URL(request.url).searchParams);
  if (!query.success) return { sku: null, problem: message("stock:sku.noSku") } as const;
  const { sku } = query.data;
  const asked = readPeriod(query.data, deps.clock());
  const card = await skuCard(deps.db, session.shop, sku);
  if (!asked.ok) {
    // Refused before the warehouse is asked: each problem beside its field.
    const errors: PeriodErrors = {};
    for (const problem of asked.problems) {
      errors[problem.field] ??=
        problem.key === "sku.period.tooLong"
          ? message(`stock:${problem.key}`, { max: problem.max })
          : message(`stock:${problem.key}`);
    }
    return { sku, card, period: asked.period, errors, movements: null } as const;
  }
  const movements = await skuMovements(deps, session.shop, sku, asked.period);
  if (!movements.ok) {
    return { sku, card, period: asked.period, errors: {} as PeriodErrors, movements } as const;
  }
  const { report } = movements;
  const { shown, hidden } = shownLines(report.lines);
  return {
    sku,
    card,
    period: asked.period,
    errors: {} as PeriodErrors,
    movements: {
      ok: true as const,
      total: report.lines.length,
      hidden,
      openingBalance: report.openingBalance,
      closingBalance: report.closingBalance,
      totalIn: report.totalIn,
      totalOut: report.totalOut,
      lines: shown.map((line) => ({
        when: momentText(line),
        document: line.document,
        received: line.received,
        issued: line.issued,
        balance: line.balance,
      })),
    },
  } as const;
};

export default function SkuView() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("stock");
  if (data.sku === null) {
    return (
      <Page title={t("sku.titleNone")} backAction={{ content: t("title"), url: "/app/stock" }}>
        <BlockStack gap="400">
          <Banner tone="warning">
            <MessageText text={data.problem} />
          </Banner>
          <OpenSku />
        </BlockStack>
      </Page>
    );
  }
  return <SkuPage key={data.sku} />;
}

function SkuPage() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("stock");
  const format = useFormat();
  const say = useTexts();
  const navigate = useNavigate();
  const loading = useNavigation().state === "loading";
  const csv = useDownload();
  const period = data.sku === null ? { from: "", to: "" } : data.period;
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  // The page read again for another period shows that period in the form.
  useEffect(() => {
    setFrom(period.from);
    setTo(period.to);
  }, [period.from, period.to]);
  if (data.sku === null) return null;
  const { sku, card, errors, movements } = data;

  const show = (event?: FormEvent) => {
    event?.preventDefault();
    navigate(skuPath(sku, { from, to }));
  };

  return (
    <Page
      title={t("sku.title", { sku })}
      subtitle={card.name ?? undefined}
      backAction={{ content: t("title"), url: "/app/stock" }}
    >
      <BlockStack gap="400">
        <TitledCard title={t("sku.card.title")} gap="200">
          {card.variants.length === 0 ? (
            <Text as="p" tone="subdued">
              {t("sku.card.notInCatalogue")}
            </Text>
          ) : (
            <List>
              {card.variants.map((variant, index) => (
                <List.Item key={index}>
                  {variant.adminUrl ? (
                    <Link url={variant.adminUrl}>{variant.name}</Link>
                  ) : (
                    t("sku.card.deleted", { name: variant.name })
                  )}
                </List.Item>
              ))}
            </List>
          )}
          <Text as="p">
            {card.warehouse
              ? t("sku.card.figures", {
                  quantity: card.warehouse.quantity === null ? "—" : format.number(card.warehouse.quantity),
                  available:
                    card.warehouse.available === null ? "—" : format.number(card.warehouse.available),
                  at: format.dateTime(card.warehouse.reportedAt),
                })
              : t("sku.card.noFigures")}
          </Text>
        </TitledCard>

        <Card>
          <form onSubmit={show}>
            <FormLayout>
              <Text as="h2" variant="headingMd">
                {t("sku.period.title")}
              </Text>
              <FormLayout.Group condensed>
                <TextField
                  label={t("sku.period.from")}
                  type="date"
                  autoComplete="off"
                  value={from}
                  onChange={setFrom}
                  error={errors.from && say(errors.from)}
                />
                <TextField
                  label={t("sku.period.to")}
                  type="date"
                  autoComplete="off"
                  value={to}
                  onChange={setTo}
                  error={errors.to && say(errors.to)}
                />
              </FormLayout.Group>
              <Text as="p" tone="subdued">
                {t("sku.period.help", { max: MAX_PERIOD_DAYS })}
              </Text>
              <InlineStack gap="200">
                <Button submit variant="primary" loading={loading}>
                  {t("sku.period.show")}
                </Button>
              </InlineStack>
            </FormLayout>
          </form>
        </Card>

        {movements && !movements.ok && (
          <Banner tone="warning" title={t("sku.unavailable")}>
            <p>
              <MessageText text={movements.problem} />
            </p>
          </Banner>
        )}

        {movements?.ok && (
          <Card>
            <BlockStack gap="300">
              <InlineStack align="space-between">
                <Text as="h2" variant="headingMd">
                  {t("sku.movements.title")}
                </Text>
                {movements.total > 0 && (
                  <Button
                    onClick={() =>
                      csv.download(skuCsvPath(sku, period), `movements-${period.from}-${period.to}.csv`)
                    }
                  >
                    {t("sku.movements.export")}
                  </Button>
                )}
              </InlineStack>
              {csv.failed && <Banner tone="warning">{t("sku.movements.exportFailed")}</Banner>}
              {movements.total === 0 ? (
                <Text as="p" tone="subdued">
                  {t("sku.movements.none", {
                    from: format.date(`${period.from}T12:00:00Z`),
                    to: format.date(`${period.to}T12:00:00Z`),
                  })}
                </Text>
              ) : (
                <>
                  <Text as="p">
                    {t("sku.movements.summary", {
                      count: movements.total,
                      opening: format.number(movements.openingBalance ?? 0),
                      closing: format.number(movements.closingBalance ?? 0),
                      in: format.number(movements.totalIn),
                      out: format.number(movements.totalOut),
                    })}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t("sku.movements.openingHow")}
                  </Text>
                  {movements.hidden > 0 && (
                    <Banner tone="info">
                      {t("sku.movements.cut", {
                        shown: format.number(movements.lines.length),
                        total: format.number(movements.total),
                      })}
                    </Banner>
                  )}
                  <BalanceChart
                    sku={sku}
                    points={movements.lines.map((line) => ({ label: line.when, balance: line.balance }))}
                  />
                  <DataTable
                    columnContentTypes={["text", "text", "numeric", "numeric", "numeric"]}
                    headings={[
                      t("sku.movements.when"),
                      t("sku.movements.document"),
                      t("sku.movements.in"),
                      t("sku.movements.out"),
                      t("sku.movements.balance"),
                    ]}
                    rows={movements.lines.map((line) => [
                      line.when,
                      line.document,
                      line.received ? format.number(line.received) : "",
                      line.issued ? format.number(line.issued) : "",
                      format.number(line.balance),
                    ])}
                  />
                </>
              )}
            </BlockStack>
          </Card>
        )}
        <OpenSku />
      </BlockStack>
    </Page>
  );
}

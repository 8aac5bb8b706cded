// Returns: the warehouse's returns register as the sweep keeps it (app/returns/), newest first, with the order
// each names (its page here, and in Shopify), what came back and whether it was defective, and whether its
// units were handed to the stock sync. Filters and the search live in the URL; records the warehouse wrote
// in a form we cannot read are listed with why and their raw JSON. CSV export with the same filters.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useLoaderData, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Card,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Select,
  Text,
} from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useDownload } from "../components/download";
import { ListSearch, usePagination, useQueryChange } from "../components/list-query";
import { MessageText } from "../components/message-text";
import { useTexts } from "../components/use-texts";
import { appContext } from "../context.server";
import { useFormat } from "../i18n/react";
import { saleableUnits } from "../returns/read";
import { listReturns, returnsOverview, returnsQueryOf } from "../returns/queries.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  const query = returnsQueryOf(new URL(request.url));
  const [list, overview] = await Promise.all([
    listReturns(db, session.shop, query),
    returnsOverview(db, session.shop),
  ]);
  const time = (date: Date | null) => date?.toISOString() ?? null;
  return {
    filter: {
      defective: query.defective ?? "",
      linked: query.linked ?? "",
      readable: query.readable ?? "",
      search: query.search ?? "",
    },
    page: {
      page: list.page,
      pageCount: list.pageCount,
      total: list.total,
      hasPrevious: list.hasPrevious,
      hasNext: list.hasNext,
    },
    rows: list.rows.map((row) => ({
      ...row,
      returnedAt: time(row.returnedAt),
      firstSeenAt: row.firstSeenAt.toISOString(),
      restockRequestedAt: time(row.restockRequestedAt),
      saleable: saleableUnits(row.lines),
    })),
    overview: {
      ...overview,
      lastSweptAt: time(overview.lastSweptAt),
      nextSweepAt: time(overview.nextSweepAt),
      // The register's Kyiv dates as moments, for the page to write in the admin's way.
      skippedPages: overview.skippedPages.map((entry) => ({
        ...entry,
        from: isoDay(entry.from),
        to: isoDay(entry.to),
      })),
    },
  };
};

/** "20261127" → the middle of that day, which names the same day in any shop's time zone. */
const isoDay = (compact: string) =>
  `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}T12:00:00Z`;

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = Data["rows"][number];

export default function Returns() {
  const { filter, page, rows, overview } = useLoaderData<typeof loader>();
  const { t } = useTranslation("returns");
  const format = useFormat();
  const [searchParams] = useSearchParams();
  const filtered = Boolean(filter.defective || filter.linked || filter.readable || filter.search);

  const go = useQueryChange();
  const pagination = usePagination(
    page,
    t("list.pagination", {
      page: format.number(page.page),
      pageCount: format.number(page.pageCount),
      count: page.total,
    }),
  );
  const csv = useDownload();
  const choice = (name: "defective" | "linked" | "readable") => (
    <Select
      label={t(`filter.${name}.label`)}
      labelInline
      options={[
        { label: t("filter.any"), value: "" },
        { label: t(`filter.${name}.yes`), value: "yes" },
        { label: t(`filter.${name}.no`), value: "no" },
      ]}
      value={filter[name]}
      onChange={(value) => go({ [name]: value || null, page: null })}
    />
  );
  const csvQuery = (() => {
    const query = new URLSearchParams(searchParams);
    query.delete("page");
    const text = query.toString();
    return text ? `?${text}` : "";
  })();

  return (
    <Page
      title={t("title")}
      subtitle={t("subtitle")}
      fullWidth
      secondaryActions={[
        {
          content: t("export"),
          onAction: () => csv.download(`/app/returns.csv${csvQuery}`, "returns.csv"),
        },
      ]}
    >
      <BlockStack gap="400">
        {csv.failed && <Banner tone="warning">{t("exportFailed")}</Banner>}
        <SweepState overview={overview} />
        <RestockState overview={overview} />
        <Card padding="0">
          <Box padding="300">
            <BlockStack gap="300">
              <ListSearch
                value={filter.search}
                label={t("search.label")}
                placeholder={t("search.placeholder")}
                submitLabel={t("search.submit")}
                keep={{ defective: filter.defective, linked: filter.linked, readable: filter.readable }}
              />
              <InlineStack gap="400">
                {choice("defective")}
                {choice("linked")}
                {choice("readable")}
              </InlineStack>
            </BlockStack>
          </Box>
          <IndexTable
            resourceName={{ singular: t("list.return"), plural: t("list.returns") }}
            itemCount={rows.length}
            selectable={false}
            headings={[
              { title: t("list.heading.date") },
              { title: t("list.heading.order") },
              { title: t("list.heading.waybill") },
              { title: t("list.heading.lines") },
              { title: t("list.heading.units"), alignment: "end" },
              { title: t("list.heading.defective") },
              { title: t("list.heading.restock") },
            ]}
            emptyState={
              <Box padding="600">
                <Text as="p" alignment="center" tone="subdued">
                  {filtered ? t("list.emptyFiltered") : t("list.empty")}
                </Text>
              </Box>
            }
            pagination={pagination}
          >
            {rows.map((row, index) => (
              <ReturnRow key={row.id} row={row} index={index} overview={overview} />
            ))}
          </IndexTable>
        </Card>
      </BlockStack>
    </Page>
  );
}

function ReturnRow({ row, index, overview }: { row: Row; index: number; overview: Data["overview"] }) {
  const { t } = useTranslation("returns");
  const format = useFormat();
  const say = useTexts();
  return (
    <IndexTable.Row id={row.id} position={index}>
      <IndexTable.Cell>
        <span data-return-id={row.id}>{row.returnedAt ? format.date(row.returnedAt) : t("list.noDate")}</span>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {row.orderId && row.orderName ? (
          <InlineStack gap="200" wrap={false}>
            <RemixLink to={`/app/orders/${row.orderId}`}>{row.orderName}</RemixLink>
            {row.shopifyOrderId && (
              // The shopify: protocol is App Bridge's: the admin opens its own page for the order.
              <Link url={`shopify://admin/orders/${row.shopifyOrderId}`} target="_top">
                {t("list.inShopify")}
              </Link>
            )}
          </InlineStack>
        ) : (
          <Text as="span" tone="subdued">
            {row.idOrder ? t("list.notOurs", { idOrder: row.idOrder }) : t("list.noOrder")}
          </Text>
        )}
      </IndexTable.Cell>
      <IndexTable.Cell>{row.ttn ?? "—"}</IndexTable.Cell>
      <IndexTable.Cell>
        {row.problems.length > 0 ? (
          <BlockStack gap="100">
            <Text as="p" tone="critical">
              {t("list.unreadable", { problems: say(row.problems) })}
            </Text>
            {row.raw && (
              <details>
                <summary>{t("list.raw")}</summary>
                {/* Shown as text, never as markup: React escapes it; the sweep bounded its length. */}
                <pre style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", maxWidth: "40rem" }}>
                  {row.raw}
                </pre>
              </details>
            )}
          </BlockStack>
        ) : (
          <BlockStack gap="050">
            {row.lines.slice(0, 20).map((line, at) => (
              <Text as="span" key={`${line.sku}-${at}`}>
                {line.defective
                  ? t("list.lineDefective", { sku: line.sku, count: format.number(line.count) })
                  : t("list.line", { sku: line.sku, count: format.number(line.count) })}
              </Text>
            ))}
            {row.lines.length > 20 && (
              <Text as="span" tone="subdued">
                {t("list.moreLines", { count: row.lines.length - 20 })}
              </Text>
            )}
          </BlockStack>
        )}
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Text as="span" alignment="end" numeric>
          {format.number(row.units)}
        </Text>
      </IndexTable.Cell>
      <IndexTable.Cell>
        {row.defective ? (
          <Badge tone="critical">{t("list.defective")}</Badge>
        ) : (
          <Badge>{t("list.fit")}</Badge>
        )}
      </IndexTable.Cell>
      <IndexTable.Cell>
        <RestockCell row={row} overview={overview} />
      </IndexTable.Cell>
    </IndexTable.Row>
  );
}

/** Whether the return's units fit for sale were handed to the stock sync, or why not. */
function RestockCell({ row, overview }: { row: Row; overview: Data["overview"] }) {
  const { t } = useTranslation("returns");
  const format = useFormat();
  if (row.problems.length > 0) return <Text as="span">{t("restock.unreadable")}</Text>;
  if (row.saleable === 0) return <Text as="span">{t("restock.nothing")}</Text>;
  if (row.restockRequestedAt)
    return (
      <InlineStack gap="100">
        <Text as="span">{t("restock.handed", { at: format.dateTime(row.restockRequestedAt) })}</Text>
        <RemixLink to="/app/stock">{t("restock.stockPage")}</RemixLink>
      </InlineStack>
    );
  if (!overview.restockReturns) return <Text as="span">{t("restock.off")}</Text>;
  if (!overview.hasLocation) return <Text as="span">{t("restock.noLocation")}</Text>;
  return <Text as="span">{t("restock.before")}</Text>;
}

/** When the register was last swept and next, and what the last sweep could not do. */
function SweepState({ overview }: { overview: Data["overview"] }) {
  const { t } = useTranslation("returns");
  const format = useFormat();
  const when = (at: string | null) => (at ? format.dateTime(at) : null);
  const last = when(overview.lastSweptAt);
  const next = when(overview.nextSweepAt);
  return (
    <BlockStack gap="200">
      {overview.sweepProblem && (
        <Banner tone="warning" title={t("sweep.problemTitle")}>
          <p>
            <MessageText text={overview.sweepProblem} /> {t("sweep.problem")}
          </p>
        </Banner>
      )}
      {overview.skippedPages.length > 0 && (
        <Banner tone="warning" title={t("sweep.skippedTitle")}>
          <BlockStack gap="100">
            <p>{t("sweep.skippedBody")}</p>
            {overview.skippedPages.map((entry) => {
              const values = {
                page: format.number(entry.page),
                from: format.date(entry.from),
                to: format.date(entry.to),
                tries: format.number(entry.tries),
              };
              return (
                <p key={`${entry.from}-${entry.to}-${entry.page}`} data-skipped-page={entry.page}>
                  {entry.givenUp || !entry.nextTryAt
                    ? t("sweep.skippedGivenUp", values)
                    : t("sweep.skippedPage", { ...values, next: format.dateTime(entry.nextTryAt) })}{" "}
                  <MessageText text={entry.error} />
                </p>
              );
            })}
          </BlockStack>
        </Banner>
      )}
      {overview.empty && (
        <Banner tone="info" title={t("sweep.emptyTitle")}>
          <p>{last ? t("sweep.emptySwept", { at: last }) : t("sweep.emptyNever")}</p>
        </Banner>
      )}
      <Text as="p" tone="subdued">
        {last && next
          ? t("sweep.lastAndNext", { last, next })
          : next
            ? t("sweep.onlyNext", { next })
            : last
              ? t("sweep.onlyLast", { last })
              : t("sweep.noSchedule")}
      </Text>
    </BlockStack>
  );
}

/** What the restock setting does now, with where to change it. */
function RestockState({ overview }: { overview: Data["overview"] }) {
  const { t } = useTranslation("returns");
  if (overview.restockReturns && !overview.hasLocation)
    return (
      <Banner tone="warning" title={t("restock.noLocationTitle")}>
        <p>{t("restock.noLocationBody")}</p>
        <RemixLink to="/app/settings/statuses">{t("restock.chooseLocation")}</RemixLink>
      </Banner>
    );
  return (
    <Text as="p" tone="subdued">
      {overview.restockReturns ? t("restock.onSummary") : t("restock.offSummary")}{" "}
      <RemixLink to="/app/stock">{t("restock.settingsLink")}</RemixLink>
    </Text>
  );
}

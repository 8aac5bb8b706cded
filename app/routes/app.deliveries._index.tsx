// Inbound deliveries: every delivery request of the shop, newest first, filtered by status and searched by
// waybill, request number or SKU, a page at a time. Opening the list reads the warehouse's own list (at most
// once a minute per shop) so requests made elsewhere, and answers that came late, show up; if the warehouse
// cannot be reached, what is stored is shown with a notice.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
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
import { DeliveryStatusBadge, useDeliveryDate, useMethodName } from "../components/delivery";
import { appContext } from "../context.server";
import { refreshDeliveryList } from "../deliveries/list.server";
import { DELIVERY_STATUSES } from "../deliveries/lines";
import { deliveryListQueryOf, listDeliveries } from "../deliveries/queries.server";
import { useFormat } from "../i18n/react";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const context = appContext();
  const query = deliveryListQueryOf(new URL(request.url));
  const refresh = await refreshDeliveryList(context, session.shop).catch((error: unknown) => {
    context.log.warn(
      { shop: session.shop, event: "deliveries.list_refresh_crashed", err: error },
      "list refresh",
    );
    return { asked: true as const, ok: false as const, problem: null };
  });
  const list = await listDeliveries(context.db, session.shop, query);
  return {
    filter: { status: query.status ?? null, search: query.search ?? "" },
    page: query.page,
    ...list,
    unreachable: refresh.asked && !refresh.ok,
    foundElsewhere: refresh.asked && refresh.ok ? refresh.found : 0,
  };
};

export default function Deliveries() {
  const { filter, page, rows, hasNext, unreachable, foundElsewhere } = useLoaderData<typeof loader>();
  const { t } = useTranslation("deliveries");
  const format = useFormat();
  const dateOf = useDeliveryDate();
  const methodName = useMethodName();

  const go = useQueryChange();
  const pagination = usePagination(
    { page, hasPrevious: page > 1, hasNext },
    t("list.page", { page: format.number(page) }),
  );
  const csv = useDownload();
  const statusOptions = [
    { label: t("list.anyStatus"), value: "" },
    ...DELIVERY_STATUSES.map((status) => ({ label: t(`status.${status}`), value: status })),
  ];
  const filtered = Boolean(filter.status || filter.search);

  return (
    <Page
      title={t("list.title")}
      subtitle={t("list.subtitle")}
      primaryAction={{ content: t("list.new"), url: "/app/deliveries/new" }}
      secondaryActions={[
        {
          content: t("list.export"),
          onAction: () => {
            // The list's filters, not its page: the file has every request they find.
            const query = new URLSearchParams();
            if (filter.status) query.set("status", filter.status);
            if (filter.search) query.set("search", filter.search);
            csv.download(`/app/deliveries.csv?${query}`, "deliveries.csv");
          },
        },
      ]}
      fullWidth
    >
      <BlockStack gap="400">
        {csv.failed && <Banner tone="warning">{t("list.exportFailed")}</Banner>}
        {unreachable && <Banner tone="warning">{t("list.unreachable")}</Banner>}
        {foundElsewhere > 0 && (
          <Banner tone="info">{t("list.foundElsewhere", { count: foundElsewhere })}</Banner>
        )}
        <Card padding="0">
          <Box padding="300">
            <InlineStack gap="300" wrap={false} blockAlign="start">
              <Box width="100%">
                <ListSearch
                  value={filter.search}
                  label={t("list.searchLabel")}
                  placeholder={t("list.searchPlaceholder")}
                  submitLabel={t("list.search")}
                  keep={{ status: filter.status }}
                />
              </Box>
              <Select
                label={t("list.statusLabel")}
                labelInline
                options={statusOptions}
                value={filter.status ?? ""}
                onChange={(status) => go({ status: status || null, page: null })}
              />
            </InlineStack>
          </Box>
          <IndexTable
            resourceName={{ singular: t("list.heading.request"), plural: t("list.title") }}
            itemCount={rows.length}
            selectable={false}
            headings={[
              { title: t("list.heading.request") },
              { title: t("list.heading.date") },
              { title: t("list.heading.method") },
              { title: t("list.heading.seats"), alignment: "end" },
              { title: t("list.heading.ttn") },
              { title: t("list.heading.lines"), alignment: "end" },
              { title: t("list.heading.units"), alignment: "end" },
              { title: t("list.heading.status") },
            ]}
            emptyState={
              <Box padding="600">
                <Text as="p" alignment="center" tone="subdued">
                  {filtered ? t("list.empty.filtered") : t("list.empty.none")}
                </Text>
              </Box>
            }
            pagination={pagination}
          >
            {rows.map((row, index) => (
              <IndexTable.Row id={row.id} key={row.id} position={index}>
                <IndexTable.Cell>
                  <Link url={`/app/deliveries/${row.id}`} removeUnderline monochrome dataPrimaryLink>
                    <Text as="span" variant="bodyMd" fontWeight="semibold">
                      {row.idRequest}
                    </Text>
                  </Link>
                </IndexTable.Cell>
                <IndexTable.Cell>{dateOf(row.deliveryDate)}</IndexTable.Cell>
                <IndexTable.Cell>{methodName(row.method)}</IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" alignment="end" numeric>
                    {format.number(row.seats)}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>{row.ttn ?? "—"}</IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" alignment="end" numeric>
                    {format.number(row.lines)}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Text as="span" alignment="end" numeric>
                    {t("list.unitsReceived", {
                      received: format.number(row.received),
                      planned: format.number(row.planned),
                    })}
                  </Text>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <DeliveryStatusBadge status={row.status} />
                </IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>
      </BlockStack>
    </Page>
  );
}

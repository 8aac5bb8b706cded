// Orders: every Shopify order on its way to the warehouse, by state and by stage at the warehouse,
// searchable, with a bulk retry. The state tab, the stage, the search and the page live in the URL, so any
// view of the list can be linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  useSearchParams,
  useSubmit,
} from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Select,
  Tabs,
  Text,
  TextField,
  useIndexResourceState,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { z } from "zod";
import { STAGE_LABEL, StageBadge } from "../components/order-stage";
import { ORDER_STATE_LABEL, OrderStateBadge } from "../components/order-state";
import { appContext } from "../context.server";
import { retryOrders } from "../orders/actions.server";
import {
  countOrdersByStage,
  countOrdersByState,
  formatShopTime,
  listOrders,
  batchesTurnedOff,
  orderListQuerySchema,
  shopTimeZone,
  type OrderFilter,
} from "../orders/queries.server";
import { ORDER_STATES, STAGES } from "../orders/states";
import { loadSettings } from "../settings/settings.server";
import { authenticate } from "../shopify.server";
import { recentOrderRefusals } from "../webhooks/receive.server";
import { wakeWorker } from "../work/worker.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db, clock } = appContext();
  const query = orderListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [list, counts, stageCounts, timeZone, settings, batchesOff, refused] = await Promise.all([
    listOrders(db, session.shop, query),
    countOrdersByState(db, session.shop),
    countOrdersByStage(db, session.shop),
    shopTimeZone(db, session.shop),
    loadSettings(db, session.shop),
    batchesTurnedOff(db, session.shop),
    recentOrderRefusals(db, session.shop, clock()),
  ]);
  return {
    filter: { state: query.state ?? null, stage: query.stage ?? null, search: query.search ?? "" },
    counts,
    stageCounts,
    page: {
      page: list.page,
      pageCount: list.pageCount,
      total: list.total,
      hasPrevious: list.hasPrevious,
      hasNext: list.hasNext,
    },
    rows: list.rows.map((row) => ({
      id: row.id,
      orderName: row.orderName,
      idOrder: row.idOrder,
      idOrderFF: row.idOrderFF,
      state: row.state,
      stage: row.shipment.stage,
      ttn: row.shipment.ttn,
      problem: problemOf(row),
      pending: row.pending,
      placedAt: formatShopTime(row.orderCreatedAt, timeZone),
      updatedAt: formatShopTime(row.updatedAt, timeZone),
    })),
    warehouse: { hasApiKey: settings.hasApiKey, paused: settings.pausedAt !== null, batchesOff },
    refused: refused && { count: refused.count, lastAt: formatShopTime(refused.lastAt, timeZone) },
  };
};

function problemOf(row: {
  holdReasons: { message: string }[];
  attentionMessage: string | null;
  lastError: string | null;
  state: string;
  fulfillment: { problem: { message: string } | null };
}): string | null {
  const [first, ...more] = row.holdReasons;
  if (row.state === "held" && first) {
    return more.length ? `${first.message} (and ${more.length} more)` : first.message;
  }
  if (row.attentionMessage) return row.attentionMessage;
  if (row.fulfillment.problem) return row.fulfillment.problem.message;
  if (row.state === "rejected" || row.state === "in_doubt" || row.state === "ready") return row.lastError;
  return null;
}

const bulkActionSchema = z.object({
  intent: z.literal("retry", { error: "Unknown action." }),
  ids: z
    .array(z.string().min(1).max(64))
    .min(1, "Select the orders to retry.")
    .max(250, "Retry at most 250 orders at once."),
});

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const parsed = bulkActionSchema.safeParse({ intent: form.get("intent"), ids: form.getAll("id") });
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? "The request was not understood." };
  }
  const { retried, skipped } = await retryOrders(
    { ...appContext(), wake: wakeWorker },
    session.shop,
    parsed.data.ids,
  );
  const sent = retried === 1 ? "1 order will be sent again" : `${retried} orders will be sent again`;
  const notSent =
    skipped === 0
      ? ""
      : ` ${skipped === 1 ? "1 order was left as it is" : `${skipped} orders were left as they are`}: held orders need ` +
        "their fix first, and orders the warehouse has or that are being sent have nothing to retry.";
  return { ok: retried > 0, message: `${sent}.${notSent}` };
};

type Filter = OrderFilter | null;
const TABS: { filter: Filter; label: string }[] = [
  { filter: null, label: "All" },
  { filter: "attention", label: "Needs attention" },
  ...ORDER_STATES.map((state) => ({ filter: state, label: ORDER_STATE_LABEL[state] })),
];
// Only orders the warehouse has reach a stage: choosing a stage on another tab (Held, Ready to send...)
// would always show nothing, so the stage and such a tab replace each other.
const TABS_WITH_STAGES: Filter[] = [null, "attention", "accepted"];

/** Why the list is empty, as one whole sentence for each case (each is translated whole). */
function emptyListMessage(search: string, filtered: boolean): string {
  if (search && filtered) return `No orders match “${search}” with the filters chosen.`;
  if (search) return `No orders match “${search}”.`;
  if (filtered) return "No orders match the filters chosen.";
  return "No orders to show.";
}

export default function Orders() {
  const { filter, counts, stageCounts, page, rows, warehouse, refused } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [search, setSearch] = useState(filter.search);
  useEffect(() => setSearch(filter.search), [filter.search]);

  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(rows);
  // A new page, tab or search shows other orders: a selection made on the old ones must not carry over.
  const rowIds = rows.map((row) => row.id).join(",");
  useEffect(() => clearSelection(), [rowIds, clearSelection]);

  const go = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setSearchParams(next);
  };

  const retrySelected = () => {
    const form = new FormData();
    form.set("intent", "retry");
    for (const id of selectedResources) form.append("id", id);
    submit(form, { method: "post" });
  };

  const tabs = TABS.map((tab) => ({
    id: `orders-${tab.filter ?? "all"}`,
    content: tab.label,
    badge: String(tab.filter ? counts[tab.filter] : counts.all),
  }));
  const selectedTab = Math.max(
    0,
    TABS.findIndex((tab) => tab.filter === filter.state),
  );
  const busy = navigation.state !== "idle";
  const stageOptions = [
    { label: "Any stage", value: "" },
    ...STAGES.map((stage) => ({ label: `${STAGE_LABEL[stage]} (${stageCounts[stage]})`, value: stage })),
  ];

  if (counts.all === 0) {
    return (
      <Page title="Orders">
        <BlockStack gap="400">
          <WarehouseBanner {...warehouse} />
          {refused && <RefusedWebhooksBanner {...refused} />}
          <Card>
            <EmptyState heading="No orders yet" image="">
              <p>
                Orders appear here as soon as customers place them in your store. Each one is checked and sent
                to the warehouse by itself; when something needs you (a phone number the carrier will not
                take, a missing branch), the order waits here with what to fix.
              </p>
            </EmptyState>
          </Card>
        </BlockStack>
      </Page>
    );
  }

  return (
    <Page title="Orders" subtitle="Shopify orders on their way to the warehouse" fullWidth>
      <BlockStack gap="400">
        <WarehouseBanner {...warehouse} />
        {refused && <RefusedWebhooksBanner {...refused} />}
        {result && (
          <Banner tone={result.ok ? "success" : "warning"} title={result.ok ? "Retry requested" : undefined}>
            <p>{result.message}</p>
          </Banner>
        )}
        <Card padding="0">
          <Tabs
            tabs={tabs}
            selected={selectedTab}
            onSelect={(index) => {
              const state = TABS[index]?.filter ?? null;
              go({ state, page: null, ...(!TABS_WITH_STAGES.includes(state) && { stage: null }) });
            }}
          />
          <Box padding="300">
            <InlineStack gap="300" wrap={false} blockAlign="start">
              <Box width="100%">
                <Form method="get" onSubmit={() => clearSelection()}>
                  {filter.state && <input type="hidden" name="state" value={filter.state} />}
                  {filter.stage && <input type="hidden" name="stage" value={filter.stage} />}
                  <TextField
                    label="Search orders"
                    labelHidden
                    name="search"
                    value={search}
                    onChange={setSearch}
                    placeholder="Search by order, id_order, warehouse number or waybill"
                    autoComplete="off"
                    clearButton
                    onClearButtonClick={() => go({ search: null, page: null })}
                    connectedRight={
                      <Button submit loading={busy && navigation.formMethod === "GET"}>
                        Search
                      </Button>
                    }
                  />
                </Form>
              </Box>
              <Select
                label="Stage"
                labelInline
                options={stageOptions}
                value={filter.stage ?? ""}
                onChange={(stage) =>
                  go({
                    stage: stage || null,
                    page: null,
                    ...(!TABS_WITH_STAGES.includes(filter.state) && { state: null }),
                  })
                }
              />
            </InlineStack>
          </Box>
          <IndexTable
            resourceName={{ singular: "order", plural: "orders" }}
            itemCount={rows.length}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[{ content: "Retry", onAction: retrySelected, disabled: busy }]}
            headings={[
              { title: "Order" },
              { title: "Status" },
              { title: "What is going on" },
              { title: "Waybill" },
              { title: "id_order" },
              { title: "Warehouse number" },
              { title: "Placed" },
              { title: "Updated" },
            ]}
            emptyState={
              <Box padding="600">
                <Text as="p" alignment="center" tone="subdued">
                  {emptyListMessage(filter.search, Boolean(filter.state || filter.stage))}
                </Text>
              </Box>
            }
            pagination={{
              hasPrevious: page.hasPrevious,
              hasNext: page.hasNext,
              onPrevious: () => go({ page: String(page.page - 1) }),
              onNext: () => go({ page: String(page.page + 1) }),
              label: `Page ${page.page} of ${page.pageCount} · ${page.total} orders`,
            }}
          >
            {rows.map((row, index) => (
              <IndexTable.Row
                id={row.id}
                key={row.id}
                position={index}
                selected={selectedResources.includes(row.id)}
              >
                <IndexTable.Cell>
                  <Link url={`/app/orders/${row.id}`} removeUnderline monochrome dataPrimaryLink>
                    <Text as="span" variant="bodyMd" fontWeight="semibold">
                      {row.orderName}
                    </Text>
                  </Link>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <InlineStack gap="100" wrap={false}>
                    <OrderStateBadge state={row.state} />
                    {row.stage && <StageBadge stage={row.stage} />}
                    {row.pending && <PendingChange pending={row.pending} />}
                  </InlineStack>
                </IndexTable.Cell>
                <IndexTable.Cell>
                  <Box maxWidth="28rem">
                    <Text as="span" tone={row.problem ? "critical" : "subdued"} truncate>
                      {row.problem ?? "—"}
                    </Text>
                  </Box>
                </IndexTable.Cell>
                <IndexTable.Cell>{row.ttn ?? "—"}</IndexTable.Cell>
                <IndexTable.Cell>{row.idOrder}</IndexTable.Cell>
                <IndexTable.Cell>{row.idOrderFF ?? "—"}</IndexTable.Cell>
                <IndexTable.Cell>{row.placedAt}</IndexTable.Cell>
                <IndexTable.Cell>{row.updatedAt}</IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>
      </BlockStack>
    </Page>
  );
}

function PendingChange({ pending }: { pending: string }) {
  return (
    <Text as="span" variant="bodySm" tone="subdued">
      {pending === "cancel" ? "cancellation pending" : "change pending"}
    </Text>
  );
}

/** Order webhooks Shopify sent that could not be read: those orders may be missing from the list. */
function RefusedWebhooksBanner({ count, lastAt }: { count: number; lastAt: string }) {
  return (
    <Banner tone="warning" title="Some orders may be missing">
      <p>
        {count === 1
          ? `Shopify sent an order notification on ${lastAt} that the app could not read, so that order may be missing here. Compare your latest orders in Shopify with this list, and tell support the time of the notification.`
          : `Shopify sent ${count} order notifications that the app could not read, the last on ${lastAt}, so those orders may be missing here. Compare your latest orders in Shopify with this list, and tell support the time of the last notification.`}
      </p>
    </Banner>
  );
}

function WarehouseBanner({
  hasApiKey,
  paused,
  batchesOff,
}: {
  hasApiKey: boolean;
  paused: boolean;
  batchesOff: boolean;
}) {
  if (paused) {
    return (
      <Banner
        tone="critical"
        title="Orders are not being sent"
        action={{ content: "Open settings", url: "/app/settings" }}
      >
        <p>The warehouse refused the ApiKey. Enter a new key in Settings; orders wait and nothing is lost.</p>
      </Banner>
    );
  }
  if (!hasApiKey) {
    return (
      <Banner
        tone="warning"
        title="Connect the warehouse"
        action={{ content: "Open settings", url: "/app/settings" }}
      >
        <p>
          Orders are kept here until you enter the warehouse ApiKey in Settings; then they go out by
          themselves.
        </p>
      </Banner>
    );
  }
  if (batchesOff) {
    return (
      <Banner tone="info" title="Orders go to the warehouse one at a time">
        <p>
          The warehouse did not answer a batch of orders as expected, so orders go one at a time. Nothing was
          sent twice: the orders of that batch were looked up at the warehouse.
        </p>
      </Banner>
    );
  }
  return null;
}

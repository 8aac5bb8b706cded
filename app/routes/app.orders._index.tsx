// Orders: every Shopify order on its way to the warehouse, by state and by stage at the warehouse,
// searchable, with a bulk retry. The state tab, the stage, the search and the page live in the URL, so any
// view of the list can be linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Box,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Select,
  Tabs,
  Text,
  useIndexResourceState,
} from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import { ListSearch, usePagination, useQueryChange } from "../components/list-query";
import { z } from "zod";
import { StageBadge } from "../components/order-stage";
import { OrderStateBadge } from "../components/order-state";
import { appContext } from "../context.server";
import { message, translate, type Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { retryOrders } from "../orders/actions.server";
import {
  countOrdersByStage,
  countOrdersByState,
  listOrders,
  batchesTurnedOff,
  orderListQuerySchema,
  type OrderFilter,
} from "../orders/queries.server";
import { ORDER_STATES, STAGES } from "../orders/states";
import { storedText } from "../orders/words";
import { loadSettings } from "../settings/settings.server";
import { authenticate } from "../shopify.server";
import { recentOrderRefusals } from "../webhooks/receive.server";
import { wakeWorker } from "../work/worker.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db, clock } = appContext();
  const query = orderListQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [list, counts, stageCounts, settings, batchesOff, refused] = await Promise.all([
    listOrders(db, session.shop, query),
    countOrdersByState(db, session.shop),
    countOrdersByStage(db, session.shop),
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
      placedAt: row.orderCreatedAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    })),
    warehouse: { hasApiKey: settings.hasApiKey, paused: settings.pausedAt !== null, batchesOff },
    refused: refused && { count: refused.count, lastAt: refused.lastAt.toISOString() },
  };
};

/** What the row says is going on: a text decided on the server, and how many more hold reasons follow it. */
interface Problem {
  text: Message;
  more: number;
}

function problemOf(row: {
  holdReasons: { message: string; text?: Message }[];
  attentionTexts: Message[];
  lastError: string | null;
  state: string;
  fulfillment: { problem: { text: Message } | null };
}): Problem | null {
  const [first, ...more] = row.holdReasons;
  if (row.state === "held" && first)
    return { text: first.text ?? storedText(first.message), more: more.length };
  const [attention, ...further] = row.attentionTexts;
  if (attention) return { text: attention, more: further.length };
  if (row.fulfillment.problem) return { text: row.fulfillment.problem.text, more: 0 };
  // The warehouse's (or the connection's) own words, as they came.
  const error =
    row.state === "rejected" || row.state === "in_doubt" || row.state === "ready" ? row.lastError : null;
  return error ? { text: storedText(error), more: 0 } : null;
}

const MAX_RETRY = 250;
const bulkActionSchema = z.object({
  intent: z.literal("retry", { error: "orders:answer.unknownAction" }),
  ids: z
    .array(z.string().min(1).max(64))
    .min(1, "orders:answer.selectOrders")
    .max(MAX_RETRY, "orders:answer.tooMany"),
});

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const parsed = bulkActionSchema.safeParse({ intent: form.get("intent"), ids: form.getAll("id") });
  if (!parsed.success) {
    const key = parsed.error.issues[0]?.message;
    const known = key?.startsWith("orders:answer.") ? key : "orders:answer.notUnderstood";
    return { ok: false, texts: [message(known, { max: MAX_RETRY })] };
  }
  const { retried, skipped } = await retryOrders(
    { ...appContext(), wake: wakeWorker },
    session.shop,
    parsed.data.ids,
  );
  const texts = [message("orders:answer.retried", { count: retried })];
  if (skipped > 0) texts.push(message("orders:answer.skipped", { count: skipped }));
  return { ok: retried > 0, texts };
};

type Filter = OrderFilter | null;
const TABS: Filter[] = [null, "attention", ...ORDER_STATES];
// Only orders the warehouse has reach a stage: choosing a stage on another tab (Held, Ready to send...)
// would always show nothing, so the stage and such a tab replace each other.
const TABS_WITH_STAGES: Filter[] = [null, "attention", "accepted"];

/** Why the list is empty, as one whole sentence for each case (each is translated whole). */
function emptyListKey(search: string, filtered: boolean) {
  if (search && filtered) return "list.empty.searchFiltered" as const;
  if (search) return "list.empty.search" as const;
  if (filtered) return "list.empty.filtered" as const;
  return "list.empty.none" as const;
}

export default function Orders() {
  const { filter, counts, stageCounts, page, rows, warehouse, refused } = useLoaderData<typeof loader>();
  const { t } = useTranslation("orders");
  const format = useFormat();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();

  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } =
    useIndexResourceState(rows);
  // A new page, tab or search shows other orders: a selection made on the old ones must not carry over.
  const rowIds = rows.map((row) => row.id).join(",");
  useEffect(() => clearSelection(), [rowIds, clearSelection]);

  const go = useQueryChange();
  const pagination = usePagination(
    page,
    t("list.pagination", {
      page: format.number(page.page),
      pageCount: format.number(page.pageCount),
      count: page.total,
    }),
  );

  const retrySelected = () => {
    const form = new FormData();
    form.set("intent", "retry");
    for (const id of selectedResources) form.append("id", id);
    submit(form, { method: "post" });
  };

  const tabLabel = (tab: Filter) =>
    tab === null ? t("list.tabAll") : tab === "attention" ? t("list.tabAttention") : t(`state.${tab}`);
  const tabs = TABS.map((tab) => ({
    id: `orders-${tab ?? "all"}`,
    content: tabLabel(tab),
    badge: format.number(tab ? counts[tab] : counts.all),
  }));
  const selectedTab = Math.max(
    0,
    TABS.findIndex((tab) => tab === filter.state),
  );
  const busy = navigation.state !== "idle";
  const stageOptions = [
    { label: t("list.anyStage"), value: "" },
    ...STAGES.map((stage) => ({
      label: t("list.stageOption", { stage: t(`stage.${stage}`), count: format.number(stageCounts[stage]) }),
      value: stage,
    })),
  ];
  const problemText = (problem: Problem) =>
    problem.more
      ? t("list.moreReasons", { reason: translate(t, problem.text), count: problem.more })
      : translate(t, problem.text);

  if (counts.all === 0) {
    return (
      <Page title={t("list.title")}>
        <BlockStack gap="400">
          <WarehouseBanner {...warehouse} />
          {refused && <RefusedWebhooksBanner {...refused} />}
          <Card>
            <EmptyState heading={t("list.emptyHeading")} image="">
              <p>{t("list.emptyBody")}</p>
            </EmptyState>
          </Card>
        </BlockStack>
      </Page>
    );
  }

  return (
    <Page title={t("list.title")} subtitle={t("list.subtitle")} fullWidth>
      <BlockStack gap="400">
        <WarehouseBanner {...warehouse} />
        {refused && <RefusedWebhooksBanner {...refused} />}
        {result && (
          <Banner
            tone={result.ok ? "success" : "warning"}
            title={result.ok ? t("list.retryRequested") : undefined}
          >
            <p>
              <MessageText text={result.texts} />
            </p>
          </Banner>
        )}
        <Card padding="0">
          <Tabs
            tabs={tabs}
            selected={selectedTab}
            onSelect={(index) => {
              const state = TABS[index] ?? null;
              go({ state, page: null, ...(!TABS_WITH_STAGES.includes(state) && { stage: null }) });
            }}
          />
          <Box padding="300">
            <InlineStack gap="300" wrap={false} blockAlign="start">
              <Box width="100%">
                <ListSearch
                  value={filter.search}
                  label={t("list.searchLabel")}
                  placeholder={t("list.searchPlaceholder")}
                  submitLabel={t("list.search")}
                  keep={{ state: filter.state, stage: filter.stage }}
                  onSubmit={clearSelection}
                />
              </Box>
              <Select
                label={t("list.stageLabel")}
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
            resourceName={{ singular: t("list.order"), plural: t("list.orders") }}
            itemCount={rows.length}
            selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
            onSelectionChange={handleSelectionChange}
            promotedBulkActions={[{ content: t("list.retry"), onAction: retrySelected, disabled: busy }]}
            headings={[
              { title: t("list.heading.order") },
              { title: t("list.heading.status") },
              { title: t("list.heading.problem") },
              { title: t("list.heading.waybill") },
              { title: t("list.heading.idOrder") },
              { title: t("list.heading.idOrderFF") },
              { title: t("list.heading.placed") },
              { title: t("list.heading.updated") },
            ]}
            emptyState={
              <Box padding="600">
                <Text as="p" alignment="center" tone="subdued">
                  {t(emptyListKey(filter.search, Boolean(filter.state || filter.stage)), {
                    search: filter.search,
                  })}
                </Text>
              </Box>
            }
            pagination={pagination}
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
                      {row.problem ? problemText(row.problem) : "—"}
                    </Text>
                  </Box>
                </IndexTable.Cell>
                <IndexTable.Cell>{row.ttn ?? "—"}</IndexTable.Cell>
                <IndexTable.Cell>{row.idOrder}</IndexTable.Cell>
                <IndexTable.Cell>{row.idOrderFF ?? "—"}</IndexTable.Cell>
                <IndexTable.Cell>{format.dateTime(row.placedAt)}</IndexTable.Cell>
                <IndexTable.Cell>{format.dateTime(row.updatedAt)}</IndexTable.Cell>
              </IndexTable.Row>
            ))}
          </IndexTable>
        </Card>
      </BlockStack>
    </Page>
  );
}

function PendingChange({ pending }: { pending: string }) {
  const { t } = useTranslation("orders");
  return (
    <Text as="span" variant="bodySm" tone="subdued">
      {pending === "cancel" ? t("pending.cancel") : t("pending.edit")}
    </Text>
  );
}

/** Order webhooks Shopify sent that could not be read: those orders may be missing from the list. */
function RefusedWebhooksBanner({ count, lastAt }: { count: number; lastAt: string }) {
  const { t } = useTranslation("orders");
  const format = useFormat();
  return (
    <Banner tone="warning" title={t("list.refusedTitle")}>
      <p>{t("list.refused", { count, lastAt: format.dateTime(lastAt) })}</p>
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
  const { t } = useTranslation("orders");
  if (paused) {
    return (
      <Banner
        tone="critical"
        title={t("list.pausedTitle")}
        action={{ content: t("list.openSettings"), url: "/app/settings" }}
      >
        <p>{t("list.pausedBody")}</p>
      </Banner>
    );
  }
  if (!hasApiKey) {
    return (
      <Banner
        tone="warning"
        title={t("list.noKeyTitle")}
        action={{ content: t("list.openSettings"), url: "/app/settings" }}
      >
        <p>{t("list.noKeyBody")}</p>
      </Banner>
    );
  }
  if (batchesOff) {
    return (
      <Banner tone="info" title={t("list.batchesOffTitle")}>
        <p>{t("list.batchesOffBody")}</p>
      </Banner>
    );
  }
  return null;
}

// The Stock page: whether stock can run (a location chosen), the last sync and the history of syncs, the
// drift the newest sync found (SKUs on one side only, quantities that differed, shared or untracked SKUs),
// the catalogue's problems with a link to fix each in Shopify, "Sync now", and the stock settings.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  FormLayout,
  InlineStack,
  Layout,
  List,
  Page,
  RadioButton,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { z } from "zod";
import { CatalogueProblems } from "../components/catalogue-problems";
import { appContext } from "../context.server";
import { formatShopTime, shopTimeZone } from "../orders/queries.server";
import { authenticate } from "../shopify.server";
import { requestStockSync } from "../stock/kinds";
import { QUANTITY_NAME_CHOICES, QUANTITY_NAMES, type QuantityName } from "../stock/quantities";
import { stockOverview } from "../stock/queries.server";
import { loadStockSettings, saveStockSettings } from "../stock/settings.server";
import { wakeWorker } from "../work/worker.server";

const QUANTITY_LABELS: Record<QuantityName, string> = {
  available: "Free stock as available",
  on_hand: "Physical stock as on hand",
};

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  const [view, overview, timeZone] = await Promise.all([
    loadStockSettings(db, session.shop),
    stockOverview(db, session.shop),
    shopTimeZone(db, session.shop),
  ]);
  const time = (date: Date | null) => (date ? formatShopTime(date, timeZone) : null);
  return {
    view,
    syncs: overview.syncs.map((sync) => ({
      ...sync,
      startedAt: time(sync.startedAt)!,
      seconds: sync.finishedAt
        ? Math.round((sync.finishedAt.getTime() - sync.startedAt.getTime()) / 1000)
        : null,
      finishedAt: time(sync.finishedAt),
    })),
    drift: overview.drift,
    problems: overview.problems,
    nextSyncAt: time(overview.nextSyncAt),
  };
};

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("sync") }),
  z.object({ intent: z.literal("settings"), quantityName: z.string(), intervalMinutes: z.unknown() }),
]);

type ActionAnswer = { ok: true; message: string } | { ok: false; errors: Record<string, string> };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const parsed = actionSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    return { ok: false, errors: { form: "The form could not be read; reload the page and try again." } };
  }
  const context = { ...appContext(), wake: wakeWorker };
  if (parsed.data.intent === "sync") {
    await requestStockSync(context.db, session.shop, context.clock(), true);
    wakeWorker(session.shop);
    return { ok: true, message: "A stock sync was asked for; it starts within a minute." };
  }
  const { intent: _intent, ...input } = parsed.data;
  const saved = await saveStockSettings(context, session.shop, input);
  return saved.ok ? { ok: true, message: "Stock settings saved." } : { ok: false, errors: saved.errors };
};

/** Downloads the drift as CSV through fetch, which App Bridge authenticates (a plain link would not be). */
async function downloadDrift() {
  const response = await fetch("/app/stock/drift.csv");
  if (!response.ok) return;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = "stock-drift.csv";
  anchor.click();
  URL.revokeObjectURL(url);
}

export default function Stock() {
  const { view, syncs, drift, problems, nextSyncAt } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const busy = useNavigation().state === "submitting";
  const [quantityName, setQuantityName] = useState<QuantityName>(view.settings.quantityName);
  const [intervalMinutes, setIntervalMinutes] = useState(String(view.settings.intervalMinutes));
  const errors: Record<string, string> = answer && !answer.ok ? answer.errors : {};
  const last = syncs.find((sync) => sync.finishedAt);
  const post = (body: Record<string, string>) =>
    submit(body, { method: "post", encType: "application/json" });

  return (
    <Page
      title="Stock"
      subtitle={view.locationName ? `Written at ${view.locationName}` : undefined}
      primaryAction={{
        content: "Sync now",
        disabled: !view.locationId || busy,
        onAction: () => post({ intent: "sync" }),
      }}
    >
      <BlockStack gap="400">
        {answer?.ok && <Banner tone="success">{answer.message}</Banner>}
        {errors.form && <Banner tone="critical">{errors.form}</Banner>}
        {!view.locationId && (
          <Banner tone="warning" title="Choose the location that stands for the warehouse">
            <p>
              Stock is written at one Shopify location. Until you choose it in the status and fulfillment
              settings, nothing is synced.
            </p>
            <RemixLink to="/app/settings/statuses">Open the status and fulfillment settings</RemixLink>
          </Banner>
        )}
        {view.problem && (
          <Banner tone="warning" title="The saved stock settings no longer validate">
            <p>The defaults are used until you save these settings again. What was wrong: {view.problem}</p>
          </Banner>
        )}
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Last sync
                  </Text>
                  {last ? (
                    <Text as="p">
                      {`Finished ${last.finishedAt} in ${last.seconds} s: ${last.changed} of ${last.skus} SKUs changed.`}
                    </Text>
                  ) : (
                    <Text as="p" tone="subdued">
                      No stock sync has finished yet.
                    </Text>
                  )}
                  {last?.error && <Banner tone="warning">{last.error}</Banner>}
                  {nextSyncAt && <Text as="p" tone="subdued">{`Next sync: ${nextSyncAt}.`}</Text>}
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="300">
                  <InlineStack align="space-between">
                    <Text as="h2" variant="headingMd">
                      What does not match
                    </Text>
                    <Button onClick={() => void downloadDrift()}>Export CSV</Button>
                  </InlineStack>
                  <DriftList title="At the warehouse, not in Shopify" items={drift.missingInShopify} />
                  <DriftList
                    title="In Shopify, not at the warehouse"
                    items={drift.missingAtWarehouse.map(
                      (item) => `${item.sku} (${item.quantity} in Shopify)`,
                    )}
                  />
                  <DriftList
                    title="Quantities that differed and were corrected"
                    items={drift.written.map((item) => `${item.sku}: ${item.from} → ${item.to}`)}
                  />
                  <DriftList
                    title="SKUs several Shopify items share (not written)"
                    items={drift.sharedSkus.map((item) => item.sku)}
                  />
                  <DriftList
                    title="Items Shopify does not track (not written)"
                    items={drift.untracked.map((item) => item.sku)}
                  />
                  <DriftList
                    title="Items Shopify refused"
                    items={drift.failures.map((item) => `${item.sku}: ${item.message}`)}
                  />
                </BlockStack>
              </Card>
              <CatalogueProblems problems={problems} />
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    History
                  </Text>
                  {syncs.length === 0 ? (
                    <Text as="p" tone="subdued">
                      No syncs yet.
                    </Text>
                  ) : (
                    <DataTable
                      columnContentTypes={["text", "text", "numeric", "numeric", "numeric", "text"]}
                      headings={["Started", "Asked by", "SKUs", "Changed", "Calls", "Outcome"]}
                      rows={syncs.map((sync) => [
                        sync.startedAt,
                        sync.trigger === "manual" ? "You" : "Schedule",
                        sync.skus,
                        sync.changed,
                        sync.mutations,
                        sync.error ?? (sync.finishedAt ? "Done" : "Running"),
                      ])}
                    />
                  )}
                </BlockStack>
              </Card>
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <Card>
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  post({ intent: "settings", quantityName, intervalMinutes });
                }}
              >
                <FormLayout>
                  <Text as="h2" variant="headingMd">
                    Which stock Shopify shows
                  </Text>
                  {QUANTITY_NAMES.map((name) => (
                    <RadioButton
                      key={name}
                      id={`quantity-${name}`}
                      name="quantityName"
                      label={QUANTITY_LABELS[name]}
                      helpText={QUANTITY_NAME_CHOICES[name]}
                      checked={quantityName === name}
                      onChange={() => setQuantityName(name)}
                    />
                  ))}
                  {errors.quantityName && (
                    <Text as="p" tone="critical">
                      {errors.quantityName}
                    </Text>
                  )}
                  <TextField
                    label="Minutes between syncs"
                    type="number"
                    min={5}
                    max={1440}
                    autoComplete="off"
                    value={intervalMinutes}
                    onChange={setIntervalMinutes}
                    error={errors.intervalMinutes}
                  />
                  <Button submit loading={busy}>
                    Save
                  </Button>
                </FormLayout>
              </form>
            </Card>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

function DriftList({ title, items }: { title: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {`${title} (${items.length})`}
      </Text>
      <List>
        {items.slice(0, 50).map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
      </List>
    </BlockStack>
  );
}

// The Stock page: whether stock can run (a location chosen), the last sync and the history of syncs, the
// drift the newest sync found (SKUs on one side only, quantities that differed, shared or untracked SKUs),
// the catalogue's problems with a link to fix each in Shopify, "Sync now", and the stock settings. Each
// SKU listed links to its own page (app/routes/app.stock_.sku.tsx), and any SKU can be opened by name.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link as RemixLink, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
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
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useDownload } from "../components/download";
import { z } from "zod";
import { CatalogueProblems } from "../stock/catalogue-problems";
import { MessageText } from "../components/message-text";
import { useTexts } from "../components/use-texts";
import { appContext } from "../context.server";
import { message, type Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { readTexts } from "../i18n/texts";
import { authenticate } from "../shopify.server";
import { requestStockSync } from "../stock/kinds.server";
import { QUANTITY_NAMES, type QuantityName } from "../stock/quantities";
import { stockOverview } from "../stock/queries.server";
import { MIN_STOCK_INTERVAL_MINUTES, MAX_STOCK_INTERVAL_MINUTES } from "../stock/settings";
import { loadStockSettings, saveStockSettings, STOCK_CHANGED_MEANWHILE } from "../stock/settings.server";
import { CHANGED_MEANWHILE } from "../settings/versions.server";
import { NOT_STOCKED_NOW, STALE } from "../stock/shopify.server";
import { OpenSku, SkuLink } from "../stock/sku-link";
import { wakeWorker } from "../work/worker.server";
import { TitledCard } from "../components/titled-card";

/** Why Shopify refused an item's quantity, in the admin's words where the app decided it. */
function failureText(failure: { code?: string | null; message: string }): Message {
  if (failure.code === STALE) return message("stock:drift.failure.stale");
  if (failure.message === NOT_STOCKED_NOW) return message("stock:drift.failure.notStocked");
  return message("stock:drift.failure.shopify", { detail: failure.message });
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  const [view, overview] = await Promise.all([
    loadStockSettings(db, session.shop),
    stockOverview(db, session.shop),
  ]);
  return {
    view,
    syncs: overview.syncs.map((sync) => ({
      id: sync.id,
      trigger: sync.trigger,
      skus: sync.skus,
      changed: sync.changed,
      mutations: sync.mutations,
      startedAt: sync.startedAt.toISOString(),
      finishedAt: sync.finishedAt?.toISOString() ?? null,
      seconds: sync.finishedAt
        ? Math.round((sync.finishedAt.getTime() - sync.startedAt.getTime()) / 1000)
        : null,
      error: readTexts(sync.error),
      shopifyRead: sync.shopifyRead,
    })),
    drift: {
      ...overview.drift,
      failures: overview.drift.failures.map((failure) => ({ sku: failure.sku, text: failureText(failure) })),
    },
    problems: overview.problems,
    nextSyncAt: overview.nextSyncAt?.toISOString() ?? null,
  };
};

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("sync") }),
  z.object({
    intent: z.literal("settings"),
    quantityName: z.string(),
    intervalMinutes: z.unknown(),
    restockReturns: z.unknown(),
    version: z.unknown(),
  }),
]);

/** The settings' fields, each with the sentence that says what it takes. */
const FIELD_TEXTS: Record<string, Message> = {
  quantityName: message("stock:settings.quantityInvalid"),
  intervalMinutes: message("stock:settings.intervalInvalid", {
    min: MIN_STOCK_INTERVAL_MINUTES,
    max: MAX_STOCK_INTERVAL_MINUTES,
  }),
  restockReturns: message("stock:settings.restockInvalid"),
};

type ActionAnswer =
  /** `version`: the stock settings' version after this save, which the page's next save stands on. */
  { ok: true; message: Message; version?: number } | { ok: false; errors: Record<string, Message> };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const parsed = actionSchema.safeParse(await request.json().catch(() => undefined));
  if (!parsed.success) {
    return { ok: false, errors: { form: message("stock:formUnreadable") } };
  }
  const context = { ...appContext(), wake: wakeWorker };
  if (parsed.data.intent === "sync") {
    await requestStockSync(context.db, session.shop, context.clock(), true);
    wakeWorker(session.shop);
    return { ok: true, message: message("stock:syncAsked") };
  }
  const { intent: _intent, ...input } = parsed.data;
  const saved = await saveStockSettings(context, session.shop, input);
  if (saved.ok) return { ok: true, version: saved.version, message: message("stock:settings.saved") };
  if (saved.errors.version === STOCK_CHANGED_MEANWHILE) return { ok: false, errors: CHANGED_MEANWHILE };
  const errors: Record<string, Message> = {};
  for (const field of Object.keys(saved.errors)) {
    errors[field in FIELD_TEXTS ? field : "form"] = FIELD_TEXTS[field] ?? message("stock:formUnreadable");
  }
  return { ok: false, errors };
};

export default function Stock() {
  const { view, syncs, drift, problems, nextSyncAt } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const busy = useNavigation().state === "submitting";
  const { t } = useTranslation("stock");
  const format = useFormat();
  const say = useTexts();
  const [quantityName, setQuantityName] = useState<QuantityName>(view.settings.quantityName);
  const [intervalMinutes, setIntervalMinutes] = useState(String(view.settings.intervalMinutes));
  const [restockReturns, setRestockReturns] = useState(view.settings.restockReturns);
  // The version these fields stand on: the one loaded, then the one this page's save made. A save made
  // meanwhile elsewhere is not taken in, so this page's next save says so instead of writing over it.
  const [version, setVersion] = useState(view.version);
  useEffect(() => {
    if (answer?.ok && answer.version !== undefined) setVersion(answer.version);
  }, [answer]);
  const driftCsv = useDownload();
  const errors: Record<string, Message> = answer && !answer.ok ? answer.errors : {};
  const last = syncs.find((sync) => sync.finishedAt);
  const post = (body: Record<string, string | number | boolean>) =>
    submit(body, { method: "post", encType: "application/json" });

  return (
    <Page
      title={t("title")}
      subtitle={view.locationName ? t("writtenAt", { location: view.locationName }) : undefined}
      primaryAction={{
        content: t("syncNow"),
        disabled: !view.locationId || busy,
        onAction: () => post({ intent: "sync" }),
      }}
    >
      <BlockStack gap="400">
        {answer?.ok && (
          <Banner tone="success">
            <MessageText text={answer.message} />
          </Banner>
        )}
        {errors.form && (
          <Banner tone="critical">
            <MessageText text={errors.form} />
          </Banner>
        )}
        {!view.locationId && (
          <Banner tone="warning" title={t("noLocation.title")}>
            <p>{t("noLocation.body")}</p>
            <RemixLink to="/app/settings/statuses">{t("noLocation.link")}</RemixLink>
          </Banner>
        )}
        {view.problem && (
          <Banner tone="warning" title={t("settingsInvalid.title")}>
            <p>{t("settingsInvalid.body", { problem: view.problem })}</p>
          </Banner>
        )}
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <TitledCard title={t("last.title")} gap="200">
                {last ? (
                  <Text as="p">
                    {t("last.finished", {
                      finishedAt: format.dateTime(last.finishedAt!),
                      seconds: format.number(last.seconds ?? 0),
                      changed: format.number(last.changed),
                      count: last.skus,
                    })}
                  </Text>
                ) : (
                  <Text as="p" tone="subdued">
                    {t("last.none")}
                  </Text>
                )}
                {last && last.error.length > 0 && (
                  <Banner tone="warning">
                    <MessageText text={last.error} />
                  </Banner>
                )}
                {nextSyncAt && (
                  <Text as="p" tone="subdued">
                    {t("last.next", { at: format.dateTime(nextSyncAt) })}
                  </Text>
                )}
              </TitledCard>
              <Card>
                <BlockStack gap="300">
                  <InlineStack align="space-between">
                    <Text as="h2" variant="headingMd">
                      {t("drift.title")}
                    </Text>
                    <Button onClick={() => driftCsv.download("/app/stock/drift.csv", "stock-drift.csv")}>
                      {t("drift.export")}
                    </Button>
                  </InlineStack>
                  {driftCsv.failed && <Banner tone="warning">{t("drift.exportFailed")}</Banner>}
                  <DriftList
                    title={t("drift.missingInShopify")}
                    items={drift.missingInShopify.map((sku) => ({ sku, text: sku }))}
                  />
                  <DriftList
                    title={t("drift.missingAtWarehouse")}
                    items={drift.missingAtWarehouse.map((item) => ({
                      sku: item.sku,
                      text: t("drift.inShopify", { sku: item.sku, quantity: format.number(item.quantity) }),
                    }))}
                  />
                  <DriftList
                    title={t("drift.written")}
                    items={drift.written.map((item) => ({
                      sku: item.sku,
                      text: t("drift.change", {
                        sku: item.sku,
                        from: format.number(item.from),
                        to: format.number(item.to),
                      }),
                    }))}
                  />
                  <DriftList
                    title={t("drift.sharedSkus")}
                    items={drift.sharedSkus.map(({ sku }) => ({ sku, text: sku }))}
                  />
                  <DriftList
                    title={t("drift.untracked")}
                    items={drift.untracked.map(({ sku }) => ({ sku, text: sku }))}
                  />
                  <DriftList
                    title={t("drift.promised")}
                    items={drift.promised.map((item) => ({
                      sku: item.sku,
                      text: t("drift.promisedLine", { sku: item.sku, units: format.number(item.units) }),
                    }))}
                  />
                  <DriftList
                    title={t("drift.failures")}
                    items={drift.failures.map((item) => ({
                      sku: item.sku,
                      text: t("drift.failure.line", { sku: item.sku, why: say(item.text) }),
                    }))}
                  />
                </BlockStack>
              </Card>
              <CatalogueProblems problems={problems} />
              <TitledCard title={t("history.title")}>
                {syncs.length === 0 ? (
                  <Text as="p" tone="subdued">
                    {t("history.none")}
                  </Text>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "text", "numeric", "numeric", "numeric", "text"]}
                    headings={[
                      t("history.started"),
                      t("history.askedBy"),
                      t("history.skus"),
                      t("history.changed"),
                      t("history.calls"),
                      t("history.outcome"),
                    ]}
                    rows={syncs.map((sync) => [
                      format.dateTime(sync.startedAt),
                      sync.trigger === "manual" ? t("history.byYou") : t("history.bySchedule"),
                      format.number(sync.skus),
                      format.number(sync.changed),
                      format.number(sync.mutations),
                      sync.error.length ? (
                        <MessageText text={sync.error} />
                      ) : sync.finishedAt ? (
                        sync.shopifyRead ? (
                          t("history.done")
                        ) : (
                          t("history.atRest")
                        )
                      ) : (
                        t("history.running")
                      ),
                    ])}
                  />
                )}
              </TitledCard>
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <OpenSku />
              <Card>
                <form
                  onSubmit={(event) => {
                    event.preventDefault();
                    post({ intent: "settings", quantityName, intervalMinutes, restockReturns, version });
                  }}
                >
                  <FormLayout>
                    <Text as="h2" variant="headingMd">
                      {t("settings.title")}
                    </Text>
                    {QUANTITY_NAMES.map((name) => (
                      <RadioButton
                        key={name}
                        id={`quantity-${name}`}
                        name="quantityName"
                        label={t(`settings.quantity.${name}.label`)}
                        helpText={t(`settings.quantity.${name}.help`)}
                        checked={quantityName === name}
                        onChange={() => setQuantityName(name)}
                      />
                    ))}
                    {errors.quantityName && (
                      <Text as="p" tone="critical">
                        <MessageText text={errors.quantityName} />
                      </Text>
                    )}
                    <TextField
                      label={t("settings.interval")}
                      type="number"
                      min={MIN_STOCK_INTERVAL_MINUTES}
                      max={MAX_STOCK_INTERVAL_MINUTES}
                      autoComplete="off"
                      value={intervalMinutes}
                      onChange={setIntervalMinutes}
                      error={errors.intervalMinutes && say(errors.intervalMinutes)}
                    />
                    <Checkbox
                      label={t("settings.restockReturns.label")}
                      helpText={t("settings.restockReturns.help")}
                      checked={restockReturns}
                      onChange={setRestockReturns}
                      error={errors.restockReturns && say(errors.restockReturns)}
                    />
                    <Button submit loading={busy}>
                      {t("settings.save")}
                    </Button>
                  </FormLayout>
                </form>
              </Card>
            </BlockStack>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

/** A drift list, each line a link to its SKU's page (its movements say how the warehouse got there). */
function DriftList({ title, items }: { title: string; items: Array<{ sku: string; text: string }> }) {
  const { t } = useTranslation("stock");
  const format = useFormat();
  if (!items.length) return null;
  return (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {t("drift.heading", { title, total: format.number(items.length) })}
      </Text>
      <List>
        {items.slice(0, 50).map((item) => (
          <List.Item key={item.text}>
            <SkuLink sku={item.sku}>{item.text}</SkuLink>
          </List.Item>
        ))}
      </List>
    </BlockStack>
  );
}

// Settings: the warehouse ApiKey (only its last four characters ever come back), the environment, batch
// sending, and how orders map to the warehouse: payment and delivery rules, delivery texts, payer type.
// The whole form is sent as JSON and checked by saveSettings; an error is shown beside its field and
// nothing is saved. Saved settings that no longer validate are shown with what is wrong, never replaced.
// Beside the form: the warehouse notification address, to copy or replace.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  FormLayout,
  InlineStack,
  Layout,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { appContext } from "../../context.server";
import { message, type Message } from "../../i18n/message";
import { useFormat } from "../../i18n/react";
import {
  DEFAULT_ORDER_SETTINGS,
  DELIVERY_METHOD_KEYS,
  PAYMENT_METHOD_KEYS,
  type OrderSettings,
  SPLIT_COD_SETTINGS,
} from "../../orders/settings";
import { loadSettings, saveSettings, sharedKeyConflict } from "../../settings/settings.server";
import { SenderCard } from "../../settings/sender-card";
import { MessageText } from "../../components/message-text";
import { sayTexts } from "../../components/use-texts";
import { notifyAddress, rotateNotifyToken } from "../../statuses/notify-token.server";
import { authenticate } from "../../shopify.server";
import { shopChanged, wakeWorker } from "../../work/worker.server";
import { REFERENCE_KIND, requestReferenceRefresh } from "../../reference/kinds";
import { referenceCard, type ReferenceCard } from "../../reference/store.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db, log, encryptionKey } = appContext();
  const [settings, keyConflict, notifications, reference] = await Promise.all([
    loadSettings(db, session.shop, log),
    sharedKeyConflict(db, session.shop),
    notifyAddress(db, session.shop, { encryptionKey }),
    referenceCard(db, session.shop, REFERENCE_KIND),
  ]);
  return {
    settings: {
      hasApiKey: settings.hasApiKey,
      apiKeyHint: settings.apiKeyHint,
      environment: settings.environment,
      batchAddOrder: settings.batchAddOrder,
      mapping: settings.mapping,
      mappingIssues: settings.mappingIssues,
      pausedAt: settings.pausedAt?.toISOString() ?? null,
      pauseReason: settings.pauseReason,
      keyConflict: keyConflict?.text ?? null,
      version: settings.version,
    },
    defaultLiterals: DEFAULT_ORDER_SETTINGS.deliveryLiterals,
    notifications,
    reference,
  };
};

type ActionAnswer =
  /** `version`: the settings' version after this save, which the page's next save stands on. */
  | { ok: true; message: Message; saved: boolean; version?: number }
  | { ok: false; errors: Record<string, Message> };

/** What the form sends to replace the notification address, instead of the settings. */
const ROTATE_NOTIFY_ADDRESS = "rotateNotifyAddress";
/** What the "Refresh now" button of the carrier reference data sends. */
const REFRESH_REFERENCE = "refreshReference";

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const input: unknown = await request.json().catch(() => undefined);
  if (typeof input !== "object" || input === null) {
    return { ok: false, errors: { form: message("settings:errors.unreadableForm") } };
  }
  if ((input as { intent?: unknown }).intent === ROTATE_NOTIFY_ADDRESS) {
    await rotateNotifyToken(appContext(), session.shop);
    return {
      ok: true,
      saved: false,
      message: message("settings:notifications.replaced"),
    };
  }
  if ((input as { intent?: unknown }).intent === REFRESH_REFERENCE) {
    const { db, clock } = appContext();
    const hasKey = await db.shopSettings.count({
      where: { shop: session.shop, apiKeyDigest: { not: null } },
    });
    if (!hasKey) return { ok: false, errors: { form: message("settings:reference.noKey") } };
    await requestReferenceRefresh(db, session.shop, clock(), true);
    wakeWorker(session.shop);
    return { ok: true, saved: false, message: message("settings:reference.requested") };
  }
  const context = appContext();
  // The sender is the Sender card's to choose (app/settings/sender-card.tsx): kept as saved here.
  const saved = await saveSettings({ ...context, wake: wakeWorker, shopChanged }, session.shop, input, {
    keepSavedSender: true,
  });
  // Only a message goes back: the saved settings reach the page through the loader, without the key.
  return saved.ok
    ? { ok: true, saved: true, version: saved.version, message: message("settings:saved") }
    : { ok: false, errors: saved.errors };
};

type Mapping = OrderSettings;

/** The error paths shown beside a field of this form. */
const FIELD_PATH =
  /^(apiKey|environment|batchAddOrder|mapping\.(paymentRules|deliveryRules)\.\d+\.(match|method)|mapping\.deliveryLiterals\.\w+|mapping\.(payerType|idOrderPrefix|sendNoteAsComment|branchMatchThreshold|splitCashOnDelivery))$/;
type Rule<M extends string> = { match: string; method: M };

export default function Settings() {
  const { settings, defaultLiterals, notifications, reference } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const { t } = useTranslation("settings");
  const format = useFormat();
  const submitting = navigation.state === "submitting";
  const replacing =
    submitting && (navigation.json as { intent?: unknown } | undefined)?.intent === ROTATE_NOTIFY_ADDRESS;
  const refreshing =
    submitting && (navigation.json as { intent?: unknown } | undefined)?.intent === REFRESH_REFERENCE;
  const saving = submitting && !replacing && !refreshing;

  const [apiKey, setApiKey] = useState("");
  const [environment, setEnvironment] = useState<string>(settings.environment);
  const [batchAddOrder, setBatchAddOrder] = useState(settings.batchAddOrder);
  const [mapping, setMapping] = useState<Mapping>(settings.mapping);
  // The version these fields stand on: the one loaded, then the one this page's save made. A save made
  // meanwhile elsewhere is not taken in (nor its values: the merchant's entries stay), so this page's next
  // save is refused as changed meanwhile instead of writing over it.
  const [version, setVersion] = useState(settings.version);
  // A saved key is never shown again, not even in the field it was typed into.
  useEffect(() => {
    if (answer?.ok && answer.saved) setApiKey("");
    if (answer?.ok && answer.version !== undefined) setVersion(answer.version);
  }, [answer]);

  const errors: Record<string, Message> = answer && !answer.ok ? answer.errors : {};
  const error = (path: string) => {
    const text = errors[path];
    return text ? sayTexts(t, format, text) : undefined;
  };
  const paymentMethods = PAYMENT_METHOD_KEYS.map((value) => ({
    value,
    label: t(`methods.payment.${value}`),
  }));
  const deliveryMethods = DELIVERY_METHOD_KEYS.map((value) => ({
    value,
    label: t(`methods.delivery.${value}`),
  }));

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    // Optional settings left unset are left out, not sent as empty values.
    const { payerType, deliverySenderId, ...rest } = mapping;
    submit(
      {
        apiKey,
        environment,
        batchAddOrder,
        mapping: { ...rest, ...(payerType && { payerType }), ...(deliverySenderId && { deliverySenderId }) },
        version,
      },
      { method: "post", encType: "application/json" },
    );
  };
  const update = (changes: Partial<Mapping>) => setMapping((current) => ({ ...current, ...changes }));

  const form = (
    <form onSubmit={save}>
      <Layout>
        <Layout.AnnotatedSection title={t("connection.title")} description={t("connection.description")}>
          <Card>
            <FormLayout>
              <TextField
                label={t("connection.apiKey")}
                type="password"
                autoComplete="off"
                value={apiKey}
                onChange={setApiKey}
                placeholder={settings.apiKeyHint ?? ""}
                helpText={
                  settings.hasApiKey
                    ? t("connection.apiKeySaved", { hint: settings.apiKeyHint ?? "…" })
                    : t("connection.apiKeyNone")
                }
                error={error("apiKey")}
              />
              <Select
                label={t("connection.environment")}
                options={[
                  { label: t("connection.production"), value: "production" },
                  { label: t("connection.staging"), value: "staging" },
                ]}
                value={environment}
                onChange={setEnvironment}
                error={error("environment")}
              />
              <Checkbox
                label={t("connection.batch")}
                helpText={t("connection.batchHelp")}
                checked={batchAddOrder}
                onChange={setBatchAddOrder}
                error={error("batchAddOrder")}
              />
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>

        <Layout.AnnotatedSection title={t("payment.title")} description={t("payment.description")}>
          <Card>
            <RuleList
              kind="payment"
              rules={mapping.paymentRules}
              methods={paymentMethods}
              error={error}
              onChange={(paymentRules) => update({ paymentRules: paymentRules as Mapping["paymentRules"] })}
            />
          </Card>
        </Layout.AnnotatedSection>

        <Layout.AnnotatedSection title={t("delivery.title")} description={t("delivery.description")}>
          <BlockStack gap="400">
            <Card>
              <RuleList
                kind="delivery"
                rules={mapping.deliveryRules}
                methods={deliveryMethods}
                error={error}
                onChange={(deliveryRules) =>
                  update({ deliveryRules: deliveryRules as Mapping["deliveryRules"] })
                }
              />
            </Card>
            <Card>
              <FormLayout>
                {deliveryMethods.map(({ value, label }) => {
                  const key = value as keyof Mapping["deliveryLiterals"];
                  return (
                    <TextField
                      key={key}
                      label={t("delivery.text", { method: label })}
                      autoComplete="off"
                      value={mapping.deliveryLiterals[key]}
                      onChange={(text) =>
                        update({ deliveryLiterals: { ...mapping.deliveryLiterals, [key]: text } })
                      }
                      helpText={t("delivery.textDefault", { text: defaultLiterals[key] })}
                      error={error(`mapping.deliveryLiterals.${key}`)}
                    />
                  );
                })}
                <Select
                  label={t("delivery.payer")}
                  options={[
                    { label: t("delivery.payerContract"), value: "" },
                    { label: t("delivery.payerRecipient"), value: "Recipient" },
                    { label: t("delivery.payerSender"), value: "Sender" },
                  ]}
                  value={mapping.payerType ?? ""}
                  onChange={(payerType) =>
                    update({ payerType: (payerType || undefined) as Mapping["payerType"] })
                  }
                  error={error("mapping.payerType")}
                />
              </FormLayout>
            </Card>
          </BlockStack>
        </Layout.AnnotatedSection>

        <Layout.AnnotatedSection title={t("orders.title")} description={t("orders.description")}>
          <Card>
            <FormLayout>
              <TextField
                label={t("orders.prefix")}
                autoComplete="off"
                value={mapping.idOrderPrefix}
                onChange={(idOrderPrefix) => update({ idOrderPrefix })}
                helpText={t("orders.prefixHelp")}
                error={error("mapping.idOrderPrefix")}
              />
              <Checkbox
                label={t("orders.noteAsComment")}
                checked={mapping.sendNoteAsComment}
                onChange={(sendNoteAsComment) => update({ sendNoteAsComment })}
                error={error("mapping.sendNoteAsComment")}
              />
              <TextField
                label={t("orders.branchThreshold")}
                type="number"
                min={50}
                max={100}
                step={1}
                suffix="%"
                autoComplete="off"
                value={String(Math.round(mapping.branchMatchThreshold * 100))}
                onChange={(percent) => update({ branchMatchThreshold: Number(percent) / 100 })}
                helpText={t("orders.branchThresholdHelp")}
                error={error("mapping.branchMatchThreshold")}
              />
              <Select
                label={t("orders.splitCod")}
                options={SPLIT_COD_SETTINGS.map((value) => ({
                  label: t(`orders.splitCodOption.${value}`),
                  value,
                }))}
                value={mapping.splitCashOnDelivery}
                onChange={(value) => update({ splitCashOnDelivery: value as Mapping["splitCashOnDelivery"] })}
                helpText={t("orders.splitCodHelp")}
                error={error("mapping.splitCashOnDelivery")}
              />
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>

        <Layout.Section>
          <InlineStack align="end">
            <Button submit variant="primary" loading={saving}>
              {t("save")}
            </Button>
          </InlineStack>
        </Layout.Section>
      </Layout>
    </form>
  );

  // Errors for fields the form has no place for (and the form's own) are listed at the top.
  const unplaced = Object.entries(errors).filter(([path]) => !FIELD_PATH.test(path));
  const mappingIssues = Object.entries(settings.mappingIssues ?? {});

  return (
    <Page title={t("title")} primaryAction={{ content: t("save"), onAction: () => save(), loading: saving }}>
      <BlockStack gap="400">
        {settings.pausedAt && (
          <Banner tone="critical" title={t("pause.title")}>
            <BlockStack gap="200">
              {settings.pauseReason && (
                <p>
                  <MessageText text={settings.pauseReason} />
                </p>
              )}
              <p>{t("pause.since", { at: format.dateTime(settings.pausedAt) })}</p>
            </BlockStack>
          </Banner>
        )}
        {settings.keyConflict && (
          <Banner tone="critical" title={t("keyConflict.title")}>
            <p>
              <MessageText text={settings.keyConflict} />
            </p>
          </Banner>
        )}
        {settings.mappingIssues && (
          <Banner tone="critical" title={t("mappingProblem.title")}>
            <BlockStack gap="200">
              <p>{t("mappingProblem.intro")}</p>
              {mappingIssues.length > 0 && (
                <ul>
                  {mappingIssues.map(([path, text]) => (
                    <li key={path}>
                      {t("fieldError", { field: fieldName(t, path), error: sayTexts(t, format, text) })}
                    </li>
                  ))}
                </ul>
              )}
              <p>{t("mappingProblem.fix")}</p>
            </BlockStack>
          </Banner>
        )}
        {answer?.ok && (
          <Banner tone="success">
            <p>
              <MessageText text={answer.message} />
            </p>
          </Banner>
        )}
        {answer && !answer.ok && (
          <Banner tone="critical" title={t("notSaved")}>
            {unplaced.length > 0 && (
              <ul>
                {unplaced.map(([path, text]) => (
                  <li key={path}>
                    {path === "form" ? (
                      <MessageText text={text} />
                    ) : (
                      t("fieldError", { field: fieldName(t, path), error: sayTexts(t, format, text) })
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Banner>
        )}
        {form}
        <Layout>
          <SenderCard />
          <NotificationAddress
            address={notifications}
            replacing={replacing}
            onReplace={() =>
              submit({ intent: ROTATE_NOTIFY_ADDRESS }, { method: "post", encType: "application/json" })
            }
          />
          <CarrierReference
            reference={reference}
            refreshing={refreshing}
            onRefresh={() =>
              submit({ intent: REFRESH_REFERENCE }, { method: "post", encType: "application/json" })
            }
          />
          <StatusesLink />
        </Layout>
      </BlockStack>
    </Page>
  );
}

/** A field's name in the admin's language, for an error listed apart from the field ("Order number prefix"). */
function fieldName(t: ReturnType<typeof useTranslation<"settings">>["t"], path: string): string {
  const [top, field] = path.replace(/^mapping\./, "").split(".");
  const names: Record<string, string> = {
    apiKey: t("connection.apiKey"),
    environment: t("connection.environment"),
    batchAddOrder: t("connection.batch"),
    paymentRules: t("payment.title"),
    deliveryRules: t("delivery.title"),
    deliveryLiterals: field
      ? t("delivery.text", { method: t(`methods.delivery.${field as DeliveryKey}`) })
      : t("delivery.title"),
    payerType: t("delivery.payer"),
    idOrderPrefix: t("orders.prefix"),
    sendNoteAsComment: t("orders.noteAsComment"),
    branchMatchThreshold: t("orders.branchThreshold"),
    splitCashOnDelivery: t("orders.splitCod"),
  };
  return names[top ?? ""] ?? path;
}

type DeliveryKey = (typeof DELIVERY_METHOD_KEYS)[number];

/** The warehouse notification address: shown whole, copied with a button, replaced after a confirmation. */
function NotificationAddress({
  address,
  replacing,
  onReplace,
}: {
  address: { ok: true; url: string } | { ok: false; message: Message };
  replacing: boolean;
  onReplace: () => void;
}) {
  const { t } = useTranslation("settings");
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  // A new address is a new thing to copy.
  const url = address.ok ? address.url : null;
  useEffect(() => {
    setCopied(null);
    setConfirming(false);
  }, [url]);
  const copy = () => {
    if (!url) return;
    navigator.clipboard.writeText(url).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  };
  return (
    <Layout.AnnotatedSection title={t("notifications.title")} description={t("notifications.description")}>
      <Card>
        <BlockStack gap="300">
          {address.ok ? (
            <TextField
              label={t("notifications.address")}
              autoComplete="off"
              readOnly
              value={address.url}
              onFocus={(event) => (event?.target as HTMLInputElement | undefined)?.select()}
              connectedRight={<Button onClick={copy}>{t("notifications.copy")}</Button>}
              helpText={
                copied === "yes"
                  ? t("notifications.copied")
                  : copied === "failed"
                    ? t("notifications.copyFailed")
                    : undefined
              }
            />
          ) : (
            <Banner tone="warning">
              <p>
                <MessageText text={address.message} />
              </p>
            </Banner>
          )}
          {confirming ? (
            <Banner tone="warning" title={t("notifications.confirmTitle")}>
              <BlockStack gap="200">
                <p>{t("notifications.confirmBody")}</p>
                <InlineStack gap="200">
                  <Button variant="primary" tone="critical" loading={replacing} onClick={onReplace}>
                    {t("notifications.confirm")}
                  </Button>
                  <Button onClick={() => setConfirming(false)}>{t("notifications.keep")}</Button>
                </InlineStack>
              </BlockStack>
            </Banner>
          ) : (
            <InlineStack>
              <Button onClick={() => setConfirming(true)}>{t("notifications.replace")}</Button>
            </InlineStack>
          )}
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

/** The carrier reference data (cities and branches) of the shop's key: counts, last refresh, problem, refresh. */
function CarrierReference({
  reference,
  refreshing,
  onRefresh,
}: {
  reference: ReferenceCard;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const { t } = useTranslation("settings");
  const format = useFormat();
  return (
    <Layout.AnnotatedSection title={t("reference.title")} description={t("reference.description")}>
      <Card>
        <BlockStack gap="300">
          {!reference.hasKey ? (
            <Text as="p">{t("reference.noKey")}</Text>
          ) : reference.refreshedAt ? (
            <BlockStack gap="100">
              <Text as="p">
                {t("reference.counts", {
                  cities: format.number(reference.cityCount),
                  branches: format.number(reference.branchCount),
                })}
              </Text>
              <Text as="p" tone="subdued">
                {t("reference.refreshedAt", { at: format.dateTime(reference.refreshedAt) })}
              </Text>
              {reference.undescribedCities > 0 && (
                <Text as="p" tone="subdued">
                  {t("reference.describing", { cities: format.number(reference.undescribedCities) })}
                </Text>
              )}
            </BlockStack>
          ) : (
            <Text as="p">{t("reference.none")}</Text>
          )}
          {reference.lastError && (
            <Banner tone="warning" title={t("reference.problem")}>
              <p>{reference.lastError}</p>
            </Banner>
          )}
          {reference.hasKey && (
            <InlineStack>
              <Button onClick={onRefresh} loading={refreshing}>
                {t("reference.refresh")}
              </Button>
            </InlineStack>
          )}
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

function StatusesLink() {
  const { t } = useTranslation("settings");
  return (
    <Layout.AnnotatedSection title={t("statusesLink.title")} description={t("statusesLink.description")}>
      <Card>
        <InlineStack>
          <Button url="/app/settings/statuses">{t("statusesLink.open")}</Button>
        </InlineStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

function RuleList({
  kind,
  rules,
  methods,
  error,
  onChange,
}: {
  kind: "payment" | "delivery";
  rules: Rule<string>[];
  methods: { value: string; label: string }[];
  error: (path: string) => string | undefined;
  onChange: (rules: Rule<string>[]) => void;
}) {
  const { t } = useTranslation("settings");
  const path = kind === "payment" ? "mapping.paymentRules" : "mapping.deliveryRules";
  const change = (index: number, rule: Partial<Rule<string>>) =>
    onChange(rules.map((current, at) => (at === index ? { ...current, ...rule } : current)));
  return (
    <BlockStack gap="300">
      {rules.length === 0 && (
        <Text as="p" tone="subdued">
          {t(`rules.${kind}.none`)}
        </Text>
      )}
      {rules.map((rule, index) => (
        <FormLayout.Group key={index} condensed>
          <TextField
            label={t(`rules.${kind}.match`, { number: index + 1 })}
            autoComplete="off"
            value={rule.match}
            onChange={(match) => change(index, { match })}
            error={error(`${path}.${index}.match`)}
          />
          <Select
            label={t("rules.method", { number: index + 1 })}
            options={methods}
            value={rule.method}
            onChange={(method) => change(index, { method })}
            error={error(`${path}.${index}.method`)}
          />
          <div style={{ paddingTop: "1.5rem" }}>
            <Button
              accessibilityLabel={t(`rules.${kind}.remove`, { number: index + 1 })}
              onClick={() => onChange(rules.filter((_, at) => at !== index))}
            >
              {t("rules.removeButton")}
            </Button>
          </div>
        </FormLayout.Group>
      ))}
      <InlineStack>
        <Button onClick={() => onChange([...rules, { match: "", method: methods[0]?.value ?? "" }])}>
          {t(`rules.${kind}.add`)}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}

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
import { appContext } from "../../context.server";
import { formatShopTime, shopTimeZone } from "../../orders/queries.server";
import {
  DEFAULT_ORDER_SETTINGS,
  DELIVERY_METHOD_KEYS,
  DELIVERY_METHOD_LABELS,
  PAYMENT_METHOD_KEYS,
  PAYMENT_METHOD_LABELS,
  type OrderSettings,
} from "../../orders/settings";
import { loadSettings, saveSettings, sharedKeyConflict } from "../../settings/settings.server";
import { notifyAddress, rotateNotifyToken } from "../../statuses/notify-token.server";
import { authenticate } from "../../shopify.server";
import { shopChanged, wakeWorker } from "../../work/worker.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db, log } = appContext();
  const [settings, timeZone, keyConflict, notifications] = await Promise.all([
    loadSettings(db, session.shop, log),
    shopTimeZone(db, session.shop),
    sharedKeyConflict(db, session.shop),
    notifyAddress(db, session.shop),
  ]);
  return {
    settings: {
      hasApiKey: settings.hasApiKey,
      apiKeyHint: settings.apiKeyHint,
      environment: settings.environment,
      batchAddOrder: settings.batchAddOrder,
      mapping: settings.mapping,
      mappingProblem: settings.mappingProblem,
      pausedAt: settings.pausedAt ? formatShopTime(settings.pausedAt, timeZone) : null,
      pauseReason: settings.pauseReason,
      keyConflict: keyConflict?.message ?? null,
    },
    paymentMethods: PAYMENT_METHOD_KEYS.map((key) => ({ value: key, label: PAYMENT_METHOD_LABELS[key] })),
    deliveryMethods: DELIVERY_METHOD_KEYS.map((key) => ({ value: key, label: DELIVERY_METHOD_LABELS[key] })),
    defaultLiterals: DEFAULT_ORDER_SETTINGS.deliveryLiterals,
    notifications,
  };
};

type ActionAnswer =
  { ok: true; message: string; saved: boolean } | { ok: false; errors: Record<string, string> };

/** What the form sends to replace the notification address, instead of the settings. */
const ROTATE_NOTIFY_ADDRESS = "rotateNotifyAddress";

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionAnswer> => {
  const { session } = await authenticate.admin(request);
  const input: unknown = await request.json().catch(() => undefined);
  if (typeof input !== "object" || input === null) {
    return { ok: false, errors: { form: "The form could not be read; reload the page and try again." } };
  }
  if ((input as { intent?: unknown }).intent === ROTATE_NOTIFY_ADDRESS) {
    await rotateNotifyToken(appContext(), session.shop);
    return {
      ok: true,
      saved: false,
      message:
        "A new notification address was made and the old one no longer works. Give the new address to your warehouse manager.",
    };
  }
  const saved = await saveSettings({ ...appContext(), wake: wakeWorker, shopChanged }, session.shop, input);
  // Only a message goes back: the saved settings reach the page through the loader, without the key.
  return saved.ok
    ? { ok: true, saved: true, message: "Settings saved." }
    : { ok: false, errors: saved.errors };
};

type Mapping = OrderSettings;

/** The error paths shown beside a field of this form. */
const FIELD_PATH =
  /^(apiKey|environment|batchAddOrder|mapping\.(paymentRules|deliveryRules)\.\d+\.(match|method)|mapping\.deliveryLiterals\.\w+|mapping\.(payerType|idOrderPrefix|sendNoteAsComment))$/;
type Rule<M extends string> = { match: string; method: M };

export default function Settings() {
  const { settings, paymentMethods, deliveryMethods, defaultLiterals, notifications } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const replacing =
    submitting && (navigation.json as { intent?: unknown } | undefined)?.intent === ROTATE_NOTIFY_ADDRESS;
  const saving = submitting && !replacing;

  const [apiKey, setApiKey] = useState("");
  const [environment, setEnvironment] = useState<string>(settings.environment);
  const [batchAddOrder, setBatchAddOrder] = useState(settings.batchAddOrder);
  const [mapping, setMapping] = useState<Mapping>(settings.mapping);
  // A saved key is never shown again, not even in the field it was typed into.
  useEffect(() => {
    if (answer?.ok && answer.saved) setApiKey("");
  }, [answer]);

  const errors: Record<string, string> = answer && !answer.ok ? answer.errors : {};
  const error = (path: string) => errors[path];

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
      },
      { method: "post", encType: "application/json" },
    );
  };
  const update = (changes: Partial<Mapping>) => setMapping((current) => ({ ...current, ...changes }));

  const form = (
    <form onSubmit={save}>
      <Layout>
        <Layout.AnnotatedSection
          title="Warehouse connection"
          description="The ApiKey from the warehouse's client cabinet, and which of its environments it belongs to."
        >
          <Card>
            <FormLayout>
              <TextField
                label="Warehouse ApiKey"
                type="password"
                autoComplete="off"
                value={apiKey}
                onChange={setApiKey}
                placeholder={settings.apiKeyHint ?? ""}
                helpText={
                  settings.hasApiKey
                    ? `A key ending in ${settings.apiKeyHint ?? "…"} is saved. Leave this blank to keep it, or enter a new key to replace it.`
                    : "No key saved yet: orders wait here until you enter one."
                }
                error={error("apiKey")}
              />
              <Select
                label="Environment"
                options={[
                  { label: "Production", value: "production" },
                  { label: "Staging (test orders)", value: "staging" },
                ]}
                value={environment}
                onChange={setEnvironment}
                error={error("environment")}
              />
              <Checkbox
                label="Send new orders in batches"
                helpText="Up to 100 orders in one request. Turn off to send each order on its own."
                checked={batchAddOrder}
                onChange={setBatchAddOrder}
                error={error("batchAddOrder")}
              />
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>

        <Layout.AnnotatedSection
          title="Payment"
          description="Orders paid by a gateway whose name contains the text are sent with that payment method. Without a matching rule, unpaid orders are cash on delivery and paid ones prepaid."
        >
          <Card>
            <RuleList
              kind="payment"
              rules={mapping.paymentRules}
              methods={paymentMethods}
              matchLabel="Payment gateway name contains"
              error={error}
              onChange={(paymentRules) => update({ paymentRules: paymentRules as Mapping["paymentRules"] })}
            />
          </Card>
        </Layout.AnnotatedSection>

        <Layout.AnnotatedSection
          title="Delivery"
          description="Orders whose shipping method (title, code or source) contains the text go with that delivery method. The texts below are what the warehouse receives for each method."
        >
          <BlockStack gap="400">
            <Card>
              <RuleList
                kind="delivery"
                rules={mapping.deliveryRules}
                methods={deliveryMethods}
                matchLabel="Shipping method contains"
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
                      label={`Delivery text for ${label}`}
                      autoComplete="off"
                      value={mapping.deliveryLiterals[key]}
                      onChange={(text) =>
                        update({ deliveryLiterals: { ...mapping.deliveryLiterals, [key]: text } })
                      }
                      helpText={`Default: ${defaultLiterals[key]}`}
                      error={error(`mapping.deliveryLiterals.${key}`)}
                    />
                  );
                })}
                <Select
                  label="Who pays the carrier"
                  options={[
                    { label: "As the warehouse contract says", value: "" },
                    { label: "The recipient", value: "Recipient" },
                    { label: "The sender (your store)", value: "Sender" },
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

        <Layout.AnnotatedSection
          title="Orders"
          description="How orders are numbered at the warehouse and what goes with them."
        >
          <Card>
            <FormLayout>
              <TextField
                label="Order number prefix"
                autoComplete="off"
                value={mapping.idOrderPrefix}
                onChange={(idOrderPrefix) => update({ idOrderPrefix })}
                helpText="Put before the order number in id_order: “UA-” sends order #1001 as UA-1001. It ends in a letter or “-”, so the number cannot run into it. Applies to new orders; orders already taken in keep their id_order."
                error={error("mapping.idOrderPrefix")}
              />
              <Checkbox
                label="Send the order note to the warehouse as a comment"
                checked={mapping.sendNoteAsComment}
                onChange={(sendNoteAsComment) => update({ sendNoteAsComment })}
                error={error("mapping.sendNoteAsComment")}
              />
            </FormLayout>
          </Card>
        </Layout.AnnotatedSection>

        <Layout.Section>
          <InlineStack align="end">
            <Button submit variant="primary" loading={saving}>
              Save
            </Button>
          </InlineStack>
        </Layout.Section>
      </Layout>
    </form>
  );

  // Errors for fields the form has no place for (and the form's own) are listed at the top.
  const unplaced = Object.entries(errors).filter(([path]) => !FIELD_PATH.test(path));

  return (
    <Page title="Settings" primaryAction={{ content: "Save", onAction: () => save(), loading: saving }}>
      <BlockStack gap="400">
        {settings.pausedAt && (
          <Banner tone="critical" title="The warehouse refused the ApiKey: no orders are being sent">
            <BlockStack gap="200">
              {settings.pauseReason && <p>{settings.pauseReason}</p>}
              <p>
                Paused since {settings.pausedAt}. Enter a new ApiKey below and save: the orders that waited go
                out at once.
              </p>
            </BlockStack>
          </Banner>
        )}
        {settings.keyConflict && (
          <Banner tone="critical" title="Orders are not being sent: another store uses this ApiKey">
            <p>{settings.keyConflict}</p>
          </Banner>
        )}
        {settings.mappingProblem && (
          <Banner tone="critical" title="The saved order settings are no longer valid: new orders are held">
            <BlockStack gap="200">
              <p>
                The order settings saved earlier do not pass today&apos;s checks, so orders are held rather
                than sent with settings you did not choose. This is what is wrong:
              </p>
              <pre style={{ whiteSpace: "pre-wrap" }}>{settings.mappingProblem}</pre>
              <p>
                The form below shows the settings that are still valid. Correct the rest and save: the held
                orders are then mapped again.
              </p>
            </BlockStack>
          </Banner>
        )}
        {answer?.ok && (
          <Banner tone="success">
            <p>{answer.message}</p>
          </Banner>
        )}
        {answer && !answer.ok && (
          <Banner tone="critical" title="Nothing was saved: fix the fields marked below">
            {unplaced.length > 0 && (
              <ul>
                {unplaced.map(([path, message]) => (
                  <li key={path}>{path === "form" ? message : `${path}: ${message}`}</li>
                ))}
              </ul>
            )}
          </Banner>
        )}
        {form}
        <Layout>
          <NotificationAddress
            address={notifications}
            replacing={replacing}
            onReplace={() =>
              submit({ intent: ROTATE_NOTIFY_ADDRESS }, { method: "post", encType: "application/json" })
            }
          />
          <StatusesLink />
        </Layout>
      </BlockStack>
    </Page>
  );
}

/** The warehouse notification address: shown whole, copied with a button, replaced after a confirmation. */
function NotificationAddress({
  address,
  replacing,
  onReplace,
}: {
  address: { ok: true; url: string } | { ok: false; message: string };
  replacing: boolean;
  onReplace: () => void;
}) {
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
    <Layout.AnnotatedSection
      title="Warehouse notifications"
      description="Give this address to your warehouse manager: the warehouse calls it whenever an order's status changes."
    >
      <Card>
        <BlockStack gap="300">
          {address.ok ? (
            <TextField
              label="Notification address"
              autoComplete="off"
              readOnly
              value={address.url}
              onFocus={(event) => (event?.target as HTMLInputElement | undefined)?.select()}
              connectedRight={<Button onClick={copy}>Copy</Button>}
              helpText={
                copied === "yes"
                  ? "The address is copied."
                  : copied === "failed"
                    ? "The browser did not allow copying: select the address and copy it yourself."
                    : undefined
              }
            />
          ) : (
            <Banner tone="warning">
              <p>{address.message}</p>
            </Banner>
          )}
          {confirming ? (
            <Banner tone="warning" title="Make a new address?">
              <BlockStack gap="200">
                <p>
                  The current address stops working at once: the warehouse&apos;s notifications are refused
                  until your warehouse manager enters the new address.
                </p>
                <InlineStack gap="200">
                  <Button variant="primary" tone="critical" loading={replacing} onClick={onReplace}>
                    Make the new address
                  </Button>
                  <Button onClick={() => setConfirming(false)}>Keep the current address</Button>
                </InlineStack>
              </BlockStack>
            </Banner>
          ) : (
            <InlineStack>
              <Button onClick={() => setConfirming(true)}>Make a new address</Button>
            </InlineStack>
          )}
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

function StatusesLink() {
  return (
    <Layout.AnnotatedSection
      title="Statuses and fulfillment"
      description="Where orders are fulfilled in Shopify, whether the buyer is told, how often orders are looked up, and what the warehouse's statuses mean."
    >
      <Card>
        <InlineStack>
          <Button url="/app/settings/statuses">Open the status and fulfillment settings</Button>
        </InlineStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

function RuleList({
  kind,
  rules,
  methods,
  matchLabel,
  error,
  onChange,
}: {
  kind: "payment" | "delivery";
  rules: Rule<string>[];
  methods: { value: string; label: string }[];
  matchLabel: string;
  error: (path: string) => string | undefined;
  onChange: (rules: Rule<string>[]) => void;
}) {
  const path = kind === "payment" ? "mapping.paymentRules" : "mapping.deliveryRules";
  const change = (index: number, rule: Partial<Rule<string>>) =>
    onChange(rules.map((current, at) => (at === index ? { ...current, ...rule } : current)));
  return (
    <BlockStack gap="300">
      {rules.length === 0 && (
        <Text as="p" tone="subdued">
          No {kind} rules: the built-in ones apply.
        </Text>
      )}
      {rules.map((rule, index) => (
        <FormLayout.Group key={index} condensed>
          <TextField
            label={`${matchLabel} (rule ${index + 1})`}
            autoComplete="off"
            value={rule.match}
            onChange={(match) => change(index, { match })}
            error={error(`${path}.${index}.match`)}
          />
          <Select
            label={`Method (rule ${index + 1})`}
            options={methods}
            value={rule.method}
            onChange={(method) => change(index, { method })}
            error={error(`${path}.${index}.method`)}
          />
          <div style={{ paddingTop: "1.5rem" }}>
            <Button
              accessibilityLabel={`Remove ${kind} rule ${index + 1}`}
              onClick={() => onChange(rules.filter((_, at) => at !== index))}
            >
              Remove
            </Button>
          </div>
        </FormLayout.Group>
      ))}
      <InlineStack>
        <Button onClick={() => onChange([...rules, { match: "", method: methods[0]?.value ?? "" }])}>
          {kind === "payment" ? "Add payment rule" : "Add delivery rule"}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}

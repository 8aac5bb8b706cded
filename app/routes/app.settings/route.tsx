// Settings: the warehouse ApiKey (only its last four characters ever come back), the environment, batch
// sending, and how orders map to the warehouse: payment and delivery rules, delivery texts, payer type.
// The whole form is sent as JSON and checked by saveSettings; an error is shown beside its field and
// nothing is saved. Saved settings that no longer validate are shown with what is wrong, never replaced.
// Beside the form: the Sender card, the warehouse notification address, to copy or replace, and the carrier
// reference data. Each card is its own component (app/settings/*-card.tsx); this route holds the form's state,
// its answers and the loader and action.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Layout, Page } from "@shopify/polaris";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { appContext } from "../../context.server";
import { message, type Message } from "../../i18n/message";
import { useFormat } from "../../i18n/react";
import { DEFAULT_ORDER_SETTINGS, type DELIVERY_METHOD_KEYS, type OrderSettings } from "../../orders/settings";
import { checkApiKey } from "../../onboarding/connection.server";
import {
  loadSettings,
  saveSettings,
  settingsFormSchema,
  sharedKeyConflict,
} from "../../settings/settings.server";
import { CarrierReference } from "../../settings/carrier-reference-card";
import { ConnectionCard, type ConnectionFields } from "../../settings/connection-card";
import { DeliveryCard } from "../../settings/delivery-card";
import { NotificationAddress } from "../../settings/notification-card";
import { OrdersCard } from "../../settings/orders-card";
import { PaymentCard } from "../../settings/payment-card";
import { SenderCard } from "../../settings/sender-card";
import { StatusesLink } from "../../settings/statuses-link-card";
import { MessageText } from "../../components/message-text";
import { sayTexts } from "../../components/use-texts";
import { notifyAddress, rotateNotifyToken } from "../../statuses/notify-token.server";
import { authenticate } from "../../shopify.server";
import { shopChanged, wakeWorker } from "../../work/worker.server";
import { REFERENCE_KIND, requestReferenceRefresh } from "../../reference/kinds.server";
import { referenceCard } from "../../reference/store.server";

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
  | { ok: true; message: Message | Message[]; saved: boolean; version?: number }
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
  // A newly typed key is checked with the warehouse first, as onboarding does (checkApiKey): one it refuses
  // is not saved (it would only pause the shop), and one it cannot check now is saved with that said.
  const typedKey = settingsFormSchema.shape.apiKey.safeParse((input as { apiKey?: unknown }).apiKey);
  const check =
    typedKey.success && typedKey.data ? await checkApiKey(context, session.shop, typedKey.data) : null;
  if (check && !check.ok && check.refused) return { ok: false, errors: { apiKey: check.problem } };
  // The sender is the Sender card's to choose (app/settings/sender-card.tsx): kept as saved here.
  const saved = await saveSettings({ ...context, wake: wakeWorker, shopChanged }, session.shop, input, {
    keepSavedSender: true,
  });
  // Only a message goes back: the saved settings reach the page through the loader, without the key.
  return saved.ok
    ? {
        ok: true,
        saved: true,
        version: saved.version,
        message:
          check && !check.ok
            ? [message("settings:savedUnchecked"), check.problem]
            : message("settings:saved"),
      }
    : { ok: false, errors: saved.errors };
};

type Mapping = OrderSettings;

/** The error paths shown beside a field of this form. */
const FIELD_PATH =
  /^(apiKey|environment|batchAddOrder|mapping\.(paymentRules|deliveryRules)\.\d+\.(match|method)|mapping\.deliveryLiterals\.\w+|mapping\.(payerType|idOrderPrefix|sendNoteAsComment|branchMatchThreshold|splitCashOnDelivery))$/;

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

  const [connection, setConnection] = useState<ConnectionFields>({
    apiKey: "",
    environment: settings.environment,
    batchAddOrder: settings.batchAddOrder,
  });
  const [mapping, setMapping] = useState<Mapping>(settings.mapping);
  // The version these fields stand on: the one loaded, then the one this page's save made. A save made
  // meanwhile elsewhere is not taken in (nor its values: the merchant's entries stay), so this page's next
  // save is refused as changed meanwhile instead of writing over it.
  const [version, setVersion] = useState(settings.version);
  // A saved key is never shown again, not even in the field it was typed into.
  useEffect(() => {
    if (answer?.ok && answer.saved) setConnection((current) => ({ ...current, apiKey: "" }));
    if (answer?.ok && answer.version !== undefined) setVersion(answer.version);
  }, [answer]);

  const errors: Record<string, Message> = answer && !answer.ok ? answer.errors : {};
  const error = (path: string) => {
    const text = errors[path];
    return text ? sayTexts(t, format, text) : undefined;
  };

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    // Optional settings left unset are left out, not sent as empty values.
    const { payerType, deliverySenderId, ...rest } = mapping;
    submit(
      {
        ...connection,
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
        <ConnectionCard
          fields={connection}
          saved={settings}
          error={error}
          onChange={(changes) => setConnection((current) => ({ ...current, ...changes }))}
        />
        <PaymentCard mapping={mapping} error={error} update={update} />
        <DeliveryCard mapping={mapping} defaultLiterals={defaultLiterals} error={error} update={update} />
        <OrdersCard mapping={mapping} error={error} update={update} />

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

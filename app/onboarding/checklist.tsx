// The setup checklist: six steps, each a card that opens (the first not done, or the one named by
// `?step=`) and saves on its own; a done step can be opened again and changed.
import { Link as RemixLink, useNavigation, useRevalidator, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  DataTable,
  FormLayout,
  InlineStack,
  Layout,
  List,
  Page,
  ProgressBar,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import { useFormat } from "../i18n/react";
import { DELIVERY_METHOD_KEYS, PAYMENT_METHOD_KEYS } from "../orders/settings";
import type { PreviewRow } from "./rules.server";
import { ONBOARDING_STEPS, type OnboardingStep } from "./state";
import type { ChecklistView, HomeAnswer } from "./view";

type Submit = (body: Record<string, unknown>) => void;

function useJsonSubmit(): Submit {
  const submit = useSubmit();
  return (body) =>
    submit(body as Parameters<typeof submit>[0], { method: "post", encType: "application/json" });
}

function AnswerBanner({ answer }: { answer: HomeAnswer | undefined }) {
  const { t } = useTranslation("onboarding");
  if (!answer || answer.intent === "previewRules") return null;
  if (answer.ok) {
    return (
      <BlockStack gap="200">
        <Banner tone="success">
          <p>
            <MessageText text={answer.done} />
          </p>
        </Banner>
        {answer.notice && (
          <Banner tone="warning">
            <p>
              <MessageText text={answer.notice} />
            </p>
          </Banner>
        )}
      </BlockStack>
    );
  }
  return (
    <Banner tone="critical" title={t("answer.problemTitle")}>
      <BlockStack gap="100">
        {answer.problems.map((problem, index) => (
          <p key={index}>
            <MessageText text={problem} />
          </p>
        ))}
      </BlockStack>
    </Banner>
  );
}

export function Checklist({ view, answer }: { view: ChecklistView; answer: HomeAnswer | undefined }) {
  const { t } = useTranslation("onboarding");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const done = ONBOARDING_STEPS.filter((step) => view.state.steps[step]).length;
  return (
    <Page title={t("title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p">{t("intro")}</Text>
            <BlockStack gap="100">
              <Text as="p" variant="bodySm" tone="subdued">
                {t("progress", { done, total: ONBOARDING_STEPS.length })}
              </Text>
              <ProgressBar progress={(done / ONBOARDING_STEPS.length) * 100} size="small" tone="success" />
            </BlockStack>
            <AnswerBanner answer={answer} />
            {ONBOARDING_STEPS.map((step, index) => (
              <StepCard key={step} step={step} number={index + 1} view={view} open={view.open === step}>
                {view.open === step && <StepBody step={step} view={view} answer={answer} />}
              </StepCard>
            ))}
            <Card>
              <BlockStack gap="300">
                <Text as="p" tone="subdued">
                  {t("finishHint")}
                </Text>
                <InlineStack gap="200">
                  <Button variant="primary" disabled={busy} onClick={() => submit({ intent: "finish" })}>
                    {t("finish")}
                  </Button>
                  <Button disabled={busy} onClick={() => submit({ intent: "postpone" })}>
                    {t("finishLater")}
                  </Button>
                </InlineStack>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function StepCard(props: {
  step: OnboardingStep;
  number: number;
  view: ChecklistView;
  open: boolean;
  children: React.ReactNode;
}) {
  const { t } = useTranslation("onboarding");
  const { step, number, view, open } = props;
  const isDone = Boolean(view.state.steps[step]);
  return (
    <Card>
      <section aria-labelledby={`step-${step}`}>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h2" variant="headingMd" id={`step-${step}`}>
                {`${number}. ${t(`steps.${step}.title`)}`}
              </Text>
              <Badge tone={isDone ? "success" : undefined}>
                {isDone ? t("badge.done") : t("badge.todo")}
              </Badge>
            </InlineStack>
            {!open && (
              <RemixLink
                to={`/app?step=${step}`}
                aria-label={t(isDone ? "changeStep" : "openStep", { step: t(`steps.${step}.title`) })}
              >
                {isDone ? t("change") : t("open")}
              </RemixLink>
            )}
          </InlineStack>
          <Text as="p" tone="subdued">
            {t(`steps.${step}.description`)}
          </Text>
          {props.children}
        </BlockStack>
      </section>
    </Card>
  );
}

function StepBody(props: { step: OnboardingStep; view: ChecklistView; answer: HomeAnswer | undefined }) {
  switch (props.step) {
    case "connection":
      return <ConnectionStep view={props.view} />;
    case "location":
      return <LocationStep view={props.view} />;
    case "rules":
      return <RulesStep view={props.view} answer={props.answer} />;
    case "sender":
      return <SenderStep view={props.view} />;
    case "notifications":
      return <NotificationsStep view={props.view} />;
    case "catalogue":
      return <CatalogueStep view={props.view} />;
  }
}

function ConnectionStep({ view }: { view: ChecklistView }) {
  const { t } = useTranslation("onboarding");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const [how, setHow] = useState("apiKey");
  const [apiKey, setApiKey] = useState("");
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [environment, setEnvironment] = useState(view.connection.environment);
  const form = () => (how === "login" ? { how, login, password, environment } : { how, apiKey, environment });
  return (
    <FormLayout>
      <Select
        label={t("connection.how")}
        options={[
          { label: t("connection.howApiKey"), value: "apiKey" },
          { label: t("connection.howLogin"), value: "login" },
        ]}
        value={how}
        onChange={setHow}
      />
      {how === "apiKey" ? (
        <TextField
          label={t("connection.apiKey")}
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={setApiKey}
          helpText={
            view.connection.hasApiKey
              ? t("connection.apiKeySaved", { hint: view.connection.apiKeyHint ?? "…" })
              : t("connection.apiKeyNone")
          }
        />
      ) : (
        <FormLayout.Group>
          <TextField label={t("connection.login")} autoComplete="off" value={login} onChange={setLogin} />
          <TextField
            label={t("connection.password")}
            type="password"
            autoComplete="off"
            value={password}
            onChange={setPassword}
            helpText={t("connection.loginHelp")}
          />
        </FormLayout.Group>
      )}
      <Select
        label={t("connection.environment")}
        options={[
          { label: t("connection.production"), value: "production" },
          { label: t("connection.staging"), value: "staging" },
        ]}
        value={environment}
        onChange={setEnvironment}
      />
      <InlineStack gap="200">
        <Button disabled={busy} onClick={() => submit({ intent: "testConnection", ...form() })}>
          {t("connection.test")}
        </Button>
        <Button
          variant="primary"
          disabled={busy}
          onClick={() => submit({ intent: "saveConnection", ...form() })}
        >
          {t("connection.save")}
        </Button>
      </InlineStack>
    </FormLayout>
  );
}

function LocationStep({ view }: { view: ChecklistView }) {
  const { t } = useTranslation("onboarding");
  const { t: tMode } = useTranslation("statuses");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const { choices, current, currentName, mode } = view.location;
  const [choice, setChoice] = useState<"location" | "service">(mode);
  const [locationId, setLocationId] = useState(mode === "location" ? (current ?? "") : "");
  const [address1, setAddress1] = useState("");
  const [city, setCity] = useState("");
  const [zip, setZip] = useState("");
  const modeChoice = (
    <ChoiceList
      title={tMode("mode.title")}
      choices={[
        { label: tMode("mode.location"), value: "location", helpText: tMode("mode.locationHelp") },
        { label: tMode("mode.service"), value: "service", helpText: tMode("mode.serviceHelp") },
      ]}
      selected={[choice]}
      onChange={(selected) => setChoice(selected[0] === "service" ? "service" : "location")}
    />
  );
  const guidance = choice !== mode && (current !== null || mode === "service") && (
    <Banner tone="info" title={tMode("mode.switchTitle")}>
      <BlockStack gap="200">
        <p>{choice === "service" ? tMode("mode.switchToService") : tMode("mode.switchToLocation")}</p>
        <p>{tMode("mode.switchInFlight")}</p>
      </BlockStack>
    </Banner>
  );
  if (choice === "service") {
    return (
      <FormLayout>
        {modeChoice}
        {mode === "service" && currentName && <p>{t("location.serviceCurrent", { name: currentName })}</p>}
        <TextField
          label={tMode("mode.address1")}
          autoComplete="off"
          value={address1}
          onChange={setAddress1}
          helpText={tMode("mode.addressHelp")}
        />
        <FormLayout.Group>
          <TextField label={tMode("mode.city")} autoComplete="off" value={city} onChange={setCity} />
          <TextField label={tMode("mode.zip")} autoComplete="off" value={zip} onChange={setZip} />
        </FormLayout.Group>
        {guidance}
        <InlineStack>
          <Button
            variant="primary"
            disabled={busy}
            onClick={() => submit({ intent: "saveServiceLocation", address1, city, zip })}
          >
            {tMode("mode.register")}
          </Button>
        </InlineStack>
      </FormLayout>
    );
  }
  if (choices === null) return <Banner tone="warning">{t("location.unavailable")}</Banner>;
  if (choices.length === 0) return <Banner tone="warning">{t("location.none")}</Banner>;
  return (
    <FormLayout>
      {modeChoice}
      <Select
        label={t("location.label")}
        placeholder={t("location.placeholder")}
        options={choices.map((choice) => ({ label: choice.name, value: choice.id }))}
        value={locationId}
        onChange={setLocationId}
        helpText={
          mode === "location" && currentName ? t("location.current", { name: currentName }) : undefined
        }
      />
      {guidance}
      <InlineStack>
        <Button
          variant="primary"
          disabled={busy || !locationId}
          onClick={() => submit({ intent: "saveLocation", locationId })}
        >
          {t("location.save")}
        </Button>
      </InlineStack>
    </FormLayout>
  );
}

type Rule = { match: string; method: string };

function RulesStep({ view, answer }: { view: ChecklistView; answer: HomeAnswer | undefined }) {
  const { t } = useTranslation("onboarding");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const rules = view.rules!;
  const [paymentRules, setPaymentRules] = useState<Rule[]>(rules.paymentRules);
  const [deliveryRules, setDeliveryRules] = useState<Rule[]>(rules.deliveryRules);
  const preview = answer?.intent === "previewRules" && answer.preview ? answer.preview : rules.preview;
  const paymentOptions = PAYMENT_METHOD_KEYS.map((key) => ({ value: key, label: t(`rules.payment.${key}`) }));
  const deliveryOptions = DELIVERY_METHOD_KEYS.map((key) => ({
    value: key,
    label: t(`rules.delivery.${key}`),
  }));
  const body = () => ({ paymentRules, deliveryRules });
  const noOrders = rules.gateways.length === 0 && rules.shippingMethods.length === 0;
  return (
    <BlockStack gap="400">
      {noOrders ? (
        <Text as="p">{t("rules.noOrders")}</Text>
      ) : (
        <InlineStack gap="800" wrap>
          <UsedList
            title={t("rules.usedGateways")}
            names={rules.gateways}
            addLabel={(name) => t("rules.addPaymentRuleFor", { name })}
            onAdd={(name) => setPaymentRules((list) => [...list, { match: name, method: "prepaid" }])}
          />
          <UsedList
            title={t("rules.usedShipping")}
            names={rules.shippingMethods}
            addLabel={(name) => t("rules.addDeliveryRuleFor", { name })}
            onAdd={(name) => setDeliveryRules((list) => [...list, { match: name, method: "novaPoshta" }])}
          />
        </InlineStack>
      )}
      <RuleEditor
        title={t("rules.paymentRules")}
        rules={paymentRules}
        options={paymentOptions}
        matchLabel={(number) => t("rules.gatewayContains", { number })}
        addLabel={t("rules.addPaymentRule")}
        onChange={setPaymentRules}
      />
      <RuleEditor
        title={t("rules.deliveryRules")}
        rules={deliveryRules}
        options={deliveryOptions}
        matchLabel={(number) => t("rules.shippingContains", { number })}
        addLabel={t("rules.addDeliveryRule")}
        onChange={setDeliveryRules}
      />
      {answer?.intent === "previewRules" && !answer.ok && <AnswerBanner answer={{ ...answer, intent: "" }} />}
      <InlineStack gap="200">
        <Button disabled={busy} onClick={() => submit({ intent: "previewRules", ...body() })}>
          {t("rules.preview")}
        </Button>
        <Button variant="primary" disabled={busy} onClick={() => submit({ intent: "saveRules", ...body() })}>
          {t("rules.save")}
        </Button>
      </InlineStack>
      <RulesPreview rows={preview} />
    </BlockStack>
  );
}

function UsedList(props: {
  title: string;
  names: { name: string; orders: number }[];
  addLabel: (name: string) => string;
  onAdd: (name: string) => void;
}) {
  const { t } = useTranslation("onboarding");
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {props.title}
      </Text>
      <List>
        {props.names.map(({ name, orders }) => (
          <List.Item key={name}>
            <InlineStack gap="200" blockAlign="center">
              <span>{t("rules.usedCount", { name, count: orders })}</span>
              <Button
                variant="plain"
                accessibilityLabel={props.addLabel(name)}
                onClick={() => props.onAdd(name)}
              >
                {props.addLabel(name)}
              </Button>
            </InlineStack>
          </List.Item>
        ))}
      </List>
    </BlockStack>
  );
}

function RuleEditor(props: {
  title: string;
  rules: Rule[];
  options: { value: string; label: string }[];
  matchLabel: (number: number) => string;
  addLabel: string;
  onChange: (rules: Rule[]) => void;
}) {
  const { t } = useTranslation("onboarding");
  const { rules, onChange } = props;
  const change = (index: number, rule: Partial<Rule>) =>
    onChange(rules.map((current, at) => (at === index ? { ...current, ...rule } : current)));
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {props.title}
      </Text>
      {rules.length === 0 && (
        <Text as="p" tone="subdued">
          {t("rules.noRules")}
        </Text>
      )}
      {rules.map((rule, index) => (
        <FormLayout.Group key={index} condensed>
          <TextField
            label={props.matchLabel(index + 1)}
            autoComplete="off"
            value={rule.match}
            onChange={(match) => change(index, { match })}
          />
          <Select
            label={t("rules.method", { number: index + 1 })}
            options={props.options}
            value={rule.method}
            onChange={(method) => change(index, { method })}
          />
          <div style={{ paddingTop: "1.5rem" }}>
            <Button
              accessibilityLabel={t("rules.remove", { number: index + 1 })}
              onClick={() => onChange(rules.filter((_, at) => at !== index))}
            >
              {t("rules.removeShort")}
            </Button>
          </div>
        </FormLayout.Group>
      ))}
      <InlineStack>
        <Button onClick={() => onChange([...rules, { match: "", method: props.options[0]?.value ?? "" }])}>
          {props.addLabel}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}

function RulesPreview({ rows }: { rows: PreviewRow[] }) {
  const { t } = useTranslation("onboarding");
  const hold = (code: string) => t(`rules.hold.${code}`, { defaultValue: t("rules.hold.other") });
  return (
    <section aria-label={t("rules.previewTitle")}>
      <BlockStack gap="200">
        <Text as="h3" variant="headingSm">
          {t("rules.previewTitle")}
        </Text>
        {rows.length === 0 ? (
          <Text as="p" tone="subdued">
            {t("rules.previewEmpty")}
          </Text>
        ) : (
          <DataTable
            columnContentTypes={["text", "text", "text", "text", "text", "text"]}
            headings={[
              t("rules.column.order"),
              t("rules.column.gateway"),
              t("rules.column.shipping"),
              t("rules.column.payment"),
              t("rules.column.delivery"),
              t("rules.column.result"),
            ]}
            rows={rows.map((row) => [
              row.name,
              row.gateways.join(", "),
              row.shippingMethods.join(", "),
              row.payment ? t(`rules.payment.${row.payment}`) : t("rules.notDecided"),
              row.delivery ? t(`rules.delivery.${row.delivery}`) : t("rules.notDecided"),
              row.sendable
                ? t("rules.sendable")
                : t("rules.held", { reasons: row.holdCodes.map(hold).join(", ") }),
            ])}
          />
        )}
      </BlockStack>
    </section>
  );
}

function SenderStep({ view }: { view: ChecklistView }) {
  const { t } = useTranslation("onboarding");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const sender = view.sender!;
  const [senderId, setSenderId] = useState(sender.current ?? "");
  if (sender.problem || !sender.senders) {
    return (
      <Banner tone="warning">
        <p>{sender.problem ? <MessageText text={sender.problem} /> : t("sender.unavailable")}</p>
      </Banner>
    );
  }
  const { senders } = sender;
  if (senders.length <= 1) {
    return (
      <BlockStack gap="300">
        <Text as="p">{senders[0] ? t("sender.one", { name: senders[0].name }) : t("sender.none")}</Text>
        <InlineStack>
          <Button
            variant="primary"
            disabled={busy}
            onClick={() => submit({ intent: "saveSender", senderId: "" })}
          >
            {t("sender.continue")}
          </Button>
        </InlineStack>
      </BlockStack>
    );
  }
  return (
    <FormLayout>
      <Select
        label={t("sender.label")}
        options={[
          { label: t("sender.default"), value: "" },
          ...senders.map((choice) => ({ label: choice.name, value: choice.id })),
        ]}
        value={senderId}
        onChange={setSenderId}
      />
      <InlineStack>
        <Button variant="primary" disabled={busy} onClick={() => submit({ intent: "saveSender", senderId })}>
          {t("sender.save")}
        </Button>
      </InlineStack>
    </FormLayout>
  );
}

function NotificationsStep({ view }: { view: ChecklistView }) {
  const { t } = useTranslation("onboarding");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const url = view.notifications?.url ?? null;
  if (!url) return <Banner tone="warning">{t("notifications.unavailable")}</Banner>;
  const copy = () =>
    navigator.clipboard.writeText(url).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  return (
    <BlockStack gap="300">
      <Text as="p">{t("notifications.help")}</Text>
      <TextField
        label={t("notifications.label")}
        value={url}
        readOnly
        autoComplete="off"
        connectedRight={<Button onClick={() => void copy()}>{t("notifications.copy")}</Button>}
      />
      {copied && (
        <Text as="p" tone={copied === "yes" ? "success" : "critical"}>
          {copied === "yes" ? t("notifications.copied") : t("notifications.copyFailed")}
        </Text>
      )}
      <InlineStack>
        <Button variant="primary" disabled={busy} onClick={() => submit({ intent: "confirmNotifications" })}>
          {t("notifications.confirm")}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}

const CATALOGUE_POLL_MS = 2_000;
const RUNNING = new Set(["shopify", "warehouse", "sending"]);

function CatalogueStep({ view }: { view: ChecklistView }) {
  const { t } = useTranslation("onboarding");
  const format = useFormat();
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const sync = view.catalogue;
  const running = sync !== null && RUNNING.has(sync.phase);
  const { revalidate, state } = useRevalidator();
  // While a sync runs, the page asks for its progress again every few seconds.
  useEffect(() => {
    if (!running || state !== "idle") return;
    const timer = setTimeout(revalidate, CATALOGUE_POLL_MS);
    return () => clearTimeout(timer);
  }, [running, state, revalidate]);
  return (
    <BlockStack gap="300">
      {sync && (
        <BlockStack gap="200">
          <Text as="p" fontWeight="semibold">
            {t(`catalogue.phase.${sync.phase}`, { defaultValue: sync.phase })}
          </Text>
          {sync.toSend > 0 && (
            <ProgressBar progress={Math.min(100, (sync.sent / sync.toSend) * 100)} size="small" />
          )}
          <Text as="p" tone="subdued">
            {t("catalogue.progress", {
              sent: format.number(sync.sent),
              toSend: format.number(sync.toSend),
              read: format.number(sync.read),
            })}
          </Text>
          {sync.finishedAt && (
            <Text as="p">{t("catalogue.finishedAt", { at: format.dateTime(sync.finishedAt) })}</Text>
          )}
          {sync.errors.length > 0 && (
            <BlockStack gap="100">
              <Text as="p">{t("catalogue.problems")}</Text>
              <List>
                {sync.errors.map((error, index) => (
                  <List.Item key={index}>
                    <MessageText text={error} />
                  </List.Item>
                ))}
              </List>
            </BlockStack>
          )}
        </BlockStack>
      )}
      <InlineStack>
        <Button variant="primary" disabled={busy || running} onClick={() => submit({ intent: "startSync" })}>
          {sync ? t("catalogue.startAgain") : t("catalogue.start")}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}

// The checklist's rules step: the payment gateways and shipping rates of recent orders, one click from a
// rule each; the payment and delivery rules (the shared editor, app/components/rule-editor.tsx); and a
// preview of what the rules make of recent orders, before they are saved.
import { useNavigation } from "@remix-run/react";
import { BlockStack, Button, DataTable, InlineStack, List, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RuleEditor, type Rule } from "../components/rule-editor";
import { DELIVERY_METHOD_KEYS, PAYMENT_METHOD_KEYS } from "../orders/settings";
import type { PreviewRow } from "./rules.server";
import { AnswerBanner, useJsonSubmit } from "./step-answer";
import type { ChecklistView, HomeAnswer } from "./view";

export function RulesStep({ view, answer }: { view: ChecklistView; answer: HomeAnswer | undefined }) {
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
  // What both editors say alike; each adds its own match label and add button.
  const labels = {
    none: t("rules.noRules"),
    method: (number: number) => t("rules.method", { number }),
    remove: (number: number) => t("rules.remove", { number }),
    removeShort: t("rules.removeShort"),
  };
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
        methods={paymentOptions}
        labels={{
          ...labels,
          match: (number) => t("rules.gatewayContains", { number }),
          add: t("rules.addPaymentRule"),
        }}
        onChange={setPaymentRules}
      />
      <RuleEditor
        title={t("rules.deliveryRules")}
        rules={deliveryRules}
        methods={deliveryOptions}
        labels={{
          ...labels,
          match: (number) => t("rules.shippingContains", { number }),
          add: t("rules.addDeliveryRule"),
        }}
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

// Settings' delivery card: the rules that tell the delivery method from an order's shipping rates, the text
// each method is sent to the warehouse as (the default beside it), and who pays for delivery.
import { BlockStack, Card, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { DELIVERY_METHOD_KEYS, type OrderSettings } from "../orders/settings";
import { RuleList, type FieldError } from "./rule-list";

type Mapping = OrderSettings;

export function DeliveryCard({
  mapping,
  defaultLiterals,
  error,
  update,
}: {
  mapping: Mapping;
  defaultLiterals: Mapping["deliveryLiterals"];
  error: FieldError;
  update: (changes: Partial<Mapping>) => void;
}) {
  const { t } = useTranslation("settings");
  const deliveryMethods = DELIVERY_METHOD_KEYS.map((value) => ({
    value,
    label: t(`methods.delivery.${value}`),
  }));
  return (
    <Layout.AnnotatedSection title={t("delivery.title")} description={t("delivery.description")}>
      <BlockStack gap="400">
        <Card>
          <RuleList
            kind="delivery"
            rules={mapping.deliveryRules}
            methods={deliveryMethods}
            error={error}
            onChange={(deliveryRules) => update({ deliveryRules: deliveryRules as Mapping["deliveryRules"] })}
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
  );
}

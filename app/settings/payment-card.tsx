// Settings' payment card: the rules that tell the payment method from an order's gateway names.
import { Card, Layout } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { PAYMENT_METHOD_KEYS, type OrderSettings } from "../orders/settings";
import { RuleList, type FieldError } from "./rule-list";

type Mapping = OrderSettings;

export function PaymentCard({
  mapping,
  error,
  update,
}: {
  mapping: Mapping;
  error: FieldError;
  update: (changes: Partial<Mapping>) => void;
}) {
  const { t } = useTranslation("settings");
  const paymentMethods = PAYMENT_METHOD_KEYS.map((value) => ({
    value,
    label: t(`methods.payment.${value}`),
  }));
  return (
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
  );
}

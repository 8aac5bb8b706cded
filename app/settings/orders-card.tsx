// Settings' orders card: the order number prefix, the order note sent as the warehouse's comment, how close
// a branch's name must be to be taken, and what a split order paid on delivery does.
import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { SPLIT_COD_SETTINGS, type OrderSettings } from "../orders/settings";
import type { FieldError } from "./rule-list";

type Mapping = OrderSettings;

export function OrdersCard({
  mapping,
  error,
  update,
}: {
  mapping: Mapping;
  error: FieldError;
  update: (changes: Partial<Mapping>) => void;
}) {
  const { t } = useTranslation("settings");
  return (
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
  );
}

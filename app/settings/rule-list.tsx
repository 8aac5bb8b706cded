// Settings' payment or delivery rules: the shared rule editor (app/components/rule-editor.tsx) in the
// settings' words, each field's error beside it by its path in the form ("mapping.paymentRules.0.match").
import { useTranslation } from "react-i18next";
import { RuleEditor, type Rule } from "../components/rule-editor";

/** The error beside the field at a dotted path of the settings form, in the admin's words. */
export type FieldError = (path: string) => string | undefined;

export function RuleList<R extends Rule>({
  kind,
  rules,
  methods,
  error,
  onChange,
}: {
  kind: "payment" | "delivery";
  rules: R[];
  methods: { value: string; label: string }[];
  error: FieldError;
  onChange: (rules: R[]) => void;
}) {
  const { t } = useTranslation("settings");
  const path = kind === "payment" ? "mapping.paymentRules" : "mapping.deliveryRules";
  return (
    <RuleEditor
      rules={rules}
      methods={methods}
      labels={{
        none: t(`rules.${kind}.none`),
        match: (number) => t(`rules.${kind}.match`, { number }),
        method: (number) => t("rules.method", { number }),
        remove: (number) => t(`rules.${kind}.remove`, { number }),
        removeShort: t("rules.removeButton"),
        add: t(`rules.${kind}.add`),
      }}
      error={(index, field) => error(`${path}.${index}.${field}`)}
      onChange={onChange}
    />
  );
}

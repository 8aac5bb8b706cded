// Settings' connection card: the warehouse ApiKey (typed, never shown again: only the saved key's last
// four characters), the environment and batch sending. The fields' values are the settings form's.
import { Card, Checkbox, FormLayout, Layout, Select, TextField } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import type { FieldError } from "./rule-list";

export interface ConnectionFields {
  apiKey: string;
  environment: string;
  batchAddOrder: boolean;
}

export function ConnectionCard({
  fields,
  saved: settings,
  error,
  onChange,
}: {
  fields: ConnectionFields;
  saved: { hasApiKey: boolean; apiKeyHint: string | null };
  error: FieldError;
  onChange: (changes: Partial<ConnectionFields>) => void;
}) {
  const { t } = useTranslation("settings");
  const { apiKey, environment, batchAddOrder } = fields;
  const setApiKey = (value: string) => onChange({ apiKey: value });
  const setEnvironment = (value: string) => onChange({ environment: value });
  const setBatchAddOrder = (value: boolean) => onChange({ batchAddOrder: value });
  return (
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
  );
}

// The checklist's connection step: the ApiKey, or the account's login and password, and the environment;
// "Test" checks it and saves nothing, "Save" checks it and saves it unless the warehouse refuses it.
import { useNavigation } from "@remix-run/react";
import { Button, FormLayout, InlineStack, Select, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useJsonSubmit } from "./step-answer";
import type { ChecklistView } from "./view";

export function ConnectionStep({ view }: { view: ChecklistView }) {
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

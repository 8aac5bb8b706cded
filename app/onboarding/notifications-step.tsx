// The checklist's notifications step: the address the warehouse calls on a status change, to copy and give
// the warehouse manager, then confirmed as given.
import { useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useJsonSubmit } from "./step-answer";
import type { ChecklistView } from "./view";

export function NotificationsStep({ view }: { view: ChecklistView }) {
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

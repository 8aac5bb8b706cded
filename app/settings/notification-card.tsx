// Settings' notification address card: the address the warehouse calls on a status change, shown whole,
// copied with a button, and replaced only after a confirmation (the old one stops working).
import { Banner, BlockStack, Button, Card, InlineStack, Layout, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import type { Message } from "../i18n/message";

/** The warehouse notification address: shown whole, copied with a button, replaced after a confirmation. */
export function NotificationAddress({
  address,
  replacing,
  onReplace,
}: {
  address: { ok: true; url: string } | { ok: false; message: Message };
  replacing: boolean;
  onReplace: () => void;
}) {
  const { t } = useTranslation("settings");
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  // A new address is a new thing to copy.
  const url = address.ok ? address.url : null;
  useEffect(() => {
    setCopied(null);
    setConfirming(false);
  }, [url]);
  const copy = () => {
    if (!url) return;
    navigator.clipboard.writeText(url).then(
      () => setCopied("yes"),
      () => setCopied("failed"),
    );
  };
  return (
    <Layout.AnnotatedSection title={t("notifications.title")} description={t("notifications.description")}>
      <Card>
        <BlockStack gap="300">
          {address.ok ? (
            <TextField
              label={t("notifications.address")}
              autoComplete="off"
              readOnly
              value={address.url}
              onFocus={(event) => (event?.target as HTMLInputElement | undefined)?.select()}
              connectedRight={<Button onClick={copy}>{t("notifications.copy")}</Button>}
              helpText={
                copied === "yes"
                  ? t("notifications.copied")
                  : copied === "failed"
                    ? t("notifications.copyFailed")
                    : undefined
              }
            />
          ) : (
            <Banner tone="warning">
              <p>
                <MessageText text={address.message} />
              </p>
            </Banner>
          )}
          {confirming ? (
            <Banner tone="warning" title={t("notifications.confirmTitle")}>
              <BlockStack gap="200">
                <p>{t("notifications.confirmBody")}</p>
                <InlineStack gap="200">
                  <Button variant="primary" tone="critical" loading={replacing} onClick={onReplace}>
                    {t("notifications.confirm")}
                  </Button>
                  <Button onClick={() => setConfirming(false)}>{t("notifications.keep")}</Button>
                </InlineStack>
              </BlockStack>
            </Banner>
          ) : (
            <InlineStack>
              <Button onClick={() => setConfirming(true)}>{t("notifications.replace")}</Button>
            </InlineStack>
          )}
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

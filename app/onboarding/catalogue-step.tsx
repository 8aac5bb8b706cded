// The checklist's catalogue step: the first catalogue sync started, and its progress asked for again every
// few seconds while it runs, with the problems it met.
import { useNavigation, useRevalidator } from "@remix-run/react";
import { BlockStack, Button, InlineStack, List, ProgressBar, Text } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import { useFormat } from "../i18n/react";
import { useJsonSubmit } from "./step-answer";
import type { ChecklistView } from "./view";

const CATALOGUE_POLL_MS = 2_000;
const RUNNING = new Set(["shopify", "warehouse", "sending"]);

export function CatalogueStep({ view }: { view: ChecklistView }) {
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

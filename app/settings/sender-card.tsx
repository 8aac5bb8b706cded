// Settings' Sender card: which of the account's legal entities sends the parcels (`delivery_sender_id`),
// or the warehouse's default. The account's senders are read from the warehouse through its own route
// (app/routes/app.settings_.sender.tsx) once the page is open; the saved choice is marked, a saved id the
// warehouse no longer lists is said, and a warehouse that cannot answer leaves the saved id shown.
import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Layout, RadioButton, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import type { SenderAnswer, SenderCardView } from "./senders.server";

const SENDER_ROUTE = "/app/settings/sender";

export function SenderCard() {
  const { t } = useTranslation("settings");
  const list = useFetcher<SenderCardView>();
  const save = useFetcher<SenderAnswer>();
  // What the merchant picked on this page, kept through the list's reloads: Remix reads the list again
  // after any save on the page (the main form's too), and a reload answering after a pick must not undo it.
  const [picked, setPicked] = useState<string | null>(null);
  const view = list.data;
  const choice = picked ?? (view ? (view.saved ?? "") : null);

  const asked = useRef(false);
  useEffect(() => {
    // Once, when the page opens; saving reads it again by itself (a fetcher's data is revalidated).
    if (asked.current) return;
    asked.current = true;
    list.load(SENDER_ROUTE);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The version the pick stands on: the first list's, then this card's own saves'. A save made meanwhile
  // elsewhere is not taken in from a later list, so this card's next save says so instead of writing over it.
  const [version, setVersion] = useState<number | null>(null);
  useEffect(() => {
    if (version === null && view) setVersion(view.version);
  }, [version, view]);
  useEffect(() => {
    if (save.state === "idle" && save.data?.ok) setVersion(save.data.version);
  }, [save.state, save.data]);

  const saving = save.state !== "idle";
  const answer = save.state === "idle" ? save.data : undefined;
  const saved = view?.saved ?? null;

  const body = () => {
    if (!view) return <Text as="p">{t("sender.loading")}</Text>;
    if (view.state === "noKey") return <Text as="p">{t("sender.noKey")}</Text>;
    if (view.state === "paused") return <Text as="p">{t("sender.paused")}</Text>;
    if (view.state === "failed") {
      return (
        <Banner tone="warning" title={t("sender.unavailable")}>
          <BlockStack gap="200">
            <p>
              <MessageText text={view.problem} />
            </p>
            <InlineStack>
              <Button loading={list.state !== "idle"} onClick={() => list.load(SENDER_ROUTE)}>
                {t("sender.retry")}
              </Button>
            </InlineStack>
          </BlockStack>
        </Banner>
      );
    }
    const options = [
      { id: "", label: t("sender.default") },
      ...view.senders.map((sender) => ({
        id: sender.id,
        label: t("sender.option", { name: sender.name, id: sender.id }),
      })),
    ];
    return (
      <BlockStack gap="200">
        {!view.savedListed && saved && (
          <Banner tone="warning" title={t("sender.goneTitle")}>
            <p>{t("sender.gone", { id: saved })}</p>
          </Banner>
        )}
        {view.senders.length === 0 && (
          <Text as="p" tone="subdued">
            {t("sender.none")}
          </Text>
        )}
        {options.map((option) => (
          <RadioButton
            key={option.id}
            id={`sender-${option.id || "default"}`}
            name="sender"
            label={option.label}
            helpText={option.id === (saved ?? "") ? t("sender.current") : undefined}
            checked={choice === option.id}
            onChange={() => setPicked(option.id)}
          />
        ))}
        <InlineStack>
          <Button
            variant="primary"
            loading={saving}
            disabled={choice === null || choice === (saved ?? "")}
            onClick={() =>
              save.submit(
                { senderId: choice ?? "", ...(version !== null && { version }) },
                { method: "post", action: SENDER_ROUTE, encType: "application/json" },
              )
            }
          >
            {t("sender.save")}
          </Button>
        </InlineStack>
      </BlockStack>
    );
  };

  return (
    <Layout.AnnotatedSection title={t("sender.title")} description={t("sender.description")}>
      <Card>
        <BlockStack gap="300">
          {answer?.ok && (
            <Banner tone="success">
              <MessageText text={answer.done} />
            </Banner>
          )}
          {answer && !answer.ok && (
            <Banner tone="critical">
              <MessageText text={answer.problems} />
            </Banner>
          )}
          {body()}
          {saved && view?.state !== "listed" && (
            <Text as="p" tone="subdued">
              {t("sender.savedId", { id: saved })}
            </Text>
          )}
        </BlockStack>
      </Card>
    </Layout.AnnotatedSection>
  );
}

// The checklist's sender step: which of the account's legal entities sends the parcels, asked only when
// the account has more than one; a warehouse that cannot list them is said.
import { useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, FormLayout, InlineStack, Select, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { MessageText } from "../components/message-text";
import { useJsonSubmit } from "./step-answer";
import type { ChecklistView } from "./view";

export function SenderStep({ view }: { view: ChecklistView }) {
  const { t } = useTranslation("onboarding");
  const submit = useJsonSubmit();
  const busy = useNavigation().state !== "idle";
  const sender = view.sender!;
  const [senderId, setSenderId] = useState(sender.current ?? "");
  if (sender.problem || !sender.senders) {
    return (
      <Banner tone="warning">
        <p>{sender.problem ? <MessageText text={sender.problem} /> : t("sender.unavailable")}</p>
      </Banner>
    );
  }
  const { senders } = sender;
  if (senders.length <= 1) {
    return (
      <BlockStack gap="300">
        <Text as="p">{senders[0] ? t("sender.one", { name: senders[0].name }) : t("sender.none")}</Text>
        <InlineStack>
          <Button
            variant="primary"
            disabled={busy}
            onClick={() => submit({ intent: "saveSender", senderId: "" })}
          >
            {t("sender.continue")}
          </Button>
        </InlineStack>
      </BlockStack>
    );
  }
  return (
    <FormLayout>
      <Select
        label={t("sender.label")}
        options={[
          { label: t("sender.default"), value: "" },
          ...senders.map((choice) => ({ label: choice.name, value: choice.id })),
        ]}
        value={senderId}
        onChange={setSenderId}
      />
      <InlineStack>
        <Button variant="primary" disabled={busy} onClick={() => submit({ intent: "saveSender", senderId })}>
          {t("sender.save")}
        </Button>
      </InlineStack>
    </FormLayout>
  );
}

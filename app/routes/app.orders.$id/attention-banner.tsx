// The order page's banner for an order that needs the merchant: the problem as its title, and what the order
// says of it with its moments in the admin's words.
import { Banner } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { MessageText } from "../../components/message-text";
import { useFormat } from "../../i18n/react";
import { ATTENTION, type Attention } from "../../orders/states";
import { withMoments } from "./moments";
import type { OrderView } from "./view";

// Each problem the merchant must solve has its banner title (orders:attention.*).
const ATTENTIONS = new Set<string>(Object.values(ATTENTION));

/** The problem of an order that needs the merchant, and what the order says of it. */
export function AttentionBanner({
  attention,
  texts,
}: {
  attention: string;
  texts: OrderView["attentionTexts"];
}) {
  const { t } = useTranslation("orders");
  const format = useFormat();
  return (
    <Banner
      tone="critical"
      title={
        ATTENTIONS.has(attention) ? t(`attention.${attention as Attention}`) : t("detail.attentionDefault")
      }
    >
      {texts.length > 0 && (
        <p>
          <MessageText text={texts.map((text) => withMoments(text, format.dateTime))} />
        </p>
      )}
    </Banner>
  );
}

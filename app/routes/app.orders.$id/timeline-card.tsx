// The order page's timeline: one page of the order's events, newest first, each with the request sent and
// the answer read (or the facts behind it), and links to the older and the newest pages.
import { Badge, BlockStack, InlineStack, Link, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { MessageText } from "../../components/message-text";
import { eventLabel } from "../../components/order-event";
import { useFormat } from "../../i18n/react";
import { JsonBlock } from "./json-block";
import { useWhen, withMoments } from "./moments";
import type { OrderView } from "./view";
import { TitledCard } from "../../components/titled-card";

/** The order's timeline, one page of it. */
export function TimelineCard({ order }: { order: OrderView }) {
  const { t } = useTranslation("orders");
  const format = useFormat();
  const when = useWhen();
  return (
    <TitledCard title={t("detail.timeline")}>
      {order.events.length === 0 && (
        <Text as="p" tone="subdued">
          {t("detail.noEvents")}
        </Text>
      )}
      <BlockStack gap="300">
        {order.events.map((event) => (
          <div key={event.id} data-event-kind={event.kind}>
            <BlockStack gap="100">
              <InlineStack gap="200" blockAlign="baseline">
                <Text as="span" tone="subdued" variant="bodySm">
                  {when(event.at)}
                </Text>
                <Badge>{eventLabel(t, event.kind)}</Badge>
                <Text as="span" fontWeight="semibold">
                  <MessageText text={event.texts.map((text) => withMoments(text, format.dateTime))} />
                </Text>
              </InlineStack>
              {event.dataJson && (
                <details>
                  <summary>
                    <Text as="span" variant="bodySm">
                      {event.exchange ? t("detail.requestAndAnswer") : t("detail.details")}
                    </Text>
                  </summary>
                  <JsonBlock label={t("detail.eventDetails")} json={event.dataJson} />
                </details>
              )}
            </BlockStack>
          </div>
        ))}
      </BlockStack>
      {(order.olderEvents || order.olderPage) && (
        <InlineStack gap="300">
          {order.olderPage && <Link url={`/app/orders/${order.id}`}>{t("detail.newestEvents")}</Link>}
          {order.olderEvents && (
            <Link url={`/app/orders/${order.id}?before=${order.olderEvents}`}>{t("detail.olderEvents")}</Link>
          )}
        </InlineStack>
      )}
    </TitledCard>
  );
}

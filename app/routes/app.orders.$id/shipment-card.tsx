// The order page's card for where the order is once the warehouse has it (stage, waybill, the statuses as
// reported) and what Shopify's fulfillment has been told of it.
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Divider,
  InlineGrid,
  InlineStack,
  Link,
  List,
  Text,
} from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { MessageText } from "../../components/message-text";
import { StageBadge } from "../../components/order-stage";
import { type Message } from "../../i18n/message";
import { useFormat } from "../../i18n/react";
import type { ReportedStatus } from "../../orders/queries.server";
import { STAGE, type Stage } from "../../orders/states";
import { Fact } from "./fact";

// The events Shopify's fulfillment may have been told, each with its label (orders:fulfillmentEvent.*).
const FULFILLMENT_EVENTS = [
  "IN_TRANSIT",
  "OUT_FOR_DELIVERY",
  "READY_FOR_PICKUP",
  "ATTEMPTED_DELIVERY",
  "DELAYED",
  "DELIVERED",
  "FAILURE",
] as const;
type FulfillmentEvent = (typeof FULFILLMENT_EVENTS)[number];
const isFulfillmentEvent = (event: string): event is FulfillmentEvent =>
  (FULFILLMENT_EVENTS as readonly string[]).includes(event);

interface ShipmentProps {
  shipment: {
    stage: Stage | null;
    stageAt: string | null;
    ttn: string | null;
    trackingUrl: string | null;
    warehouseStatus: ReportedStatus | null;
    carrierStatus: ReportedStatus | null;
    statusCheckedAt: string | null;
  };
  fulfillment: {
    made: boolean;
    ttn: string | null;
    event: string | null;
    due: boolean;
    waitingForLocation: boolean;
    /** Shopify's own words about what it refused. */
    problem: Message | null;
    /** What stays unfulfilled in Shopify because the warehouse did not ship it. */
    unshipped: Array<{ sku: string | null; title: string; quantity: number }>;
  };
}

/** Where the order is once the warehouse has it, and what Shopify has been told of it. */
export function ShipmentCard({ shipment, fulfillment }: ShipmentProps) {
  const { t } = useTranslation("orders");
  const format = useFormat();
  return (
    <Card>
      <section aria-labelledby="shipment-heading">
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd" id="shipment-heading">
              {t("detail.atWarehouse")}
            </Text>
            {shipment.stage && <StageBadge stage={shipment.stage} />}
          </InlineStack>
          <Text as="p">{t(`stageDescription.${shipment.stage ?? "none"}`)}</Text>
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
            {shipment.stageAt && (
              <Fact term={t("detail.stageReached")}>{format.dateTime(shipment.stageAt)}</Fact>
            )}
            <Fact term={t("detail.waybill")}>
              {shipment.ttn && shipment.trackingUrl ? (
                <Text as="span" breakWord>
                  <Link url={shipment.trackingUrl} target="_blank">
                    {shipment.ttn}
                  </Link>
                </Text>
              ) : (
                (shipment.ttn ?? t("detail.notYetGiven"))
              )}
            </Fact>
            <Fact term={t("detail.warehouseStatus")}>
              <StatusAsReported status={shipment.warehouseStatus} />
            </Fact>
            <Fact term={t("detail.carrierStatus")}>
              <StatusAsReported status={shipment.carrierStatus} />
            </Fact>
            <Fact term={t("detail.lastChecked")}>
              {shipment.statusCheckedAt ? format.dateTime(shipment.statusCheckedAt) : t("detail.notYet")}
            </Fact>
          </InlineGrid>
          <Divider />
          <Text as="h3" variant="headingSm">
            {t("detail.inShopify")}
          </Text>
          <FulfillmentState shipment={shipment} fulfillment={fulfillment} />
        </BlockStack>
      </section>
    </Card>
  );
}

/** A status with its date exactly as the warehouse reported them. */
function StatusAsReported({ status }: { status: ReportedStatus | null }) {
  const { t } = useTranslation("orders");
  if (!status) return <Text as="span">{t("detail.noneReported")}</Text>;
  return (
    <BlockStack gap="050">
      <Text as="span">
        {status.name && status.id ? `${status.name} (${status.id})` : status.name || status.id}
      </Text>
      {status.date && (
        <Text as="span" variant="bodySm" tone="subdued">
          {status.date}
        </Text>
      )}
    </BlockStack>
  );
}

function FulfillmentState({ shipment, fulfillment }: ShipmentProps) {
  const { t } = useTranslation("orders");
  if (fulfillment.problem) {
    return (
      <Banner tone="critical" title={t("detail.fulfillmentProblemTitle")}>
        <BlockStack gap="100">
          <p>
            <MessageText text={fulfillment.problem} />
          </p>
          <p>{t("detail.fulfillmentProblemHelp")}</p>
        </BlockStack>
      </Banner>
    );
  }
  if (fulfillment.made) {
    return (
      <BlockStack gap="200">
        <Text as="p">
          {fulfillment.ttn ? t("detail.fulfilledWith", { ttn: fulfillment.ttn }) : t("detail.fulfilled")}
        </Text>
        {fulfillment.unshipped.length > 0 && <UnshippedBanner items={fulfillment.unshipped} />}
        {fulfillment.due && (
          <Text as="p" tone="subdued">
            {t("detail.fulfillmentDue")}
          </Text>
        )}
        {fulfillment.event && (
          <Fact term={t("detail.lastDeliveryEvent")}>
            {isFulfillmentEvent(fulfillment.event)
              ? t(`fulfillmentEvent.${fulfillment.event}`)
              : fulfillment.event}
          </Fact>
        )}
      </BlockStack>
    );
  }
  if (fulfillment.waitingForLocation) {
    return (
      <Banner tone="warning" title={t("detail.chooseLocationTitle")}>
        <BlockStack gap="100">
          <p>{t("detail.chooseLocationBody")}</p>
          <InlineStack>
            <Button url="/app/settings/statuses">{t("detail.chooseInSettings")}</Button>
          </InlineStack>
        </BlockStack>
      </Banner>
    );
  }
  if (fulfillment.due) {
    return <Text as="p">{t("detail.fulfillmentWaiting")}</Text>;
  }
  const { stage } = shipment;
  return (
    <Text as="p" tone="subdued">
      {stage === STAGE.cancelledAtWarehouse || stage === STAGE.returned
        ? t("detail.nothingFulfilled")
        : (stage === STAGE.shipped || stage === STAGE.delivered) && !shipment.ttn
          ? t("detail.fulfilledOnceWaybill")
          : t("detail.fulfilledOnceShipped")}
    </Text>
  );
}

/** What the fulfillment left out because the warehouse did not ship it, item by item. */
function UnshippedBanner({ items }: { items: ShipmentProps["fulfillment"]["unshipped"] }) {
  const { t } = useTranslation("orders");
  return (
    <Banner tone="warning" title={t("detail.unshippedTitle")}>
      <BlockStack gap="100">
        <p>{t("detail.unshippedBody")}</p>
        <List type="bullet">
          {items.map((item) => (
            <List.Item key={`${item.sku ?? ""}|${item.title}`}>
              {item.sku
                ? t("detail.unshippedItemSku", {
                    title: item.title || item.sku,
                    sku: item.sku,
                    quantity: item.quantity,
                  })
                : t("detail.unshippedItem", { title: item.title, quantity: item.quantity })}
            </List.Item>
          ))}
        </List>
      </BlockStack>
    </Banner>
  );
}

// One order: where it stands and why, what held it with a form for each fix, the actions on it, where it is
// once the warehouse has it (stage, waybill, statuses, the Shopify fulfillment), the exact body the
// warehouse has, and its timeline with the requests sent and the answers read.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useFetcher, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
  Autocomplete,
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  Divider,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  List,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { eventLabel } from "../components/order-event";
import { StageBadge } from "../components/order-stage";
import { OrderStateBadge } from "../components/order-state";
import { useHydrated } from "../components/use-hydrated";
import { appContext } from "../context.server";
import { message, translate, type Message } from "../i18n/message";
import { useFormat } from "../i18n/react";
import { cancelAtWarehouse, correctOrder, submitNow } from "../orders/actions.server";
import { orderDetail, type ReportedStatus } from "../orders/queries.server";
import { DELIVERY_METHOD_KEYS, type DeliveryMethodKey } from "../orders/settings";
import { ATTENTION, STAGE, type Attention, type OrderState, type Stage } from "../orders/states";
import { percent, type BranchCandidate } from "../reference/types";
import { returnsOfOrder } from "../returns/queries.server";
import { authenticate } from "../shopify.server";
import { OrderRequests } from "../service/order-requests";
import { orderRequests, retryOrderAnswers } from "../service/order-requests.server";
import { CARRIER_REF_PATTERN } from "../warehouse/wire";
import type { BranchSearchAnswer } from "./app.branches";
import type { StreetSearchAnswer } from "./app.streets";
import { wakeWorker } from "../work/worker.server";

const timelineCursorSchema = z.string().regex(/^[a-z0-9]{1,64}$/);

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value, null, 2);

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  // A cursor that is not an event id shows the newest page, as if none was given.
  const before = timelineCursorSchema.safeParse(new URL(request.url).searchParams.get("before"));
  const order = await orderDetail(
    db,
    session.shop,
    params.id ?? "",
    before.success ? { eventsBefore: before.data } : {},
  );
  if (!order) return { order: null, deliveryMethods: DELIVERY_METHOD_KEYS };
  // Moments travel as instants; the page says them in the admin's language and the shop's time zone.
  const time = (date: Date | null) => (date ? date.toISOString() : null);
  const returns = await returnsOfOrder(db, session.shop, order.id);
  const serviceRequests = await orderRequests(db, session.shop, order.shopifyOrderId);
  return {
    order: {
      id: order.id,
      orderName: order.orderName,
      shopifyOrderId: order.shopifyOrderId,
      idOrder: order.idOrder,
      idOrderFF: order.idOrderFF,
      keyOrder: order.keyOrder,
      state: order.state,
      waitReason: order.waitReason,
      warehouseLineCount: order.warehouseLineCount,
      pending: order.pending,
      attention: order.attention,
      attentionTexts: order.attentionTexts,
      lastError: order.lastError,
      attempts: order.attempts,
      nextAttemptAt: time(order.nextAttemptAt),
      placedAt: time(order.orderCreatedAt),
      acceptedAt: time(order.acceptedAt),
      dataErasedAt: time(order.dataErasedAt),
      holdReasons: order.holdReasons,
      overrides: order.overrides,
      shipment: {
        ...order.shipment,
        stageAt: time(order.shipment.stageAt),
        statusCheckedAt: time(order.shipment.statusCheckedAt),
      },
      fulfillment: {
        made: order.fulfillment.made,
        ttn: order.fulfillment.ttn,
        event: order.fulfillment.event,
        due: order.fulfillment.due,
        waitingForLocation: order.fulfillment.waitingForLocation,
        problem: order.fulfillment.problem?.text ?? null,
        unshipped: order.fulfillment.unshipped,
      },
      mappedJson: json(order.mapped),
      sentOrderJson: json(order.sentOrder),
      events: order.events.map((event) => ({
        id: event.id,
        at: time(event.at),
        kind: event.kind,
        texts: event.texts,
        dataJson: json(event.data),
        // The data of a call to the warehouse holds the request sent (and the answer, when one came).
        exchange: typeof event.data === "object" && event.data !== null && "request" in event.data,
      })),
      olderEvents: order.olderEvents,
      olderPage: before.success,
      returns: returns.map((booked) => ({ ...booked, returnedAt: time(booked.returnedAt) })),
      serviceRequests,
    },
    deliveryMethods: DELIVERY_METHOD_KEYS,
  };
};

const FIXES = ["phone", "deliveryMethod", "warehouseRef", "courierAddress", "postcode", "splitCod"] as const;
type Fix = (typeof FIXES)[number];

const intentSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("submit") }),
    z.object({ intent: z.literal("retry") }),
    z.object({ intent: z.literal("cancel") }),
    z.object({ intent: z.literal("retryServiceAnswer") }),
    z.object({ intent: z.literal("correct"), fix: z.enum(FIXES) }),
  ],
  { error: "orders:answer.unknownAction" },
);
const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : undefined);

/** The corrections one fix form sends, as correctOrder's overrides; correctOrder checks them. */
function overridesFrom(fix: Fix, form: FormData): Record<string, unknown> {
  switch (fix) {
    case "phone":
      return { phone: text(form.get("phone")) };
    case "deliveryMethod":
      return { deliveryMethod: text(form.get("deliveryMethod")) };
    case "warehouseRef":
      return { warehouseRef: text(form.get("warehouseRef")) };
    case "postcode":
      return { postcode: text(form.get("postcode")) };
    case "splitCod":
      return { splitCod: text(form.get("splitCod")) };
    case "courierAddress":
      return {
        courier: {
          street: text(form.get("street")),
          house: text(form.get("house")),
          flat: text(form.get("flat")) || undefined,
          // The city the held address is in (its hold names it); without one, Kyiv.
          cityRef: text(form.get("cityRef")) || undefined,
        },
      };
  }
}

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const parsed = intentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, text: message("orders:answer.notUnderstood"), fix: null };
  const deps = { ...appContext(), wake: wakeWorker };
  const orderId = params.id ?? "";
  // The page says the answer in the admin's language: its key and values go back, not its English.
  const said = ({ ok, text }: { ok: boolean; text: Message }, fix: Fix | null) => ({ ok, text, fix });
  switch (parsed.data.intent) {
    case "submit":
    case "retry":
      return said(await submitNow(deps, session.shop, orderId), null);
    case "cancel":
      return said(await cancelAtWarehouse(deps, session.shop, orderId), null);
    case "retryServiceAnswer": {
      const row = await deps.db.warehouseOrder.findFirst({
        where: { id: orderId, shop: session.shop },
        select: { shopifyOrderId: true },
      });
      if (!row) return { ok: false, text: message("orders:answer.notUnderstood"), fix: null };
      return said(await retryOrderAnswers(deps, session.shop, row.shopifyOrderId), null);
    }
    case "correct": {
      const { fix } = parsed.data;
      return said(await correctOrder(deps, session.shop, orderId, overridesFrom(fix, form)), fix);
    }
  }
};

const SENDABLE: OrderState[] = ["ready", "rejected", "in_doubt"];

export default function OrderPage() {
  const { order, deliveryMethods } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const { t } = useTranslation("orders");
  const format = useFormat();
  const when = (instant: string | null) => (instant ? format.dateTime(instant) : null);

  if (!order) {
    return (
      <Page title={t("detail.notFoundTitle")} backAction={{ content: t("detail.back"), url: "/app/orders" }}>
        <Card>
          <Text as="p">{t("detail.notFoundBody")}</Text>
        </Card>
      </Page>
    );
  }

  const busy = navigation.state !== "idle";
  const run = (intent: "submit" | "retry" | "cancel") => submit({ intent }, { method: "post" });
  const canCancel = order.state !== "cancelled" && order.pending !== "cancel";
  // An edit or cancellation that ran out of retries is sent again from here too, and an order whose
  // fulfillment orders failed to apply is tried again.
  const sendAction =
    SENDABLE.includes(order.state) ||
    (order.attention === "retries_exhausted" && order.pending) ||
    order.attention === "routing_failed"
      ? {
          content: order.state === "ready" ? t("detail.submitNow") : t("detail.retry"),
          onAction: () => run(order.state === "ready" ? "submit" : "retry"),
          loading: busy && navigation.formData?.get("intent") !== "cancel",
          disabled: busy,
        }
      : undefined;
  // One form per kind of fix, shown under the first reason that needs it; a failed fix shows its error there.
  const fixes = new Set(order.holdReasons.map((reason) => reason.action));
  const fixShown = new Set<string>();

  return (
    <Page
      title={order.orderName}
      titleMetadata={<OrderStateBadge state={order.state} />}
      subtitle={
        order.placedAt
          ? t("detail.subtitlePlaced", { idOrder: order.idOrder, placedAt: when(order.placedAt) })
          : t("detail.subtitle", { idOrder: order.idOrder })
      }
      backAction={{ content: t("detail.back"), url: "/app/orders" }}
      primaryAction={sendAction}
      secondaryActions={[
        // The shopify: protocol is App Bridge's: the admin opens its own page for the order.
        { content: t("detail.openInShopify"), url: `shopify://admin/orders/${order.shopifyOrderId}` },
        ...(canCancel
          ? [
              {
                content: t("detail.cancelAtWarehouse"),
                destructive: true,
                disabled: busy,
                onAction: () => setConfirmingCancel(true),
              },
            ]
          : []),
      ]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {order.dataErasedAt && (
              <Banner tone="info" title={t("detail.dataErasedTitle")}>
                <p>{t("detail.dataErased", { at: when(order.dataErasedAt) })}</p>
              </Banner>
            )}
            {result && !(result.fix && !result.ok && fixes.has(result.fix)) && (
              <Banner tone={result.ok ? "success" : "warning"}>
                <p>{translate(t, result.text)}</p>
              </Banner>
            )}
            {confirmingCancel && canCancel && (
              <Banner tone="critical" title={t("detail.confirmCancelTitle", { order: order.orderName })}>
                <BlockStack gap="200">
                  <p>
                    {order.state === "accepted" || order.state === "in_doubt" || order.state === "submitting"
                      ? t("detail.confirmCancelSent")
                      : t("detail.confirmCancelUnsent")}
                  </p>
                  <InlineStack gap="200">
                    <Button
                      variant="primary"
                      tone="critical"
                      loading={busy}
                      onClick={() => {
                        setConfirmingCancel(false);
                        run("cancel");
                      }}
                    >
                      {t("detail.confirmCancel")}
                    </Button>
                    <Button onClick={() => setConfirmingCancel(false)}>{t("detail.keepOrder")}</Button>
                  </InlineStack>
                </BlockStack>
              </Banner>
            )}
            <Card>
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {t("detail.whereItStands")}
                  </Text>
                  <OrderStateBadge state={order.state} />
                </InlineStack>
                <Text as="p">{t(`stateDescription.${order.state}`)}</Text>
                {order.state === "waiting" && order.waitReason && (
                  <Text as="p" tone="caution">
                    {t(`waitReason.${order.waitReason}`)}
                  </Text>
                )}
                {order.warehouseLineCount !== null && order.state !== "elsewhere" && (
                  <Text as="p" tone="subdued">
                    {t("detail.warehouseLines", { count: order.warehouseLineCount })}
                  </Text>
                )}
                {order.pending && (
                  <Text as="p" tone="caution">
                    {order.pending === "cancel" ? t("detail.pendingCancel") : t("detail.pendingEdit")}
                  </Text>
                )}
                {order.lastError && order.state !== "accepted" && (
                  <Text as="p" tone="critical">
                    {order.state === "rejected"
                      ? // The warehouse's own words, as it wrote them.
                        `${t("warehouseSays", { ns: "common" })} ${order.lastError}`
                      : order.state === "ready" && order.nextAttemptAt
                        ? t("detail.lastAttemptNext", {
                            error: order.lastError,
                            next: when(order.nextAttemptAt),
                          })
                        : t("detail.lastAttempt", { error: order.lastError })}
                  </Text>
                )}
              </BlockStack>
            </Card>
            {order.attention && (
              <Banner
                tone="critical"
                title={
                  ATTENTIONS.has(order.attention)
                    ? t(`attention.${order.attention as Attention}`)
                    : t("detail.attentionDefault")
                }
              >
                {order.attentionTexts.length > 0 && (
                  <p>
                    {order.attentionTexts
                      .map((text) => translate(t, withMoments(text, format.dateTime)))
                      .join(" ")}
                  </p>
                )}
              </Banner>
            )}
            <OrderRequests
              requests={order.serviceRequests}
              busy={busy && navigation.formData?.get("intent") === "retryServiceAnswer"}
              onRetry={() => submit({ intent: "retryServiceAnswer" }, { method: "post" })}
            />
            {(order.state === "accepted" || order.shipment.stage) && (
              <ShipmentCard shipment={order.shipment} fulfillment={order.fulfillment} />
            )}
            {order.returns.length > 0 && <ReturnsCard idOrder={order.idOrder} returns={order.returns} />}
            {order.holdReasons.length > 0 && (
              <Card>
                <BlockStack gap="400">
                  <Text as="h2" variant="headingMd">
                    {t("detail.whatToFix")}
                  </Text>
                  {order.holdReasons.map((reason, index) => {
                    const first = reason.action !== null && !fixShown.has(reason.action);
                    if (reason.action) fixShown.add(reason.action);
                    return (
                      <BlockStack gap="200" key={`${reason.code}-${index}`}>
                        {index > 0 && <Divider />}
                        <Text as="p" fontWeight="semibold">
                          {reason.text ? translate(t, reason.text, reason.message) : reason.message}
                        </Text>
                        <Text as="p" tone="subdued">
                          {reason.fixText ? translate(t, reason.fixText, reason.fix) : reason.fix}
                        </Text>
                        {first && reason.action && (
                          <FixForm
                            action={reason.action}
                            candidates={reason.candidates ?? []}
                            cityRef={reason.cityRef}
                            overrides={order.overrides}
                            deliveryMethods={deliveryMethods}
                            error={
                              result?.fix === reason.action && !result.ok
                                ? translate(t, result.text)
                                : undefined
                            }
                            busy={busy}
                          />
                        )}
                      </BlockStack>
                    );
                  })}
                </BlockStack>
              </Card>
            )}
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {t("detail.sentHeading")}
                </Text>
                {order.sentOrderJson ? (
                  <>
                    <Text as="p" tone="subdued">
                      {t("detail.sentIntro")}
                    </Text>
                    <JsonBlock label={t("detail.orderSent")} json={order.sentOrderJson} />
                  </>
                ) : (
                  <Text as="p" tone="subdued">
                    {order.dataErasedAt ? t("detail.sentErased") : t("detail.nothingAccepted")}
                  </Text>
                )}
                {/* Nothing is to be sent while Shopify has not given the warehouse its lines. */}
                {order.mappedJson &&
                  order.mappedJson !== order.sentOrderJson &&
                  order.state !== "waiting" &&
                  order.state !== "elsewhere" && (
                    <>
                      <Text as="p" tone="subdued">
                        {order.sentOrderJson ? t("detail.differs") : t("detail.willBeSent")}
                      </Text>
                      <JsonBlock label={t("detail.orderToSend")} json={order.mappedJson} />
                    </>
                  )}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {t("detail.timeline")}
                </Text>
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
                            {event.texts
                              .map((text) => translate(t, withMoments(text, format.dateTime)))
                              .join(" ")}
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
                    {order.olderPage && (
                      <Link url={`/app/orders/${order.id}`}>{t("detail.newestEvents")}</Link>
                    )}
                    {order.olderEvents && (
                      <Link url={`/app/orders/${order.id}?before=${order.olderEvents}`}>
                        {t("detail.olderEvents")}
                      </Link>
                    )}
                  </InlineStack>
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("detail.referenceNumbers")}
              </Text>
              {[
                { term: t("detail.idOrder"), description: order.idOrder },
                { term: t("detail.idOrderFF"), description: order.idOrderFF ?? t("detail.notYetAssigned") },
                { term: t("detail.keyOrder"), description: order.keyOrder ?? t("detail.notYetAssigned") },
                { term: t("detail.accepted"), description: when(order.acceptedAt) ?? t("detail.notYet") },
                { term: t("detail.shopifyOrderId"), description: order.shopifyOrderId },
              ].map(({ term, description }) => (
                <Fact term={term} key={term}>
                  {description}
                </Fact>
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** What the warehouse's returns register holds for the order, briefly; the Returns page has the rest. */
function ReturnsCard({
  idOrder,
  returns,
}: {
  idOrder: string;
  returns: {
    id: string;
    returnedAt: string | null;
    ttn: string | null;
    lines: { sku: string; count: number; defective: boolean }[];
    unreadable: boolean;
  }[];
}) {
  const { t } = useTranslation("orders");
  const format = useFormat();
  return (
    <Card>
      <BlockStack gap="200">
        <InlineStack align="space-between">
          <Text as="h2" variant="headingMd">
            {t("detail.returnsHeading")}
          </Text>
          <Link url={`/app/returns?search=${encodeURIComponent(idOrder)}`}>{t("detail.returnsAll")}</Link>
        </InlineStack>
        <Text as="p" tone="subdued">
          {t("detail.returnsIntro")}
        </Text>
        {returns.map((booked) => (
          <BlockStack gap="100" key={booked.id}>
            <InlineStack gap="200">
              {booked.returnedAt && (
                <Text as="span" fontWeight="semibold">
                  {t("detail.returnWhen", { at: format.date(booked.returnedAt) })}
                </Text>
              )}
              {booked.ttn && <Text as="span">{t("detail.returnWaybill", { ttn: booked.ttn })}</Text>}
            </InlineStack>
            {booked.unreadable ? (
              <Text as="p" tone="critical">
                {t("detail.returnUnreadable")}
              </Text>
            ) : (
              <InlineStack gap="200">
                {booked.lines.slice(0, 20).map((line, index) => (
                  <InlineStack gap="100" key={`${line.sku}-${index}`}>
                    <Text as="span">
                      {t("detail.returnLine", { sku: line.sku, count: format.number(line.count) })}
                    </Text>
                    {line.defective && <Badge tone="critical">{t("detail.returnDefective")}</Badge>}
                  </InlineStack>
                ))}
              </InlineStack>
            )}
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A stored sentence's moments ("Trying again at 2026-03-01T10:00:00.000Z") in the admin's words. */
function withMoments(text: Message, dateTime: (value: string) => string): Message {
  if (!text.values) return text;
  const values = Object.fromEntries(
    Object.entries(text.values).map(([name, value]) => [
      name,
      typeof value === "string" && ISO_MOMENT.test(value) ? dateTime(value) : value,
    ]),
  );
  return { ...text, values };
}

// Each problem the merchant must solve has its banner title (orders:attention.*).
const ATTENTIONS = new Set<string>(Object.values(ATTENTION));

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
function ShipmentCard({ shipment, fulfillment }: ShipmentProps) {
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
          <p>{translate(t, fulfillment.problem)}</p>
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

/** A short label over its value. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {term}
      </Text>
      {typeof children === "string" ? (
        <Text as="span" breakWord>
          {children}
        </Text>
      ) : (
        children
      )}
    </BlockStack>
  );
}

function JsonBlock({ label, json }: { label: string; json: string }) {
  return (
    <Box background="bg-surface-secondary" padding="300" borderRadius="200" overflowX="scroll">
      <pre aria-label={label} style={{ margin: 0, fontSize: 12, whiteSpace: "pre" }}>
        <code>{json}</code>
      </pre>
    </Box>
  );
}

/** A branch Ref as the carrier's directory writes them, shown as the field's example. */
const EXAMPLE_BRANCH_REF = "1ec09d88-e1c2-11e3-8c4a-0050568002cf";

/** Waited after the last key before the branch search asks the server. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * The branch of an order held for one: the matcher's guesses as one-click choices, and a search of the
 * shop's reference data by city, number or address (a carrier Ref typed or pasted is taken as it is).
 */
function BranchChoice({
  candidates,
  initialRef,
  error,
  busy,
}: {
  candidates: BranchCandidate[];
  initialRef: string;
  error: string | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation("orders");
  const submit = useSubmit();
  const search = useFetcher<BranchSearchAnswer>();
  const hydrated = useHydrated();
  const [query, setQuery] = useState(initialRef);
  const [chosen, setChosen] = useState<{ ref: string; label: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const choose = (ref: string) =>
    submit({ intent: "correct", fix: "warehouseRef", warehouseRef: ref }, { method: "post" });
  const typed = (text: string) => {
    setQuery(text);
    setChosen(null);
    clearTimeout(timer.current);
    const trimmed = text.trim();
    if (trimmed.length < 2 || CARRIER_REF_PATTERN.test(trimmed.toLowerCase())) return;
    timer.current = setTimeout(
      () => search.load(`/app/branches?${new URLSearchParams({ q: trimmed })}`),
      SEARCH_DEBOUNCE_MS,
    );
  };
  const answer = search.data;
  const hits = answer?.hits ?? [];
  const ref = chosen?.ref ?? (CARRIER_REF_PATTERN.test(query.trim().toLowerCase()) ? query.trim() : "");
  const helpText =
    answer && !answer.available ? t("detail.branchSearchUnavailable") : t("detail.branchSearchHelp");
  return (
    <BlockStack gap="300">
      {candidates.length > 0 && (
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {t("detail.branchCandidates")}
          </Text>
          {candidates.map((candidate) => (
            <InlineStack key={candidate.ref} gap="200" blockAlign="center" wrap={false}>
              <Button
                onClick={() => choose(candidate.ref)}
                disabled={busy}
                accessibilityLabel={t("detail.branchChooseNamed", { label: candidate.label })}
              >
                {t("detail.branchChoose")}
              </Button>
              <Text as="span">{candidate.label}</Text>
              <Badge tone={candidate.score >= 0.8 ? "success" : "attention"}>
                {t("detail.branchScore", { percent: percent(candidate.score) })}
              </Badge>
            </InlineStack>
          ))}
        </BlockStack>
      )}
      <input type="hidden" name="warehouseRef" value={ref} />
      <Autocomplete
        options={hits.map((hit) => ({ value: hit.ref, label: hit.label }))}
        selected={chosen ? [chosen.ref] : []}
        loading={search.state === "loading"}
        onSelect={([value]) => {
          const hit = hits.find((each) => each.ref === value);
          if (!hit) return;
          setChosen({ ref: hit.ref, label: hit.label });
          setQuery(hit.label);
        }}
        emptyState={
          query.trim().length >= 2 && answer?.available && hits.length === 0 ? (
            <Box padding="300">
              <Text as="p">{t("detail.branchSearchNothing")}</Text>
            </Box>
          ) : undefined
        }
        textField={
          <Autocomplete.TextField
            label={t("detail.branchSearchLabel")}
            placeholder={t("detail.branchSearchPlaceholder", { example: EXAMPLE_BRANCH_REF })}
            helpText={helpText}
            error={error}
            value={query}
            onChange={typed}
            readOnly={!hydrated}
            autoComplete="off"
          />
        }
      />
    </BlockStack>
  );
}

/**
 * The street of a courier address, with the carrier's streets of the order's city offered as the merchant
 * types (app/routes/app.streets.ts); choosing one writes its type and name ("вул. Хрещатик") in the field.
 * Whatever the warehouse answers, the field takes what is typed.
 */
function StreetField({
  cityRef,
  value,
  onChange,
  error,
}: {
  cityRef: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation("orders");
  const search = useFetcher<StreetSearchAnswer>();
  const hydrated = useHydrated();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const typed = (text: string) => {
    onChange(text);
    clearTimeout(timer.current);
    const trimmed = text.trim();
    if (trimmed.length < 2) return;
    timer.current = setTimeout(
      () => search.load(`/app/streets?${new URLSearchParams({ q: trimmed, cityRef })}`),
      SEARCH_DEBOUNCE_MS,
    );
  };
  const answer = search.data;
  const streets = answer?.streets ?? [];
  const helpText = answer?.problem
    ? t("detail.streetSearchProblem")
    : answer && !answer.available
      ? t("detail.streetSearchUnavailable")
      : t("detail.streetSearchHelp");
  return (
    <Autocomplete
      options={streets.map((street) => ({ value: street.ref, label: street.label }))}
      selected={[]}
      loading={search.state === "loading"}
      onSelect={([ref]) => {
        const street = streets.find((each) => each.ref === ref);
        if (street) onChange(street.label);
      }}
      emptyState={
        value.trim().length >= 2 && answer?.available && !answer.problem && !answer.invalid ? (
          <Box padding="300">
            <Text as="p">{t("detail.streetSearchNothing")}</Text>
          </Box>
        ) : undefined
      }
      textField={
        <Autocomplete.TextField
          label={t("detail.street")}
          name="street"
          helpText={helpText}
          error={error}
          value={value}
          onChange={typed}
          readOnly={!hydrated}
          autoComplete="off"
        />
      }
    />
  );
}

function FixForm({
  action,
  candidates,
  cityRef,
  overrides,
  deliveryMethods,
  error,
  busy,
}: {
  action: string;
  candidates: BranchCandidate[];
  /** A courier address held for: its city, whose streets are offered. */
  cityRef: string | undefined;
  overrides: Record<string, unknown>;
  deliveryMethods: readonly DeliveryMethodKey[];
  error: string | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation("orders");
  const initial = (name: string) => (typeof overrides[name] === "string" ? (overrides[name] as string) : "");
  const courier = (overrides.courier ?? {}) as Record<string, string | undefined>;
  const [values, setValues] = useState<Record<string, string>>({
    phone: initial("phone"),
    deliveryMethod: initial("deliveryMethod") || deliveryMethods[0] || "",
    warehouseRef: initial("warehouseRef"),
    postcode: initial("postcode"),
    street: courier.street ?? "",
    house: courier.house ?? "",
    flat: courier.flat ?? "",
  });
  const field = (name: string) => ({
    name,
    value: values[name] ?? "",
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value })),
    autoComplete: "off",
  });

  if (action === "settings") {
    return (
      <InlineStack>
        <Button url="/app/settings">{t("detail.openSettings")}</Button>
      </InlineStack>
    );
  }
  if (!(FIXES as readonly string[]).includes(action)) return null;
  if (action === "splitCod") {
    // Three choices, one click each: what the warehouse's parcel of a split order collects.
    return (
      <BlockStack gap="200">
        <Text as="p" fontWeight="semibold">
          {t("detail.splitCodTitle")}
        </Text>
        <InlineStack gap="200">
          {(
            [
              ["whole_order", "detail.splitCodWhole"],
              ["parcel_share", "detail.splitCodShare"],
              ["no_cash", "detail.splitCodNone"],
            ] as const
          ).map(([choice, label]) => (
            <Form method="post" key={choice}>
              <input type="hidden" name="intent" value="correct" />
              <input type="hidden" name="fix" value="splitCod" />
              <input type="hidden" name="splitCod" value={choice} />
              <Button submit disabled={busy}>
                {t(label)}
              </Button>
            </Form>
          ))}
        </InlineStack>
        {error && (
          <Text as="p" tone="critical">
            {error}
          </Text>
        )}
      </BlockStack>
    );
  }

  return (
    <Form method="post">
      <input type="hidden" name="intent" value="correct" />
      <input type="hidden" name="fix" value={action} />
      <FormLayout>
        {action === "phone" && (
          <TextField
            label={t("detail.phoneLabel")}
            type="tel"
            placeholder="+380 67 123 45 67"
            helpText={t("detail.phoneHelp")}
            error={error}
            {...field("phone")}
          />
        )}
        {action === "deliveryMethod" && (
          <Select
            label={t("detail.deliveryMethodLabel")}
            options={deliveryMethods.map((method) => ({
              value: method,
              label: t(`deliveryMethod.${method}`),
            }))}
            error={error}
            name="deliveryMethod"
            value={values.deliveryMethod}
            onChange={(value) => setValues((current) => ({ ...current, deliveryMethod: value }))}
          />
        )}
        {action === "warehouseRef" && (
          <BranchChoice
            candidates={candidates}
            initialRef={values.warehouseRef ?? ""}
            error={error}
            busy={busy}
          />
        )}
        {action === "postcode" && (
          <TextField
            label={t("detail.postcodeLabel")}
            placeholder="01001"
            maxLength={5}
            error={error}
            {...field("postcode")}
          />
        )}
        {action === "courierAddress" && (
          <FormLayout.Group>
            {cityRef ? (
              <>
                <input type="hidden" name="cityRef" value={cityRef} />
                <StreetField
                  cityRef={cityRef}
                  value={values.street ?? ""}
                  onChange={(value) => setValues((current) => ({ ...current, street: value }))}
                  error={error}
                />
              </>
            ) : (
              <TextField label={t("detail.street")} error={error} {...field("street")} />
            )}
            <TextField label={t("detail.house")} {...field("house")} />
            <TextField label={t("detail.flat")} {...field("flat")} />
          </FormLayout.Group>
        )}
        <InlineStack>
          <Button submit variant="primary" loading={busy}>
            {t("detail.saveAndCheck")}
          </Button>
        </InlineStack>
      </FormLayout>
    </Form>
  );
}

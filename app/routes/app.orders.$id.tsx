// One order: where it stands and why, what held it with a form for each fix, the actions on it, where it is
// once the warehouse has it (stage, waybill, statuses, the Shopify fulfillment), the exact body the
// warehouse has, and its timeline with the requests sent and the answers read.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import {
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
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { z } from "zod";
import { eventLabel } from "../components/order-event";
import { STAGE_DESCRIPTION, StageBadge } from "../components/order-stage";
import { OrderStateBadge } from "../components/order-state";
import { appContext } from "../context.server";
import { cancelAtWarehouse, correctOrder, submitNow } from "../orders/actions.server";
import {
  formatShopTime,
  orderDetail,
  shopTimeZone,
  type FulfillmentProblem,
  type ReportedStatus,
} from "../orders/queries.server";
import { DELIVERY_METHOD_KEYS, DELIVERY_METHOD_LABELS } from "../orders/settings";
import { ORDER_STATE_DESCRIPTION, STAGE, type OrderState, type Stage } from "../orders/states";
import { authenticate } from "../shopify.server";
import { wakeWorker } from "../work/worker.server";

const timelineCursorSchema = z.string().regex(/^[a-z0-9]{1,64}$/);

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value, null, 2);

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { db } = appContext();
  // A cursor that is not an event id shows the newest page, as if none was given.
  const before = timelineCursorSchema.safeParse(new URL(request.url).searchParams.get("before"));
  const [order, timeZone] = await Promise.all([
    orderDetail(db, session.shop, params.id ?? "", before.success ? { eventsBefore: before.data } : {}),
    shopTimeZone(db, session.shop),
  ]);
  if (!order) return { order: null, deliveryMethods: [] };
  const time = (date: Date | null) => (date ? formatShopTime(date, timeZone) : null);
  return {
    order: {
      id: order.id,
      orderName: order.orderName,
      shopifyOrderId: order.shopifyOrderId,
      idOrder: order.idOrder,
      idOrderFF: order.idOrderFF,
      keyOrder: order.keyOrder,
      state: order.state,
      pending: order.pending,
      attention: order.attention,
      attentionMessage: order.attentionMessage,
      lastError: order.lastError,
      attempts: order.attempts,
      nextAttemptAt: time(order.nextAttemptAt),
      placedAt: time(order.orderCreatedAt),
      acceptedAt: time(order.acceptedAt),
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
        problem: order.fulfillment.problem,
      },
      mappedJson: json(order.mapped),
      sentOrderJson: json(order.sentOrder),
      events: order.events.map((event) => ({
        id: event.id,
        at: time(event.at),
        kind: event.kind,
        label: eventLabel(event.kind),
        message: event.message,
        dataJson: json(event.data),
        // The data of a call to the warehouse holds the request sent (and the answer, when one came).
        exchange: typeof event.data === "object" && event.data !== null && "request" in event.data,
      })),
      olderEvents: order.olderEvents,
      olderPage: before.success,
    },
    deliveryMethods: DELIVERY_METHOD_KEYS.map((key) => ({ value: key, label: DELIVERY_METHOD_LABELS[key] })),
  };
};

const FIXES = ["phone", "deliveryMethod", "warehouseRef", "courierAddress", "postcode"] as const;
type Fix = (typeof FIXES)[number];

const intentSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("submit") }),
    z.object({ intent: z.literal("retry") }),
    z.object({ intent: z.literal("cancel") }),
    z.object({ intent: z.literal("correct"), fix: z.enum(FIXES) }),
  ],
  { error: "Unknown action." },
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
    case "courierAddress":
      return {
        courier: {
          street: text(form.get("street")),
          house: text(form.get("house")),
          flat: text(form.get("flat")) || undefined,
        },
      };
  }
}

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const parsed = intentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, message: "The request was not understood.", fix: null };
  const deps = { ...appContext(), wake: wakeWorker };
  const orderId = params.id ?? "";
  switch (parsed.data.intent) {
    case "submit":
    case "retry":
      return { ...(await submitNow(deps, session.shop, orderId)), fix: null };
    case "cancel":
      return { ...(await cancelAtWarehouse(deps, session.shop, orderId)), fix: null };
    case "correct": {
      const { fix } = parsed.data;
      return { ...(await correctOrder(deps, session.shop, orderId, overridesFrom(fix, form))), fix };
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

  if (!order) {
    return (
      <Page title="Order not found" backAction={{ content: "Orders", url: "/app/orders" }}>
        <Card>
          <Text as="p">
            This store has no such order. It may have been erased at the customer&apos;s request.
          </Text>
        </Card>
      </Page>
    );
  }

  const busy = navigation.state !== "idle";
  const run = (intent: "submit" | "retry" | "cancel") => submit({ intent }, { method: "post" });
  const canCancel = order.state !== "cancelled" && order.pending !== "cancel";
  // An edit or cancellation that ran out of retries is sent again from here too.
  const sendAction =
    SENDABLE.includes(order.state) || (order.attention === "retries_exhausted" && order.pending)
      ? {
          content: order.state === "ready" ? "Submit now" : "Retry",
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
      subtitle={`id_order ${order.idOrder}${order.placedAt ? ` · placed ${order.placedAt}` : ""}`}
      backAction={{ content: "Orders", url: "/app/orders" }}
      primaryAction={sendAction}
      secondaryActions={[
        // The shopify: protocol is App Bridge's: the admin opens its own page for the order.
        { content: "Open in Shopify", url: `shopify://admin/orders/${order.shopifyOrderId}` },
        ...(canCancel
          ? [
              {
                content: "Cancel at the warehouse",
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
            {result && !(result.fix && !result.ok && fixes.has(result.fix)) && (
              <Banner tone={result.ok ? "success" : "warning"}>
                <p>{result.message}</p>
              </Banner>
            )}
            {confirmingCancel && canCancel && (
              <Banner tone="critical" title={`Cancel ${order.orderName} at the warehouse?`}>
                <BlockStack gap="200">
                  <p>
                    {order.state === "accepted" || order.state === "in_doubt" || order.state === "submitting"
                      ? "The warehouse is asked to cancel it. Once it has been picked it can no longer be cancelled; you will see that here."
                      : "The warehouse does not have it yet: it will simply never be sent."}{" "}
                    The order stays as it is in Shopify.
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
                      Yes, cancel it
                    </Button>
                    <Button onClick={() => setConfirmingCancel(false)}>Keep the order</Button>
                  </InlineStack>
                </BlockStack>
              </Banner>
            )}
            <Card>
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    Where it stands
                  </Text>
                  <OrderStateBadge state={order.state} />
                </InlineStack>
                <Text as="p">{ORDER_STATE_DESCRIPTION[order.state]}</Text>
                {order.pending && (
                  <Text as="p" tone="caution">
                    {order.pending === "cancel"
                      ? "A cancellation is waiting to be sent to the warehouse."
                      : "A change to the order is waiting to be sent to the warehouse."}
                  </Text>
                )}
                {order.lastError && order.state !== "accepted" && (
                  <Text as="p" tone="critical">
                    {order.state === "rejected" ? "The warehouse answered: " : "Last attempt: "}
                    {order.lastError}
                    {order.state === "ready" && order.nextAttemptAt
                      ? ` Next attempt ${order.nextAttemptAt}.`
                      : ""}
                  </Text>
                )}
              </BlockStack>
            </Card>
            {order.attention && (
              <Banner tone="critical" title={ATTENTION_TITLE[order.attention] ?? "This order needs you"}>
                <p>{order.attentionMessage}</p>
              </Banner>
            )}
            {(order.state === "accepted" || order.shipment.stage) && (
              <ShipmentCard shipment={order.shipment} fulfillment={order.fulfillment} />
            )}
            {order.holdReasons.length > 0 && (
              <Card>
                <BlockStack gap="400">
                  <Text as="h2" variant="headingMd">
                    What to fix before it can be sent
                  </Text>
                  {order.holdReasons.map((reason, index) => {
                    const first = reason.action !== null && !fixShown.has(reason.action);
                    if (reason.action) fixShown.add(reason.action);
                    return (
                      <BlockStack gap="200" key={`${reason.code}-${index}`}>
                        {index > 0 && <Divider />}
                        <Text as="p" fontWeight="semibold">
                          {reason.message}
                        </Text>
                        <Text as="p" tone="subdued">
                          {reason.fix}
                        </Text>
                        {first && reason.action && (
                          <FixForm
                            action={reason.action}
                            overrides={order.overrides}
                            deliveryMethods={deliveryMethods}
                            error={result?.fix === reason.action && !result.ok ? result.message : undefined}
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
                  Sent to the warehouse
                </Text>
                {order.sentOrderJson ? (
                  <>
                    <Text as="p" tone="subdued">
                      The exact order the warehouse holds (the last AddOrder or EditOrder it accepted).
                    </Text>
                    <JsonBlock label="Order sent" json={order.sentOrderJson} />
                  </>
                ) : (
                  <Text as="p" tone="subdued">
                    Nothing has been accepted by the warehouse yet.
                  </Text>
                )}
                {order.mappedJson && order.mappedJson !== order.sentOrderJson && (
                  <>
                    <Text as="p" tone="subdued">
                      {order.sentOrderJson
                        ? "The order as it is now, which differs from what the warehouse has:"
                        : "What will be sent:"}
                    </Text>
                    <JsonBlock label="Order to send" json={order.mappedJson} />
                  </>
                )}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Timeline
                </Text>
                {order.events.length === 0 && (
                  <Text as="p" tone="subdued">
                    Nothing has happened to this order yet.
                  </Text>
                )}
                <BlockStack gap="300">
                  {order.events.map((event) => (
                    <div key={event.id} data-event-kind={event.kind}>
                      <BlockStack gap="100">
                        <InlineStack gap="200" blockAlign="baseline">
                          <Text as="span" tone="subdued" variant="bodySm">
                            {event.at}
                          </Text>
                          <Badge>{event.label}</Badge>
                          <Text as="span" fontWeight="semibold">
                            {event.message}
                          </Text>
                        </InlineStack>
                        {event.dataJson && (
                          <details>
                            <summary>
                              <Text as="span" variant="bodySm">
                                {event.exchange ? "Request and answer" : "Details"}
                              </Text>
                            </summary>
                            <JsonBlock label="Event details" json={event.dataJson} />
                          </details>
                        )}
                      </BlockStack>
                    </div>
                  ))}
                </BlockStack>
                {(order.olderEvents || order.olderPage) && (
                  <InlineStack gap="300">
                    {order.olderPage && <Link url={`/app/orders/${order.id}`}>Newest events</Link>}
                    {order.olderEvents && (
                      <Link url={`/app/orders/${order.id}?before=${order.olderEvents}`}>Older events</Link>
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
                Reference numbers
              </Text>
              {[
                { term: "id_order", description: order.idOrder },
                { term: "id_order_FF", description: order.idOrderFF ?? "Not yet assigned" },
                { term: "key_order", description: order.keyOrder ?? "Not yet assigned" },
                { term: "Accepted", description: order.acceptedAt ?? "Not yet" },
                { term: "Shopify order id", description: order.shopifyOrderId },
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

const ATTENTION_TITLE: Record<string, string> = {
  edit_refused: "The warehouse refused the change to this order",
  edit_held: "The change to this order cannot be sent",
  cancel_refused: "The warehouse could not cancel this order",
  retries_exhausted: "The warehouse could not be reached for this order",
  cancelled_at_warehouse: "The warehouse cancelled this order",
  returned: "This order came back to the warehouse",
};

// The events Shopify's fulfillment may have been told, as the merchant reads them.
const FULFILLMENT_EVENT_LABEL: Record<string, string> = {
  IN_TRANSIT: "In transit",
  OUT_FOR_DELIVERY: "Out for delivery",
  READY_FOR_PICKUP: "Ready for pickup",
  ATTEMPTED_DELIVERY: "Delivery attempted",
  DELAYED: "Delayed",
  DELIVERED: "Delivered",
  FAILURE: "Delivery failed",
};

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
    problem: FulfillmentProblem | null;
  };
}

/** Where the order is once the warehouse has it, and what Shopify has been told of it. */
function ShipmentCard({ shipment, fulfillment }: ShipmentProps) {
  return (
    <Card>
      <section aria-labelledby="shipment-heading">
        <BlockStack gap="300">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd" id="shipment-heading">
              At the warehouse
            </Text>
            {shipment.stage && <StageBadge stage={shipment.stage} />}
          </InlineStack>
          <Text as="p">{STAGE_DESCRIPTION[shipment.stage ?? "none"]}</Text>
          <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
            {shipment.stageAt && <Fact term="Stage reached">{shipment.stageAt}</Fact>}
            <Fact term="Waybill">
              {shipment.ttn && shipment.trackingUrl ? (
                <Text as="span" breakWord>
                  <Link url={shipment.trackingUrl} target="_blank">
                    {shipment.ttn}
                  </Link>
                </Text>
              ) : (
                (shipment.ttn ?? "Not yet given")
              )}
            </Fact>
            <Fact term="Warehouse status">
              <StatusAsReported status={shipment.warehouseStatus} />
            </Fact>
            <Fact term="Carrier status">
              <StatusAsReported status={shipment.carrierStatus} />
            </Fact>
            <Fact term="Last checked">{shipment.statusCheckedAt ?? "Not yet"}</Fact>
          </InlineGrid>
          <Divider />
          <Text as="h3" variant="headingSm">
            In Shopify
          </Text>
          <FulfillmentState shipment={shipment} fulfillment={fulfillment} />
        </BlockStack>
      </section>
    </Card>
  );
}

/** A status with its date exactly as the warehouse reported them. */
function StatusAsReported({ status }: { status: ReportedStatus | null }) {
  if (!status) return <Text as="span">None reported yet</Text>;
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
  if (fulfillment.problem) {
    return (
      <Banner tone="critical" title="Shopify could not be told where the parcel is">
        <BlockStack gap="100">
          <p>{fulfillment.problem.message}</p>
          <p>
            Solve this in the order in Shopify. Until then, Shopify does not show this order&apos;s progress.
          </p>
        </BlockStack>
      </Banner>
    );
  }
  if (fulfillment.made) {
    return (
      <BlockStack gap="200">
        <Text as="p">
          {fulfillment.ttn
            ? `The order is fulfilled in Shopify with the waybill ${fulfillment.ttn}.`
            : "The order is fulfilled in Shopify."}
        </Text>
        {fulfillment.due && (
          <Text as="p" tone="subdued">
            The latest change is waiting to be sent to Shopify.
          </Text>
        )}
        {fulfillment.event && (
          <Fact term="Last delivery event in Shopify">
            {FULFILLMENT_EVENT_LABEL[fulfillment.event] ?? fulfillment.event}
          </Fact>
        )}
      </BlockStack>
    );
  }
  if (fulfillment.waitingForLocation) {
    return (
      <Banner tone="warning" title="Choose the warehouse's location">
        <BlockStack gap="100">
          <p>
            The order has shipped, but it can be fulfilled in Shopify only at the location that stands for the
            warehouse, and none is chosen yet.
          </p>
          <InlineStack>
            <Button url="/app/settings/statuses">Choose it in Settings</Button>
          </InlineStack>
        </BlockStack>
      </Banner>
    );
  }
  if (fulfillment.due) {
    return <Text as="p">The fulfillment is waiting to be made in Shopify with the waybill.</Text>;
  }
  const { stage } = shipment;
  return (
    <Text as="p" tone="subdued">
      {stage === STAGE.cancelledAtWarehouse || stage === STAGE.returned
        ? "Nothing was fulfilled in Shopify."
        : (stage === STAGE.shipped || stage === STAGE.delivered) && !shipment.ttn
          ? "The order is fulfilled in Shopify once the warehouse gives its waybill."
          : "The order is fulfilled in Shopify once the warehouse ships it."}
    </Text>
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

function FixForm({
  action,
  overrides,
  deliveryMethods,
  error,
  busy,
}: {
  action: string;
  overrides: Record<string, unknown>;
  deliveryMethods: { value: string; label: string }[];
  error: string | undefined;
  busy: boolean;
}) {
  const initial = (name: string) => (typeof overrides[name] === "string" ? (overrides[name] as string) : "");
  const courier = (overrides.courier ?? {}) as Record<string, string | undefined>;
  const [values, setValues] = useState<Record<string, string>>({
    phone: initial("phone"),
    deliveryMethod: initial("deliveryMethod") || deliveryMethods[0]?.value || "",
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
        <Button url="/app/settings">Open settings</Button>
      </InlineStack>
    );
  }
  if (!(FIXES as readonly string[]).includes(action)) return null;

  return (
    <Form method="post">
      <input type="hidden" name="intent" value="correct" />
      <input type="hidden" name="fix" value={action} />
      <FormLayout>
        {action === "phone" && (
          <TextField
            label="Recipient's phone"
            type="tel"
            placeholder="+380 67 123 45 67"
            helpText="A Ukrainian mobile or landline number; it replaces the phone the order has."
            error={error}
            {...field("phone")}
          />
        )}
        {action === "deliveryMethod" && (
          <Select
            label="Delivery method"
            options={deliveryMethods}
            error={error}
            name="deliveryMethod"
            value={values.deliveryMethod}
            onChange={(value) => setValues((current) => ({ ...current, deliveryMethod: value }))}
          />
        )}
        {action === "warehouseRef" && (
          <TextField
            label="Carrier branch Ref"
            placeholder="1ec09d88-e1c2-11e3-8c4a-0050568002cf"
            helpText="The branch's Ref in the carrier's directory: a 36-character id."
            maxLength={36}
            error={error}
            {...field("warehouseRef")}
          />
        )}
        {action === "postcode" && (
          <TextField
            label="Postcode"
            placeholder="01001"
            maxLength={5}
            error={error}
            {...field("postcode")}
          />
        )}
        {action === "courierAddress" && (
          <FormLayout.Group>
            <TextField label="Street" error={error} {...field("street")} />
            <TextField label="House" {...field("house")} />
            <TextField label="Flat" {...field("flat")} />
          </FormLayout.Group>
        )}
        <InlineStack>
          <Button submit variant="primary" loading={busy}>
            Save and check again
          </Button>
        </InlineStack>
      </FormLayout>
    </Form>
  );
}

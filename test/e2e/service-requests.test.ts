// Fulfillment-service mode end to end over real HTTP: the Shopify fake holds the app's fulfillment service and
// the merchant's requests, its signed pings reach the app's callback route, orders/create is signed to the app,
// the worker reads and answers the requests, and the warehouse simulator takes, cancels and picks the orders.
// A cancellation request goes the order side's real way: the fulfillment order no longer the warehouse's, the
// order's cancellation queued, CancelOrder at the warehouse, and only then Shopify's answer.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { i18nFor } from "../../app/i18n/i18n";
import { DEFAULT_LOCALE, supportedLocale } from "../../app/i18n/locales";
import { notifyAddress } from "../../app/statuses/notify-token.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import {
  configureServiceCallbacks,
  createFulfillmentService,
  deliverServiceCallbacks,
  serviceAnswers,
  submitCancellationRequest,
  submitFulfillmentRequest,
  type FulfillmentServiceRecord,
  type OrderRecord,
} from "../shopify-fake";
import { eventually, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { addFlowOrder, flowOrderPayload, useShopifyShop } from "./shopify-shop";

const db = () => appContext().db;
const LOOP_MS = 30_000;
const shopify = useShopifyShop("service");
let flow: OrderFlow | undefined;
let service: FulfillmentServiceRecord;

afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

/** The flow in service mode: the app's service registered in the fake, its pings routed to the app. */
async function loop() {
  flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
  const made = createFulfillmentService(shopify.store, {
    name: `Sklad Sync ${shopify.test}`,
    callbackUrl: "https://app.test/fulfillment-service",
    trackingSupport: true,
  });
  service = made.service!;
  configureServiceCallbacks(shopify.fake.state, { callbackOrigin: flow.app.url });
  await db().shopSettings.update({
    where: { shop: SHOP },
    data: {
      fulfillmentMode: "service",
      fulfillmentServiceId: service.id,
      locationId: service.locationId,
      onlineLocations: JSON.stringify([service.locationId]),
    },
  });
  const address = await notifyAddress(db(), SHOP);
  if (!address.ok) throw new Error(address.message.key);
  flow.sim.setNotificationUrl(`${flow.app.url}${new URL(address.url).pathname}`);
  return flow;
}

/** Shopify's pings of the requests just made, each answered 200 by the app's callback route. */
async function pings() {
  const sent = await deliverServiceCallbacks(shopify.fake.state, shopify.store);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.map((ping) => ping.status)).toEqual(sent.map(() => 200));
}

const answersOf = (id: string) =>
  serviceAnswers(shopify.store).filter((answer) => answer.fulfillmentOrderId === id);
const requestStatus = (id: string, status: string, what: string) =>
  eventually(() => shopify.store.fulfillmentOrders.get(id)?.requestStatus === status, what, LOOP_MS);
const atWarehouse = (idOrder: string) => flow!.sim.orders().find((order) => order.id_order === idOrder);
const row = (id: string) => db().warehouseOrder.findUniqueOrThrow({ where: { id } });

/** A requested order taken by the warehouse and its request accepted, once. */
async function acceptedOrder(flow: OrderFlow, order: OrderRecord, foId: string) {
  expect(submitFulfillmentRequest(shopify.store, foId).userErrors).toEqual([]);
  await pings();
  await flow.post({ topic: "orders/create", payload: flowOrderPayload(shopify.store, order.id) });
  await requestStatus(foId, "ACCEPTED", "the fulfillment request to be accepted");
  const recorded = await db().warehouseOrder.findFirstOrThrow({
    where: { shop: SHOP, shopifyOrderId: order.id.split("/").at(-1)! },
  });
  expect(recorded).toMatchObject({ state: "accepted", fulfillmentMode: "service" });
  expect(answersOf(foId).map((answer) => answer.mutation)).toEqual([
    "fulfillmentOrderAcceptFulfillmentRequest",
  ]);
  return recorded;
}

describe("service mode, end to end", { timeout: 90_000 }, () => {
  it("accepts a cancellation request once the order is cancelled at the warehouse before picking", async () => {
    const flow = await loop();
    const { order, fulfillmentOrder } = addFlowOrder(shopify.store, service.locationId);
    const accepted = await acceptedOrder(flow, order, fulfillmentOrder.id);

    expect(submitCancellationRequest(shopify.store, fulfillmentOrder.id).userErrors).toEqual([]);
    await pings();
    await requestStatus(fulfillmentOrder.id, "CANCELLATION_ACCEPTED", "the cancellation to be accepted");
    // Cancelled at the warehouse first (CancelOrder), then answered; once.
    expect(atWarehouse(accepted.idOrder)!.stage).toBe("cancelled");
    expect((await row(accepted.id)).state).toBe("cancelled");
    expect(answersOf(fulfillmentOrder.id).map((answer) => [answer.mutation, answer.refused])).toEqual([
      ["fulfillmentOrderAcceptFulfillmentRequest", null],
      ["fulfillmentOrderAcceptCancellationRequest", null],
    ]);
  });

  it("rejects a cancellation request with the stage in words once the warehouse picked the order", async () => {
    const flow = await loop();
    const { order, fulfillmentOrder } = addFlowOrder(shopify.store, service.locationId);
    const accepted = await acceptedOrder(flow, order, fulfillmentOrder.id);
    flow.sim.advanceOrder({ id_order: accepted.idOrder, to: "picked" });
    await eventually(
      async () => (await row(accepted.id)).stage === "picked",
      "the warehouse's picking to be known",
      LOOP_MS,
    );

    expect(submitCancellationRequest(shopify.store, fulfillmentOrder.id).userErrors).toEqual([]);
    await pings();
    await requestStatus(fulfillmentOrder.id, "CANCELLATION_REJECTED", "the cancellation to be rejected");
    const shop = await db().shop.findUnique({ where: { shop: SHOP }, select: { primaryLocale: true } });
    const t = i18nFor(supportedLocale(shop?.primaryLocale ?? DEFAULT_LOCALE) ?? DEFAULT_LOCALE).getFixedT(
      null,
      "statuses",
    );
    const rejected = answersOf(fulfillmentOrder.id).at(-1)!;
    expect([rejected.mutation, rejected.refused]).toEqual([
      "fulfillmentOrderRejectCancellationRequest",
      null,
    ]);
    expect(rejected.message).toBe(t("serviceAnswer.tooLate", { stage: t("stages.picked") }));
    // Still at the warehouse, picked; the merchant is told the change came too late.
    expect(atWarehouse(accepted.idOrder)!.stage).toBe("picked");
    expect((await row(accepted.id)).attention).toBe("routing_changed_after_picking");
    expect(answersOf(fulfillmentOrder.id)).toHaveLength(2);
  });
});

// The whole loop over real HTTP: an order goes to the simulator, moves on there, the simulator's own
// notifications reach the app's address, ReportStatusOrder confirms each change, and the worker tells the
// Shopify fake: one fulfillment with the waybill and its tracking page, then a delivered event.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { offlineShopAdmin } from "../../app/assembly/engine.server";
import { saveStatusSettings } from "../../app/statuses/settings.server";
import { notifyAddress } from "../../app/statuses/notify-token.server";
import { eventually, SHOP, startOrderFlow, type OrderFlow } from "./harness";
import { addFlowOrder, flowOrderPayload, useShopifyShop } from "./shopify-shop";
import { inEnglishWords } from "../support/orders";

const db = () => appContext().db;
/** How long a test waits for one round of the loop (see the describe's timeout). */
const LOOP_MS = 30_000;
const shopify = useShopifyShop("loop");
let flow: OrderFlow | undefined;

afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

/** The flow with the Shopify side on, the warehouse location chosen and the simulator notifying the app. */
async function loop() {
  flow = await startOrderFlow({ worker: { admin: offlineShopAdmin } });
  const saved = await saveStatusSettings(appContext(), SHOP, { locationId: shopify.warehouse.id }, [
    { id: shopify.warehouse.id, name: shopify.warehouse.name },
  ]);
  if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
  const address = await notifyAddress(db(), SHOP);
  if (!address.ok) throw new Error(address.message.key);
  flow.sim.setNotificationUrl(`${flow.app.url}${new URL(address.url).pathname}`);
  return flow;
}

/** An order in the fake store and the same order (its ids and line items) sent to the app by orders/create, accepted. */
async function acceptedOrder(flow: OrderFlow, n: number) {
  const { order } = addFlowOrder(shopify.store, shopify.warehouse.id, `#${n}`);
  const numericId = Number(order.id.split("/").at(-1));
  await flow.post({ topic: "orders/create", payload: flowOrderPayload(shopify.store, order.id) });
  const row = await eventually(
    async () =>
      db().warehouseOrder.findFirst({ where: { state: "accepted", shopifyOrderId: String(numericId) } }),
    "the order to be accepted",
    LOOP_MS,
  );
  return { order, row };
}

// Each test waits on several rounds of the worker (a report a second, the Shopify calls): generous
// limits, so that a loaded machine is slower, not failing.
describe("an order shipped and delivered", { timeout: 60_000 }, () => {
  it("ends fulfilled once in Shopify with the waybill and its tracking page, and a delivered event", async () => {
    const flow = await loop();
    const { order, row } = await acceptedOrder(flow, 3101);

    const shipped = flow.sim.advanceOrder({ id_order: row.idOrder, to: "shipped" });
    const fulfilled = await eventually(
      async () => {
        const current = await db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
        return current.fulfillmentId && current.fulfillmentDueAt === null ? current : null;
      },
      "the order to be fulfilled in Shopify",
      LOOP_MS,
    );
    expect(order.fulfillmentIds).toEqual([fulfilled.fulfillmentId]);
    const fulfillment = shopify.store.fulfillments.get(fulfilled.fulfillmentId!)!;
    expect(fulfillment.trackingInfo).toEqual([
      {
        company: "Nova Poshta",
        number: shipped.TTN,
        url: `https://novaposhta.ua/tracking/?cargo_number=${shipped.TTN}`,
      },
    ]);
    expect(fulfillment.notifyCustomer).toBe(true);

    flow.sim.advanceOrder({ id_order: row.idOrder, to: "delivered" });
    await eventually(
      async () =>
        shopify.store.fulfillments
          .get(fulfilled.fulfillmentId!)!
          .events.some((e) => e.status === "DELIVERED"),
      "a delivered event in Shopify",
      LOOP_MS,
    );
    // The order's own record follows Shopify's answer.
    const delivered = await eventually(
      async () => {
        const current = await db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
        return current.fulfillmentEvent === "DELIVERED" ? current : null;
      },
      "the delivered event to be recorded",
      LOOP_MS,
    );
    expect(delivered).toMatchObject({ stage: "delivered", fulfillmentDueAt: null });
    expect(order.fulfillmentIds).toHaveLength(1);
    const kinds = (
      await db().orderEvent.findMany({ where: { orderId: row.id }, orderBy: { id: "asc" } })
    ).map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(["shipped", "fulfilled", "delivered", "fulfillment_event"]));
  });

  it("makes no second fulfillment when the first one's answer was lost: it finds it by the waybill", async () => {
    const flow = await loop();
    const { order, row } = await acceptedOrder(flow, 3102);
    const shipped = flow.sim.advanceOrder({ id_order: row.idOrder, to: "shipped" });
    // As if the app's fulfillmentCreate had reached Shopify and its answer never came back.
    const admin = await offlineShopAdmin(SHOP, new AbortController().signal);
    await admin.mutate(
      `mutation LostAnswer($f: FulfillmentInput!) { fulfillmentCreate(fulfillment: $f) { fulfillment { id } userErrors { field message } } }`,
      {
        f: {
          lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: order.fulfillmentOrderIds[0] }],
          trackingInfo: { company: "Nova Poshta", number: shipped.TTN },
        },
      },
    );
    const kept = await eventually(
      async () => {
        const current = await db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
        return current.fulfillmentId ? current : null;
      },
      "the fulfillment to be found",
      LOOP_MS,
    );
    expect(order.fulfillmentIds).toEqual([kept.fulfillmentId]);
    const events = await db().orderEvent.findMany({ where: { orderId: row.id, kind: "fulfilled" } });
    expect(events.map((event) => inEnglishWords(event.message))).toEqual([
      expect.stringMatching(/not made again/),
    ]);
  });

  it("flags a fulfillment order the merchant put on hold, and does not retry it", async () => {
    const flow = await loop();
    const { order, row } = await acceptedOrder(flow, 3103);
    shopify.store.holdFulfillmentOrder(order.fulfillmentOrderIds[0]!, { reason: "AWAITING_PAYMENT" });
    flow.sim.advanceOrder({ id_order: row.idOrder, to: "shipped" });
    const flagged = await eventually(
      async () => {
        const current = await db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
        return current.fulfillmentProblem ? current : null;
      },
      "the hold to be flagged",
      LOOP_MS,
    );
    expect(JSON.parse(flagged.fulfillmentProblem!)).toMatchObject({ code: "on_hold" });
    expect(flagged.fulfillmentDueAt).toBeNull();
    expect(order.fulfillmentIds).toEqual([]);
  });

  it("makes one fulfillment from a notification the warehouse repeated three times", async () => {
    const flow = await loop();
    const { order, row } = await acceptedOrder(flow, 3104);
    flow.sim.faults.repeatNotifications(2);
    flow.sim.advanceOrder({ id_order: row.idOrder, to: "shipped" });
    await flow.sim.notificationsIdle();
    const fulfilled = await eventually(
      async () => {
        const current = await db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
        return current.fulfillmentId && current.fulfillmentDueAt === null ? current : null;
      },
      "the order to be fulfilled in Shopify",
      LOOP_MS,
    );
    expect(order.fulfillmentIds).toEqual([fulfilled.fulfillmentId]);
    const shippedNotices = flow.sim
      .notificationAttempts()
      .filter((attempt) => attempt.delivered && attempt.body.status_mtp === "Отгружен");
    expect(shippedNotices).toHaveLength(3);
    const made = await db().orderEvent.count({ where: { orderId: row.id, kind: "fulfilled" } });
    expect(made).toBe(1);
  });
});

// The rules step: what the shop's recent orders really use is offered, and the preview maps the last orders
// with the rules being edited through the mapping code itself, saving nothing until the rules are saved.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { previewRules, recentOrders, usedNames } from "../../app/onboarding/rules.server";
import { loadOnboarding } from "../../app/onboarding/state.server";
import { rulesOfForm, saveRules } from "../../app/onboarding/steps.server";
import { DEFAULT_ORDER_SETTINGS } from "../../app/orders/settings";
import { seedOrder } from "../support/orders";

const SHOP = "kyiv-goods.myshopify.com";

async function seedShopOrders() {
  const { db } = appContext();
  await seedOrder(db, { shop: SHOP, number: 1001, state: "ready" });
  await seedOrder(db, { shop: SHOP, number: 1002, state: "held" });
  // An order with a gateway and a shipping rate the built-in rules do not know.
  const row = await seedOrder(db, { shop: SHOP, number: 1003, state: "ready" });
  const payload = await db.orderPayload.findUniqueOrThrow({ where: { orderId: row.id } });
  const order = JSON.parse(payload.payload) as Record<string, unknown> & {
    shipping_lines: Record<string, unknown>[];
  };
  order.payment_gateway_names = ["LiqPay"];
  order.shipping_lines = [
    { ...order.shipping_lines[0], title: "Експрес-доставка", code: "express", source: "shopify" },
  ];
  await db.orderPayload.update({ where: { orderId: row.id }, data: { payload: JSON.stringify(order) } });
  await db.warehouseOrder.update({ where: { id: row.id }, data: { updatedAt: new Date() } });
}

describe("payment and delivery rules", () => {
  it("offers the gateways and shipping rates of the recent orders, most used first", async () => {
    await seedShopOrders();
    const offer = usedNames(await recentOrders(appContext().db, SHOP));
    expect(offer.gateways).toEqual([
      { name: "Накладений платіж", orders: 2 },
      { name: "LiqPay", orders: 1 },
    ]);
    expect(offer.shippingMethods.map((method) => method.name)).toContain("Експрес-доставка");
    expect(offer.shippingMethods[0]!.orders).toBe(2);
  });

  it("previews the last orders under the edited rules without saving them", async () => {
    await seedShopOrders();
    const { db } = appContext();
    const orders = await recentOrders(db, SHOP);
    const byName = (rows: ReturnType<typeof previewRules>, name: string) =>
      rows.find((row) => row.name === name)!;

    const before = previewRules(orders, DEFAULT_ORDER_SETTINGS);
    expect(byName(before, "#1001")).toMatchObject({
      payment: "cashOnDelivery",
      delivery: "novaPoshta",
      sendable: true,
      holdCodes: [],
    });
    expect(byName(before, "#1002")).toMatchObject({ sendable: false, holdCodes: ["phone_invalid"] });
    expect(byName(before, "#1003")).toMatchObject({
      payment: "prepaid",
      delivery: null,
      sendable: false,
      holdCodes: ["delivery_method_unknown"],
    });

    const edited = await rulesOfForm(appContext(), SHOP, {
      paymentRules: [{ match: "liqpay", method: "cashOnDelivery" }],
      deliveryRules: [{ match: "експрес", method: "kyivCourier" }],
    });
    if (!edited.ok) throw new Error("the rules should parse");
    const after = previewRules(orders, edited.mapping);
    expect(byName(after, "#1003")).toMatchObject({ payment: "cashOnDelivery", delivery: "kyivCourier" });
    expect(await db.shopSettings.findUnique({ where: { shop: SHOP } })).toBeNull();
  });

  it("saves the rules through the settings, keeping the rest, and marks the step done", async () => {
    const { db } = appContext();
    await db.shopSettings.create({
      data: { shop: SHOP, mapping: JSON.stringify({ idOrderPrefix: "UA-", sendNoteAsComment: false }) },
    });
    const answer = await saveRules(appContext(), SHOP, {
      paymentRules: [{ match: "LiqPay", method: "prepaid" }],
      deliveryRules: [],
    });
    expect(answer).toEqual({ ok: true, done: { key: "onboarding:rules.saved" } });
    const row = await db.shopSettings.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(JSON.parse(row.mapping)).toMatchObject({
      idOrderPrefix: "UA-",
      sendNoteAsComment: false,
      paymentRules: [{ match: "LiqPay", method: "prepaid" }],
    });
    expect((await loadOnboarding(db, SHOP)).steps.rules).toBeDefined();
  });

  it("refuses a rule without text, saving nothing", async () => {
    const answer = await saveRules(appContext(), SHOP, {
      paymentRules: [{ match: " ", method: "prepaid" }],
      deliveryRules: [],
    });
    expect(answer).toMatchObject({
      ok: false,
      problems: [{ key: "settings:errors.ruleMatchEmpty" }],
    });
    expect(await appContext().db.shopSettings.findUnique({ where: { shop: SHOP } })).toBeNull();
  });
});

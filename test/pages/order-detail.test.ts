// One order's page in a real browser: hold reasons with their fix forms, the actions, where the order is
// at the warehouse, the exact body sent, the warehouse ids and the timeline.
import { afterAll, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { erasePersonalDataDue } from "../../app/compliance/retention.server";
import { applyToOrder } from "../../app/orders/commit.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { readReturnRecord } from "../../app/returns/read";
import { reconcileRouting } from "../../app/routing/reconcile.server";
import { recordReturns } from "../../app/returns/work.server";
import { saveSettings } from "../../app/settings/settings.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { SHOP, textOf, useAdminPages } from "./support/admin-pages";
import { driveOrder, FIXTURE_ORDER, seedOrder, statusReport, inEnglishWords } from "../support/orders";
import { startWarehouseSimulator } from "../warehouse-sim/server";
import { KYIV_CITY_REF } from "../warehouse-sim/reference-data";

// The courier address's street search asks the warehouse (getStreet) through the shop's key.
const sim = await startWarehouseSimulator();
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;
afterAll(() => sim.close());

const pages = useAdminPages();

const WAREHOUSE = "gid://shopify/Location/81";
const SHOWROOM = "gid://shopify/Location/82";

/**
 * An order of a shop with two online locations, taken in (so it waits for routing), with its fulfillment orders
 * stored as the reading side stores them ([location, line item, units] each) and applied.
 */
async function routedOrder(n: number, lines: [string, string, number][]) {
  const context = appContext();
  const id = 6123456790000 + n;
  await takeInOrderWebhook(context, {
    shop: SHOP,
    topic: "orders/create",
    eventId: `routed-${n}`,
    order: shopifyOrderSchema.parse({
      ...FIXTURE_ORDER,
      id,
      admin_graphql_api_id: `gid://shopify/Order/${id}`,
      name: `#${n}`,
      order_number: n,
    }),
  });
  for (const [i, [locationId, lineItemId, units]] of lines.entries()) {
    const now = new Date();
    await context.db.shopifyFulfillmentOrder.create({
      data: {
        shop: SHOP,
        id: `gid://shopify/FulfillmentOrder/${n}${i}`,
        shopifyOrderId: String(id),
        locationId,
        status: "OPEN",
        requestStatus: "UNSUBMITTED",
        lines: JSON.stringify([
          { id: `l${i}`, lineItemId, sku: null, totalQuantity: units, remainingQuantity: units },
        ]),
        shopifyUpdatedAt: now,
        readAt: now,
      },
    });
  }
  if (lines.length) await reconcileRouting(context, SHOP, [String(id)]);
  return context.db.warehouseOrder.findFirstOrThrow({ where: { shop: SHOP, shopifyOrderId: String(id) } });
}

describe("order page", () => {
  it("shows why a held order waits, and a phone fix re-maps it so it becomes ready", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1001, state: "held", phone: "+48 601 234 567" });
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);

    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("Waiting for you: something in the order must be fixed");
    expect(await body()).toContain(
      'The phone number "+48 601 234 567" (from the shipping address) is not a Ukrainian mobile or landline number.',
    );
    expect(await body()).toContain("Enter the recipient's Ukrainian phone number");

    await page.getByLabel("Recipient's phone").fill("+380 67 123 45 67");
    await page.getByRole("button", { name: "Save and check again" }).click();

    const standing = page.getByText("Where it stands").locator("..");
    await expect.poll(() => textOf(standing)).toContain("Ready to send");
    expect(await body()).toContain("Saved; the order will be sent.");
    expect(await body()).not.toContain("What to fix before it can be sent");
    const row = await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(row.state).toBe("ready");
    expect(JSON.parse(row.overrides)).toEqual({ phone: "+380 67 123 45 67" });
    expect(JSON.parse(row.mapped!)).toMatchObject({ rec_phone: "380671234567", id_order: "1001" });
    // What will be sent is on the page.
    expect(await textOf(page.getByLabel("Order to send"))).toContain('"rec_phone": "380671234567"');
  });

  it("offers the carrier's streets for a courier address held for its street, and sends the one chosen", async () => {
    const context = appContext();
    const { db } = context;
    const saved = await saveSettings(context, SHOP, {
      apiKey: sim.apiKey,
      environment: "production",
      batchAddOrder: true,
      mapping: {},
    });
    if (!saved.ok) throw new Error(JSON.stringify(saved.errors));
    // A Kyiv courier order whose address names no street.
    const id = 6123456781001;
    await takeInOrderWebhook(context, {
      shop: SHOP,
      topic: "orders/create",
      eventId: "courier-1001",
      order: shopifyOrderSchema.parse({
        ...FIXTURE_ORDER,
        id,
        admin_graphql_api_id: `gid://shopify/Order/${id}`,
        name: "#1001",
        order_number: 1001,
        note_attributes: [],
        shipping_lines: [{ title: "Кур'єр по Києву", code: null, source: "shopify" }],
        shipping_address: {
          ...FIXTURE_ORDER.shipping_address,
          phone: "067 123 45 67",
          address1: "",
          address2: null,
        },
      }),
    });
    const order = await db.warehouseOrder.findFirstOrThrow({ where: { shop: SHOP } });
    expect(order.state).toBe("held");
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);

    const street = page.getByLabel("Street");
    await street.fill("Хрещ");
    await page.getByRole("option", { name: "вул. Хрещатик", exact: true }).click();
    await expect.poll(() => street.inputValue()).toBe("вул. Хрещатик");
    await page.getByLabel("House").fill("22");
    await page.getByRole("button", { name: "Save and check again" }).click();

    const standing = page.getByText("Where it stands").locator("..");
    await expect.poll(() => textOf(standing)).toContain("Ready to send");
    const row = await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(JSON.parse(row.mapped!)).toMatchObject({
      delivery_address: { DeliveryCity: KYIV_CITY_REF, Street: "вул. Хрещатик", House: "22" },
    });
    // Typing the name through asked the warehouse for its first letters once.
    expect(sim.stats().requests[OPERATIONS.getStreet]).toBe(1);
  });

  it("a phone that is not Ukrainian is refused beside the field and changes nothing", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1001, state: "held", phone: "+48 601 234 567" });
    const events = await db.orderEvent.count({ where: { orderId: order.id } });
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);

    await page.getByLabel("Recipient's phone").fill("+44 20 7946 0958");
    await page.getByRole("button", { name: "Save and check again" }).click();

    const field = page.locator(".Polaris-Labelled__Error", { hasText: "must be a Ukrainian phone number" });
    await field.waitFor();
    const row = await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } });
    expect(row).toMatchObject({ state: "held", overrides: "{}", mapped: null });
    expect(await db.orderEvent.count({ where: { orderId: order.id } })).toBe(events);
  });

  it("shows Shopify's requests in service mode, and sends again an answer whose retries ran out", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1401, state: "accepted" });
    const row = {
      shop: SHOP,
      shopifyOrderId: order.shopifyOrderId,
      locationId: "gid://shopify/Location/77",
      status: "OPEN",
      lines: "[]",
      shopifyUpdatedAt: new Date(),
      readAt: new Date(),
    };
    await db.shopifyFulfillmentOrder.create({
      data: {
        ...row,
        id: "gid://shopify/FulfillmentOrder/91",
        requestStatus: "ACCEPTED",
        answered: "accept",
      },
    });
    await db.shopifyFulfillmentOrder.create({
      data: {
        ...row,
        id: "gid://shopify/FulfillmentOrder/92",
        requestStatus: "SUBMITTED",
        answer: "accept",
        answerAttempts: 6,
        answerProblem: "Shopify rejected ServiceAcceptFulfillmentRequest: Internal error",
      },
    });
    const { page } = pages.admin;
    const body = () => textOf(page.locator("body"));
    await pages.admin.open(`/app/orders/${order.id}`);
    await expect.poll(body).toContain("Requests from Shopify");
    expect(await body()).toContain("Fulfillment request accepted in Shopify.");
    expect(await body()).toContain("The answer to Shopify's request did not go through");
    expect(await body()).toContain("Shopify rejected ServiceAcceptFulfillmentRequest: Internal error");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect.poll(body).toContain("The answer is sent again now.");
    const retried = await db.shopifyFulfillmentOrder.findUniqueOrThrow({
      where: { shop_id: { shop: SHOP, id: "gid://shopify/FulfillmentOrder/92" } },
    });
    expect(retried).toMatchObject({ answerProblem: null, answerAttempts: 0, answer: "accept" });
    expect(retried.answerDueAt).not.toBeNull();
    expect(await db.shopSchedule.count({ where: { shop: SHOP, kind: "fulfillment_requests" } })).toBe(1);
  });

  it("shows the exact body the warehouse has, its ids, and the timeline newest first with request and answer", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "77001" });
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);

    const sent = await textOf(page.getByLabel("Order sent"));
    expect(JSON.parse((await page.getByLabel("Order sent").textContent())!)).toEqual(
      JSON.parse(order.sentOrder!),
    );
    expect(sent).toContain('"id_order": "1003"');
    const ids = await textOf(page.getByRole("heading", { name: "Reference numbers" }).locator(".."));
    expect(ids).toContain("id_order1003");
    expect(ids).toContain("id_order_FF77001");
    expect(ids).toContain("key_orderkey-77001");
    // The admin's own page for the order, through App Bridge's shopify: protocol.
    expect(await page.getByRole("link", { name: "Open in Shopify" }).getAttribute("href")).toBe(
      `shopify://admin/orders/${order.shopifyOrderId}`,
    );

    const kinds = await page
      .locator("[data-event-kind]")
      .evaluateAll((events) => events.map((event) => event.getAttribute("data-event-kind")));
    expect(kinds).toEqual(["accepted", "ready", "received"]);
    // The newest event's: the warehouse's answer (the ready event before it keeps the mapped order).
    const details = page.getByLabel("Event details").first();
    expect(await details.isVisible()).toBe(false);
    await page.getByText("Request and answer").click();
    expect(await details.isVisible()).toBe(true);
    expect(await textOf(details)).toContain('"id_order_FF": "77001"');
    expect(await textOf(details)).toContain('"id_order": "1003"');
  });

  it("shows an order whose customer's details were removed: its numbers, stage and timeline, and why the rest is gone", async () => {
    const context = appContext();
    const { db } = context;
    const order = await seedOrder(db, { shop: SHOP, number: 1004, state: "accepted", idOrderFF: "77004" });
    await db.warehouseOrder.update({
      where: { id: order.id },
      data: { stage: "delivered", stageAt: new Date("2026-03-05T10:00:00Z") },
    });
    // The retention run, 91 days after the delivery.
    await erasePersonalDataDue({ ...context, clock: () => new Date("2026-06-04T10:00:00Z") }, SHOP);
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);
    const body = await textOf(page.locator("body"));
    expect(body).toContain("Customer details removed");
    expect(body).toContain("were removed from the app on 4 Jun 2026, 13:00");
    expect(body).toContain("What was sent to the warehouse was removed with the customer's details.");
    expect(body).toContain("id_order_FF77004");
    expect(body).toContain(
      "The customer's details were removed: they are kept 90 days after an order is finished.",
    );
    expect(body).not.toMatch(/Коваленко|Хрещатик/);
    expect(body).not.toContain("Nothing has been accepted by the warehouse yet.");
    const kinds = await page
      .locator("[data-event-kind]")
      .evaluateAll((events) => events.map((event) => event.getAttribute("data-event-kind")));
    expect(kinds).toEqual(["data_erased", "accepted", "ready", "received"]);

    const admin = await pages.adminIn("uk");
    await admin.open(`/app/orders/${order.id}`);
    const ukrainian = await textOf(admin.page.locator("body"));
    expect(ukrainian).toContain("Дані покупця видалено");
    expect(ukrainian).toContain("Надіслане на склад видалено разом із даними покупця.");
    expect(ukrainian).toContain("видалено: дані покупця зберігаються 90 днів після завершення замовлення");
  });

  it("shows a shipped order's stage, its waybill linked to the carrier's tracking page, and the statuses", async () => {
    const { db } = appContext();
    const order = await driveOrder(
      await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "77001" }),
      statusReport("Собран", "picked"),
      statusReport("Отгружен", "shipped", "20450000000001", {
        id: "5",
        name: "Відправлення прямує до міста",
        date: "02.03.2026 18:40:00",
      }),
    );
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);

    const shipment = page.getByRole("region", { name: "At the warehouse" });
    const text = await textOf(shipment);
    expect(text).toContain("Shipped");
    expect(text).toContain("The warehouse has handed the parcel to the carrier.");
    // Each label over its value, the date as the warehouse wrote it.
    expect(text).toContain("Warehouse statusОтгружен (7)02.03.2026 10:00:00");
    expect(text).toContain("Carrier statusВідправлення прямує до міста (5)02.03.2026 18:40:00");
    // Shipped with a waybill: Shopify is due to be told, but no location stands for the warehouse yet.
    expect(text).toContain("it can be fulfilled in Shopify only at the location that stands for the");
    expect(
      await shipment
        .getByRole("link", { name: "Choose it on the Statuses and fulfillment page" })
        .getAttribute("href"),
    ).toContain("/app/settings/statuses");

    await db.shopSettings.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, locationId: "gid://shopify/Location/1" },
      update: { locationId: "gid://shopify/Location/1" },
    });
    await pages.admin.open(`/app/orders/${order.id}`);
    expect(await textOf(shipment)).toContain(
      "The fulfillment is waiting to be made in Shopify with the waybill.",
    );

    const waybill = shipment.getByRole("link", { name: "20450000000001" });
    expect(await waybill.getAttribute("href")).toBe(
      "https://novaposhta.ua/tracking/?cargo_number=20450000000001",
    );
    expect(await waybill.getAttribute("target")).toBe("_blank");

    // The new events, newest first, each with its label.
    const events = await page
      .locator("[data-event-kind]")
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-event-kind")));
    expect(events.slice(0, 3)).toEqual(["ttn_assigned", "shipped", "picked"]);
    expect(await textOf(page.locator('[data-event-kind="ttn_assigned"]'))).toContain(
      "Waybill assignedThe warehouse gave the waybill 20450000000001.",
    );
    expect(await textOf(page.locator('[data-event-kind="shipped"]'))).toContain(
      "ShippedThe warehouse has shipped the order.",
    );
  });

  it("an order cancelled at the warehouse says what to do in Shopify", async () => {
    const { db } = appContext();
    const order = await driveOrder(
      await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "77001" }),
      statusReport("Отменен", "cancelled_at_warehouse"),
    );
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);

    const body = await textOf(page.locator("body"));
    expect(body).toContain("The warehouse cancelled this order");
    expect(body).toContain(inEnglishWords(order.attentionMessage));
    expect(inEnglishWords(order.attentionMessage)).toContain("Shopify");
    const shipment = await textOf(page.getByRole("region", { name: "At the warehouse" }));
    expect(shipment).toContain("Cancelled by the warehouse");
    expect(shipment).toContain("Not yet given");
    expect(shipment).toContain("Nothing was fulfilled in Shopify.");
  });

  it("a partial return says what came back and what did not, and leaves the order delivered", async () => {
    const { db } = appContext();
    const order = await driveOrder(
      await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "77001" }),
      statusReport("Доставлен", "delivered", "20450000000001"),
    );
    await recordReturns({ ...appContext(), shop: SHOP }, [
      readReturnRecord({
        id_return: "ВП-000777",
        id_order: order.idOrder,
        date: "05.03.2026",
        TTN: "20450000000777",
        products: [{ sku: "CUP-KARP-BLUE", count: 1, marriage: false }],
      }),
    ]);
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);
    const body = () => textOf(page.locator("body"));
    await expect.poll(body).toContain("Part of this order came back to the warehouse");
    expect(await body()).toContain(
      "Part of this order came back to the warehouse: CUP-KARP-BLUE × 1. Not back: CUP-KARP-BLUE × 1, TEA-POL-100 × 1.",
    );
    expect(await textOf(page.getByRole("region", { name: "At the warehouse" }))).toContain("Delivered");
  });

  it("cancels at the warehouse only after the merchant confirms", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1003, state: "accepted", idOrderFF: "77001" });
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);

    await page.getByRole("button", { name: "Cancel at the warehouse" }).click();
    await page.getByRole("button", { name: "Keep the order" }).click();
    expect(await page.getByRole("button", { name: "Yes, cancel it" }).count()).toBe(0);
    expect((await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } })).pending).toBeNull();

    await page.getByRole("button", { name: "Cancel at the warehouse" }).click();
    await page.getByRole("button", { name: "Yes, cancel it" }).click();
    await expect
      .poll(() => textOf(page.locator("body")))
      .toContain("A cancellation is waiting to be sent to the warehouse.");
    expect(await textOf(page.locator("body"))).toContain("The cancellation will be sent to the warehouse.");
    expect((await db.warehouseOrder.findUniqueOrThrow({ where: { id: order.id } })).pending).toBe("cancel");
    expect(await page.getByRole("button", { name: "Cancel at the warehouse" }).count()).toBe(0);
  });

  it("submits a ready order now", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: SHOP, number: 1002, state: "ready" });
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${order.id}`);
    await page.getByRole("button", { name: "Submit now" }).click();
    await expect.poll(() => textOf(page.locator("body"))).toContain("The order will be sent now.");
    expect(await db.orderEvent.count({ where: { orderId: order.id, kind: "retry_requested" } })).toBe(1);
  });

  it("shows what a waiting order waits for in Shopify", async () => {
    const context = appContext();
    const { db } = context;
    await db.shopSettings.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, locationId: WAREHOUSE, onlineLocations: JSON.stringify([WAREHOUSE, SHOWROOM]) },
      update: { locationId: WAREHOUSE, onlineLocations: JSON.stringify([WAREHOUSE, SHOWROOM]) },
    });
    const row = await routedOrder(1301, []);
    await pages.admin.open(`/app/orders/${row.id}`);
    const standing = pages.admin.page.getByText("Where it stands").locator("..");
    expect(await textOf(standing)).toContain("Waiting for Shopify");
    const body = await textOf(pages.admin.page.locator("body"));
    expect(body).toContain("Shopify has not yet said which location fulfils the order.");
    expect(body).toContain("Waiting for Shopify to route the order to its locations");
    // Nothing is shown as about to be sent while Shopify has not given the warehouse its lines.
    expect(await pages.admin.page.getByLabel("Order to send").count()).toBe(0);
  });

  it("says when an order's fulfillment orders could not be applied, and Retry tries them again", async () => {
    const context = appContext();
    const { db } = context;
    await db.shopSettings.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, locationId: WAREHOUSE, onlineLocations: JSON.stringify([WAREHOUSE, SHOWROOM]) },
      update: { locationId: WAREHOUSE, onlineLocations: JSON.stringify([WAREHOUSE, SHOWROOM]) },
    });
    const row = await routedOrder(1302, []);
    // Put aside by routing (app/routing/failures.server.ts), its one fulfillment order no longer owed.
    await db.shopifyFulfillmentOrder.create({
      data: {
        shop: SHOP,
        id: "gid://shopify/FulfillmentOrder/13020",
        shopifyOrderId: row.shopifyOrderId,
        locationId: WAREHOUSE,
        status: "OPEN",
        requestStatus: "UNSUBMITTED",
        lines: "[]",
        shopifyUpdatedAt: new Date(),
        readAt: new Date(),
        reconcileFailures: 5,
      },
    });
    await applyToOrder(context, row, { type: "routing_failed", failure: "payload", attempts: 5 });
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${row.id}`);
    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("Shopify's fulfillment orders could not be applied to this order");
    expect(await body()).toContain("It tried 5 times and stopped; the other orders are routed as usual.");

    await page.getByRole("button", { name: "Retry" }).click();
    await expect
      .poll(body)
      .toContain("Shopify's fulfillment orders will be applied to the order again in a moment.");
    const [fo] = await db.shopifyFulfillmentOrder.findMany({ where: { shopifyOrderId: row.shopifyOrderId } });
    expect([fo!.reconcilePending, fo!.reconcileFailures]).toEqual([true, 0]);
    expect(await db.orderEvent.count({ where: { orderId: row.id, kind: "retry_requested" } })).toBe(1);
  });

  it("offers three choices for a split order paid on delivery, and one click makes it ready", async () => {
    const { db } = appContext();
    await db.shopSettings.upsert({
      where: { shop: SHOP },
      create: { shop: SHOP, locationId: WAREHOUSE, onlineLocations: JSON.stringify([WAREHOUSE, SHOWROOM]) },
      update: { locationId: WAREHOUSE, onlineLocations: JSON.stringify([WAREHOUSE, SHOWROOM]) },
    });
    const row = await routedOrder(1302, [
      [WAREHOUSE, "gid://shopify/LineItem/15012345678901", 2],
      [SHOWROOM, "gid://shopify/LineItem/15012345678902", 1],
    ]);
    expect((await db.warehouseOrder.findUniqueOrThrow({ where: { id: row.id } })).state).toBe("held");
    const { page } = pages.admin;
    await pages.admin.open(`/app/orders/${row.id}`);
    const body = () => textOf(page.locator("body"));
    expect(await body()).toContain("Shopify split #1302 over locations and it is paid on delivery");
    expect(await body()).toContain("Collect the whole sum still owed");
    expect(await body()).toContain("Collect nothing with this parcel");
    await page.getByRole("button", { name: "Collect the parcel's share" }).click();
    const standing = page.getByText("Where it stands").locator("..");
    await expect.poll(() => textOf(standing)).toContain("Ready to send");
    const after = await db.warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
    expect(JSON.parse(after.overrides)).toEqual({ splitCod: "parcel_share" });
    expect(JSON.parse(after.mapped!)).toMatchObject({ order_payment_sum: "630.00", Cost: 630 });
    expect(await body()).toContain("Only the items Shopify assigned to the warehouse's location are sent");
  });

  it("another store's order is not found", async () => {
    const { db } = appContext();
    const order = await seedOrder(db, { shop: "other-store.myshopify.com", number: 1001, state: "held" });
    await pages.admin.open(`/app/orders/${order.id}`);
    const body = await textOf(pages.admin.page.locator("body"));
    expect(body).toContain("Order not found");
    expect(body).not.toContain("#1001");
  });
});

import { randomUUID } from "node:crypto";
import { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { finishIncompleteComplianceRequests, shopScopedModels } from "../../app/compliance/compliance.server";
import {
  PERSONAL_DATA_SOURCES,
  TABLES_WITHOUT_CUSTOMER_DATA,
} from "../../app/compliance/personal-data.server";
import { appContext } from "../../app/context.server";
import { modelDelegate } from "../../app/db.server";
import { seedOrder as seedAcceptedOrder, inEnglishWords } from "../support/orders";
import { sendWebhook } from "../support/webhooks";

const shop = "privacy.myshopify.com";
const otherShop = "neighbour.myshopify.com";
const customer = { id: 7001, email: "olena@example.com", phone: "+380671234567" };

function dataRequest(webhookId = randomUUID(), customerId = customer.id) {
  return sendWebhook({
    topic: "customers/data_request",
    shop,
    webhookId,
    payload: {
      shop_id: 1,
      shop_domain: shop,
      orders_requested: [1001, 1002],
      customer: { ...customer, id: customerId },
      data_request: { id: 9999 },
    },
  });
}

async function seedShopData(domain: string) {
  const { db } = appContext();
  await db.shop.create({
    data: {
      shop: domain,
      name: domain,
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: "read_orders",
      installedAt: new Date(),
    },
  });
  await db.session.create({ data: { id: `offline_${domain}`, shop: domain, state: "s", accessToken: "t" } });
  await db.complianceRequest.create({
    data: {
      shop: domain,
      topic: "customers/data_request",
      webhookId: randomUUID(),
      customerId: "1",
      report: "{}",
    },
  });
  await seedOrder(domain, "1001", String(customer.id));
  await db.shopSettings.create({ data: { shop: domain } });
  await db.webhookEvent.create({
    data: { shop: domain, eventId: "e1", topic: "orders/create", receivedAt: new Date() },
  });
  await db.workLease.create({ data: { shop: domain, holder: "w1", expiresAt: new Date() } });
  await db.rateLimitState.create({ data: { key: `digest-${domain}`, shop: domain, state: "{}" } });
  await db.shopSchedule.create({ data: { shop: domain, kind: "remap_orders", nextRunAt: new Date() } });
  await db.webhookRefusal.create({
    data: { shop: domain, topic: "orders/create", count: 1, firstAt: new Date(), lastAt: new Date() },
  });
  await db.catalogueItem.create({
    data: { shop: domain, variantId: "1", productId: "1", sku: "SKU-1", name: "Вишиванка" },
  });
  await db.stockSync.create({
    data: { shop: domain, trigger: "manual", quantityName: "available", startedAt: new Date() },
  });
  await db.catalogueSync.create({ data: { shop: domain, phase: "done", startedAt: new Date() } });
  await db.shopifyFulfillmentOrder.create({
    data: {
      shop: domain,
      id: "gid://shopify/FulfillmentOrder/1",
      shopifyOrderId: "1001",
      locationId: "gid://shopify/Location/1",
      status: "OPEN",
      requestStatus: "UNSUBMITTED",
      lines: "[]",
      shopifyUpdatedAt: new Date(),
      readAt: new Date(),
    },
  });
  await db.routingHint.create({
    data: { shop: domain, fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1", at: new Date() },
  });
  await db.warehouseReturn.create({
    data: { shop: domain, returnKey: "id:R1", raw: "{}", firstSeenAt: new Date(), lastSeenAt: new Date() },
  });
  await db.inboundDelivery.create({
    data: {
      shop: domain,
      idRequest: "IN-1",
      state: "sent",
      deliveryDate: "2026-11-27",
      method: "На склад",
      seats: 1,
    },
  });
}

/** An order taken in and accepted by the warehouse: the customer's name and phone in each copy we keep. */
async function seedOrder(domain: string, shopifyOrderId: string, customerId: string) {
  await seedAcceptedOrder(appContext().db, {
    shop: domain,
    number: Number(shopifyOrderId),
    shopifyOrderId: Number(shopifyOrderId),
    customerId: Number(customerId),
    state: "accepted",
  });
}

describe("customers/data_request", () => {
  it("records the request and produces the report of what we hold for that customer", async () => {
    const earlier = await dataRequest();
    expect(earlier.status).toBe(200);
    const response = await dataRequest();
    expect(response.status).toBe(200);

    const requests = await appContext().db.complianceRequest.findMany({
      where: { shop, topic: "customers/data_request" },
      orderBy: { receivedAt: "asc" },
    });
    expect(requests).toHaveLength(2);
    const latest = requests[1]!;
    expect(latest.completedAt).toBeInstanceOf(Date);
    expect(JSON.parse(latest.orderIds!)).toEqual(["1001", "1002"]);
    const report = JSON.parse(latest.report!) as {
      customerId: string;
      dataRequestId: string;
      ordersRequested: string[];
      sources: { table: string; records: { id: string }[] }[];
    };
    expect(report).toMatchObject({
      customerId: "7001",
      dataRequestId: "9999",
      ordersRequested: ["1001", "1002"],
    });
    expect(report.sources.map((source) => source.table)).toEqual(
      PERSONAL_DATA_SOURCES.map((source) => source.table),
    );
    // The earlier request's report is data we hold about this customer, so it is listed.
    const held = report.sources.find((source) => source.table === "ComplianceRequest")!.records;
    expect(held.map((record) => record.id)).toContain(requests[0]!.id);
  });

  it("handles a redelivered webhook once", async () => {
    const webhookId = randomUUID();
    expect((await dataRequest(webhookId)).status).toBe(200);
    expect((await dataRequest(webhookId)).status).toBe(200);
    expect(await appContext().db.complianceRequest.count({ where: { shop } })).toBe(1);
  });

  it("answers 400 and stores nothing when the customer is missing", async () => {
    const response = await sendWebhook({
      topic: "customers/data_request",
      shop,
      payload: { shop_domain: shop, data_request: { id: 1 } },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/customer/);
    expect(await appContext().db.complianceRequest.count()).toBe(0);
  });
});

describe("customers/redact", () => {
  it("erases the customer's orders' personal data, keeps their record, and lists them in a data request", async () => {
    const { db } = appContext();
    await seedOrder(shop, "1001", "7001");
    await seedOrder(shop, "3003", "9009");
    // The warehouse's return records are not documented: one that names the buyer.
    const returned = async (shopifyOrderId: string, raw: string) => {
      const order = await db.warehouseOrder.findFirstOrThrow({ where: { shop, shopifyOrderId } });
      const at = new Date();
      return db.warehouseReturn.create({
        data: {
          shop,
          returnKey: `id:${shopifyOrderId}`,
          idOrder: order.idOrder,
          orderId: order.id,
          ttn: "20450000000001",
          raw,
          firstSeenAt: at,
          lastSeenAt: at,
        },
      });
    };
    const ownReturn = await returned("1001", '{"id_return":"1","buyer":"Олена Коваль"}');
    const otherReturn = await returned("3003", '{"id_return":"2","buyer":"Петро Шевчук"}');
    // One kept before the sweep knew its order: it names the order's id_order only.
    const unlinked = await db.warehouseReturn.create({
      data: { ...ownReturn, id: undefined, returnKey: "id:1001-b", orderId: null, raw: '{"id_return":"3"}' },
    });
    expect((await dataRequest()).status).toBe(200);
    const report = JSON.parse(
      (await db.complianceRequest.findFirstOrThrow({ where: { topic: "customers/data_request" } })).report!,
    ) as { sources: { table: string; records: { orderName: string }[] }[] };
    const returns = report.sources.find((source) => source.table === "WarehouseReturn")!.records;
    expect(returns).toHaveLength(2);
    expect(returns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ warehouseRecord: ownReturn.raw, ttn: "20450000000001" }),
        expect.objectContaining({ warehouseRecord: unlinked.raw }),
      ]),
    );
    const orders = report.sources.find((source) => source.table === "WarehouseOrder")!.records;
    expect(orders.map((order) => order.orderName)).toEqual(["#1001"]);
    const asSent = report.sources.find((source) => source.table === "OrderPayload")!.records;
    expect(asSent).toEqual([
      expect.objectContaining({ orderName: "#1001", shopifyOrder: expect.objectContaining({ id: "1001" }) }),
    ]);

    const response = await sendWebhook({
      topic: "customers/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop, customer, orders_to_redact: [1001] },
    });
    expect(response.status).toBe(200);
    const erased = await db.warehouseOrder.findFirstOrThrow({
      where: { shopifyOrderId: "1001" },
      include: { shopifyOrder: true },
    });
    expect(erased).toMatchObject({ state: "accepted", mapped: null, sentOrder: null });
    expect(erased.shopifyOrder?.payload).toBe("{}");
    const events = await db.orderEvent.findMany({
      where: { orderId: erased.id },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    });
    // Intake's and the worker's events all carried the customer (the mapped order, the request sent).
    expect(events.map((event) => [event.kind, inEnglishWords(event.message), event.data])).toEqual(
      ["received", "ready", "accepted"].map((kind) => [kind, "(erased at the customer's request)", null]),
    );
    // The return's record as the warehouse wrote it goes; what came back stays. Another customer's stays whole.
    expect(await db.warehouseReturn.findUniqueOrThrow({ where: { id: ownReturn.id } })).toMatchObject({
      raw: "(erased at the customer's request)",
      ttn: "20450000000001",
    });
    expect((await db.warehouseReturn.findUniqueOrThrow({ where: { id: unlinked.id } })).raw).toBe(
      "(erased at the customer's request)",
    );
    expect((await db.warehouseReturn.findUniqueOrThrow({ where: { id: otherReturn.id } })).raw).toBe(
      otherReturn.raw,
    );
    const kept = await db.warehouseOrder.findFirstOrThrow({
      where: { shopifyOrderId: "3003" },
      include: { shopifyOrder: true },
    });
    expect(kept.sentOrder).toContain("Олена");
    expect(kept.shopifyOrder?.payload).toContain("Олена");
  });

  it("erases that customer's personal data and leaves other customers' alone", async () => {
    await dataRequest();
    await dataRequest(randomUUID(), 8002);

    const response = await sendWebhook({
      topic: "customers/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop, customer, orders_to_redact: [1001] },
    });
    expect(response.status).toBe(200);

    const { db } = appContext();
    const reports = await db.complianceRequest.findMany({
      where: { shop, topic: "customers/data_request" },
      select: { customerId: true, report: true },
    });
    expect(reports.find((row) => row.customerId === "7001")!.report).toBeNull();
    expect(reports.find((row) => row.customerId === "8002")!.report).not.toBeNull();
    const redaction = await db.complianceRequest.findFirstOrThrow({ where: { topic: "customers/redact" } });
    expect(redaction.completedAt).toBeInstanceOf(Date);
  });

  it("answers 401 to a forged request and erases nothing", async () => {
    await dataRequest();
    const response = await sendWebhook({
      topic: "customers/redact",
      shop,
      payload: { shop_domain: shop, customer, orders_to_redact: [] },
      hmac: "Zm9yZ2Vk",
    });
    expect(response.status).toBe(401);
    const row = await appContext().db.complianceRequest.findFirstOrThrow({ where: { shop } });
    expect(row.report).not.toBeNull();
  });
});

describe("shop/redact", () => {
  it("erases everything of the shop from every table and nothing of other shops", async () => {
    await seedShopData(shop);
    await seedShopData(otherShop);

    const response = await sendWebhook({
      topic: "shop/redact",
      shop,
      payload: { shop_id: 1, shop_domain: shop },
    });
    expect(response.status).toBe(200);

    for (const model of shopScopedModels()) {
      const delegate = modelDelegate(appContext().db, model);
      expect(await delegate.count({ where: { shop } }), model).toBe(0);
      expect(await delegate.count({ where: { shop: otherShop } }), model).toBeGreaterThan(0);
    }
  });
});

/** A request recorded by a process that stopped before it finished the work. */
async function unfinishedRequest(topic: string, receivedAt = new Date(), webhookId = randomUUID()) {
  return appContext().db.complianceRequest.create({
    data: {
      shop,
      topic,
      webhookId,
      customerId: String(customer.id),
      orderIds: JSON.stringify(["1001"]),
      dataRequestId: topic === "customers/data_request" ? "9999" : null,
      receivedAt,
    },
  });
}

async function customerDataErased(shopifyOrderId: string): Promise<boolean> {
  const order = await appContext().db.warehouseOrder.findFirstOrThrow({
    where: { shop, shopifyOrderId },
    include: { shopifyOrder: true },
  });
  return order.sentOrder === null && order.shopifyOrder?.payload === "{}";
}

describe("compliance is never skipped", () => {
  it("does a customers/redact again when its redelivery finds it recorded but not completed", async () => {
    await seedOrder(shop, "1001", String(customer.id));
    const webhookId = randomUUID();
    await unfinishedRequest("customers/redact", new Date(), webhookId);

    const response = await sendWebhook({
      topic: "customers/redact",
      shop,
      webhookId,
      payload: { shop_id: 1, shop_domain: shop, customer, orders_to_redact: [1001] },
    });
    expect(response.status).toBe(200);
    expect(await customerDataErased("1001")).toBe(true);
    const request = await appContext().db.complianceRequest.findFirstOrThrow({ where: { webhookId } });
    expect(request.completedAt).toBeInstanceOf(Date);
  });

  it("answers a data request again when its redelivery finds it without a report", async () => {
    const webhookId = randomUUID();
    await unfinishedRequest("customers/data_request", new Date(), webhookId);
    expect((await dataRequest(webhookId)).status).toBe(200);
    const request = await appContext().db.complianceRequest.findFirstOrThrow({ where: { webhookId } });
    expect(request.completedAt).toBeInstanceOf(Date);
    expect(JSON.parse(request.report!)).toMatchObject({ dataRequestId: "9999", customerId: "7001" });
  });

  it("the sweep finishes requests left incomplete, and leaves young ones to the request handling them", async () => {
    await seedOrder(shop, "1001", String(customer.id));
    const long = new Date(Date.now() - 5 * 60_000);
    const redaction = await unfinishedRequest("customers/redact", long);
    const report = await unfinishedRequest("customers/data_request", long);
    const young = await unfinishedRequest("customers/redact");

    expect(await finishIncompleteComplianceRequests(appContext())).toBe(2);

    const { db } = appContext();
    expect(await customerDataErased("1001")).toBe(true);
    const done = await db.complianceRequest.findMany({ where: { completedAt: { not: null } } });
    expect(done.map((request) => request.id).sort()).toEqual([redaction.id, report.id].sort());
    expect(JSON.parse(done.find((request) => request.id === report.id)!.report!)).toMatchObject({
      dataRequestId: "9999",
      ordersRequested: ["1001"],
    });
    expect(
      (await db.complianceRequest.findUniqueOrThrow({ where: { id: young.id } })).completedAt,
    ).toBeNull();
    // Nothing left: a second sweep finds nothing to do.
    expect(await finishIncompleteComplianceRequests(appContext())).toBe(0);
  });
});

describe("the shop comes from the signed body where the body names it", () => {
  it.each([
    ["customers/data_request", { customer, orders_requested: [1001], data_request: { id: 1 } }],
    ["customers/redact", { customer, orders_to_redact: [1001] }],
    ["shop/redact", {}],
  ])(
    "answers 400 to a %s whose shop_domain is not the header's, and changes nothing",
    async (topic, body) => {
      await seedShopData(shop);
      const response = await sendWebhook({
        topic,
        shop,
        payload: { shop_id: 2, shop_domain: otherShop, ...body },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toContain(otherShop);
      const { db } = appContext();
      expect(await db.complianceRequest.count({ where: { shop } })).toBe(1);
      expect(await customerDataErased("1001")).toBe(false);
      expect(await db.shop.count({ where: { shop } })).toBe(1);
    },
  );
});

describe("the personal data registry", () => {
  const models = Prisma.dmmf.datamodel.models.map((model) => model.name);

  it("accounts for every table: either it holds customer data and can describe and erase it, or it says why not", () => {
    const declared = [
      ...PERSONAL_DATA_SOURCES.map((source) => source.table),
      ...Object.keys(TABLES_WITHOUT_CUSTOMER_DATA),
    ];
    expect([...declared].sort()).toEqual([...models].sort());
  });

  // The carrier's public reference data is one set for the deployment, not any shop's (decision 020): it holds
  // nothing of a shop's, and no shop's erasure or changed key removes it.
  const KEPT_PER_KEY = ["CarrierBranch", "CarrierCity", "CarrierStreetLookup", "ReferenceSet"];

  it("can erase a whole shop from every table, because every table belongs to a shop", () => {
    expect(shopScopedModels().sort()).toEqual(models.filter((model) => !KEPT_PER_KEY.includes(model)).sort());
  });
});

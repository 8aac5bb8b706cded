// The catalogue over real HTTP: signed product webhooks reach the app, the SKU map keeps each variant's
// card, and the worker sends AddProduct to the simulator only for cards that differ from what the warehouse
// last accepted. Problems (no SKU, a SKU shared by two products) are kept for the merchant, not sent.
import { afterEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { requestStockSync } from "../../app/stock/kinds.server";
import { wakeWorker } from "../../app/work/worker.server";
import { FIXTURE_ORDER, inEnglishWords } from "../support/orders";
import { eventually, orderPayload, SHOP, startOrderFlow, type OrderFlow } from "./harness";

let flow: OrderFlow | undefined;
afterEach(async () => {
  await flow?.close();
  flow = undefined;
});

const db = () => appContext().db;

let products = 0;
/** A products/create or products/update body as Shopify sends it (the fields the app reads, and others). */
function productPayload(
  id: number,
  variants: { id: number; title?: string; sku: string | null; barcode?: string | null }[],
  changes: Record<string, unknown> = {},
) {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Product/${id}`,
    title: "Вишиванка лляна",
    body_html: "<p>Ручна робота</p>",
    status: "active",
    updated_at: new Date(Date.UTC(2026, 2, 14, 10, ++products)).toISOString(),
    variants: variants.map((variant) => ({
      id: variant.id,
      admin_graphql_api_id: `gid://shopify/ProductVariant/${variant.id}`,
      title: variant.title ?? "Default Title",
      sku: variant.sku,
      barcode: variant.barcode ?? null,
      inventory_item_id: variant.id + 1_000_000,
      price: "1200.00",
    })),
    ...changes,
  };
}

const addProducts = () => flow!.sim.stats().requests.AddProduct ?? 0;
const card = (sku: string) => flow!.sim.store().products.get(sku);
const itemOf = (variantId: number) =>
  db().catalogueItem.findUniqueOrThrow({
    where: {
      shop_variantId: {
        shop: "kyiv-goods.myshopify.com",
        variantId: `gid://shopify/ProductVariant/${variantId}`,
      },
    },
  });

describe("a product webhook", () => {
  it("sends each new card once with AddProduct, and an unchanged update sends nothing", async () => {
    flow = await startOrderFlow();
    await flow.post({
      topic: "products/create",
      payload: productPayload(7001, [
        { id: 8001, title: "S", sku: "VSH-S", barcode: "4820000000011" },
        { id: 8002, title: "M", sku: "VSH-M" },
      ]),
    });
    await eventually(() => addProducts() === 2, "both cards to be sent");
    expect(card("VSH-S")).toMatchObject({ name: "Вишиванка лляна - S", barcode: "4820000000011" });
    expect(card("VSH-M")).toMatchObject({ name: "Вишиванка лляна - M" });
    await eventually(async () => (await itemOf(8001)).dueAt === null, "the card's send to be recorded");
    expect(await itemOf(8001)).toMatchObject({ sentSku: "VSH-S", sentBarcode: "4820000000011", attempts: 0 });

    // The same product again (a price changed, say): nothing the warehouse keeps changed.
    await flow.post({
      topic: "products/update",
      payload: productPayload(7001, [
        { id: 8001, title: "S", sku: "VSH-S", barcode: "4820000000011" },
        { id: 8002, title: "M", sku: "VSH-M" },
      ]),
    });
    // A new barcode on one variant: that card alone goes again.
    await flow.post({
      topic: "products/update",
      payload: productPayload(7001, [
        { id: 8001, title: "S", sku: "VSH-S", barcode: "4820000000011" },
        { id: 8002, title: "M", sku: "VSH-M", barcode: "4820000000028" },
      ]),
    });
    await eventually(() => card("VSH-M")?.barcode === "4820000000028", "the new barcode at the warehouse");
    expect(addProducts()).toBe(3);
  });

  it("keeps a variant without a SKU and a SKU two products share for the merchant, and sends once it is fixed", async () => {
    flow = await startOrderFlow();
    await flow.post({
      topic: "products/create",
      payload: productPayload(7101, [
        { id: 8101, title: "S", sku: null },
        { id: 8102, title: "M", sku: "SHARED-1" },
      ]),
    });
    await flow.post({
      topic: "products/create",
      payload: productPayload(7102, [{ id: 8103, sku: "SHARED-1" }]),
    });
    expect(await itemOf(8101)).toMatchObject({ problem: "sku_missing", dueAt: null });
    expect(await itemOf(8102)).toMatchObject({ problem: "sku_duplicate", dueAt: null });
    expect(await itemOf(8103)).toMatchObject({ problem: "sku_duplicate", dueAt: null });
    expect((await itemOf(8103)).problemMessage).toMatch(/give each variant its own SKU/);

    // The second product's SKU made unique: both SKUs are free and sent.
    await flow.post({
      topic: "products/update",
      payload: productPayload(7102, [{ id: 8103, sku: "OWN-2" }]),
    });
    await eventually(() => Boolean(card("SHARED-1") && card("OWN-2")), "both cards at the warehouse");
    expect(await itemOf(8102)).toMatchObject({ problem: null });
    expect(addProducts()).toBe(2);
  });

  it("changes nothing when delivered after a newer one, or again", async () => {
    flow = await startOrderFlow();
    const older = productPayload(7201, [{ id: 8201, sku: "OLD-SKU" }]);
    const newer = productPayload(7201, [{ id: 8201, sku: "NEW-SKU" }]);
    await flow.post({ topic: "products/update", payload: newer, eventId: "event-newer" });
    await flow.post({ topic: "products/update", payload: older, eventId: "event-older" });
    await flow.post({ topic: "products/update", payload: newer, eventId: "event-newer" });
    expect(await itemOf(8201)).toMatchObject({ sku: "NEW-SKU" });
    await eventually(() => card("NEW-SKU") !== undefined, "the newer card at the warehouse");
    expect(card("OLD-SKU")).toBeUndefined();
    expect(addProducts()).toBe(1);
  });

  it("takes a deleted product out of the map, and frees the SKU it shared", async () => {
    flow = await startOrderFlow();
    await flow.post({ topic: "products/create", payload: productPayload(7301, [{ id: 8301, sku: "TWIN" }]) });
    await flow.post({ topic: "products/create", payload: productPayload(7302, [{ id: 8302, sku: "TWIN" }]) });
    expect(await itemOf(8301)).toMatchObject({ problem: "sku_duplicate" });
    await flow.post({ topic: "products/delete", payload: { id: 7302 } });
    expect(await itemOf(8302)).toMatchObject({ deletedAt: expect.any(Date), dueAt: null });
    await eventually(() => card("TWIN") !== undefined, "the freed card at the warehouse");
    expect(addProducts()).toBe(1);
  });

  it("keeps the warehouse's barcode when Shopify's variant has none", async () => {
    flow = await startOrderFlow();
    await flow.sim.seedProducts([
      { sku: "KEEP-BC", name: "Стара назва", barcode: "4820000000141", quantity: 3 },
    ]);
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8701",
        productId: "gid://shopify/Product/7701",
        sku: "KEEP-BC",
        name: "Нова назва",
        warehouseBarcode: "4820000000141",
        warehouseQuantity: 3,
        reportedAt: new Date(),
        dueAt: new Date(),
      },
    });
    wakeWorker(SHOP);
    await eventually(() => card("KEEP-BC")?.name === "Нова назва", "the renamed card at the warehouse");
    expect(card("KEEP-BC")).toMatchObject({ barcode: "4820000000141" });
  });

  it("holds a card the warehouse refuses with its words, and sends nothing more for it", async () => {
    flow = await startOrderFlow();
    flow.sim.faults.failNext({ count: 1, status: 400, operations: ["AddProduct"] });
    await flow.post({
      topic: "products/create",
      payload: productPayload(7401, [{ id: 8401, sku: "REFUSED-1" }]),
    });
    const held = await eventually(async () => {
      const row = await itemOf(8401);
      return row.problem ? row : null;
    }, "the refusal to be recorded");
    expect(held).toMatchObject({ problem: "refused", dueAt: null, attempts: 1 });
    expect(held.problemMessage).toMatch(/^The warehouse refused this product card: AddProduct/);
  });
});

/** An order whose first line names `sku` (the fixture's other lines name goods the simulator holds). */
function orderWith(n: number, sku: string) {
  const lines = FIXTURE_ORDER.line_items as Record<string, unknown>[];
  return orderPayload(n, { line_items: [{ ...lines[0], sku }, ...lines.slice(1)] });
}

async function eventKindsOf(shopifyOrderId: string) {
  const order = await db().warehouseOrder.findFirstOrThrow({ where: { shopifyOrderId } });
  const events = await db().orderEvent.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" } });
  return { order, kinds: events.map((event) => event.kind), events };
}

describe("an order naming a card the warehouse does not have yet", () => {
  it("waits for the card, which goes first, and then follows", async () => {
    flow = await startOrderFlow();
    // Goods already on the shelf under a provisional card (the simulator takes no order without stock);
    // the app's map has the product's own card, due in an hour (as after a failed attempt), never sent.
    await flow.sim.seedProducts([{ sku: "NEW-CARD-1", name: "Прихід без картки", quantity: 10 }]);
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8501",
        productId: "gid://shopify/Product/7501",
        sku: "NEW-CARD-1",
        name: "Чашка нова",
        dueAt: new Date(Date.now() + 3600_000),
        attempts: 1,
      },
    });
    await flow.post({ topic: "orders/create", payload: orderWith(4501, "NEW-CARD-1") });
    const accepted = await eventually(async () => {
      const found = await eventKindsOf(String(orderWith(4501, "x").id));
      // The order's state and its event are two writes: both, not the first alone.
      return found.order.state === "accepted" && found.kinds.includes("accepted") ? found : null;
    }, "the order to be accepted after its card");
    expect(accepted.kinds).toEqual(expect.arrayContaining(["awaiting_cards", "cards_accepted", "accepted"]));
    expect(accepted.kinds.indexOf("awaiting_cards")).toBeLessThan(accepted.kinds.indexOf("cards_accepted"));
    expect(accepted.order.awaitingCards).toBeNull();
    // Sent first, not after the hour, and before the order.
    expect(card("NEW-CARD-1")).toMatchObject({ name: "Чашка нова" });
    expect(addProducts()).toBe(1);
    const sent = await db().catalogueItem.findFirstOrThrow({ where: { sku: "NEW-CARD-1" } });
    expect(sent.sentAt!.getTime()).toBeLessThanOrEqual(accepted.order.submittedAt!.getTime());
  });

  it("is held with the warehouse's words while its card is refused, and goes once the product is fixed", async () => {
    flow = await startOrderFlow();
    await flow.sim.seedProducts([{ sku: "BAD-CARD-1", name: "Прихід без картки", quantity: 10 }]);
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8601",
        productId: "gid://shopify/Product/7601",
        sku: "BAD-CARD-1",
        name: "Чашка",
        problem: "refused",
        problemMessage: "The warehouse refused this product card: AddProduct: name is not allowed",
      },
    });
    await flow.post({ topic: "orders/create", payload: orderWith(4601, "BAD-CARD-1") });
    const parked = await eventually(async () => {
      const found = await eventKindsOf(String(orderWith(4601, "x").id));
      // The order is read before its events: a read of the order before its parking and of the events
      // after it would see the event without the parking.
      return found.kinds.includes("awaiting_cards") && found.order.awaitingCards ? found : null;
    }, "the order to wait");
    expect(parked.order).toMatchObject({
      state: "ready",
      nextAttemptAt: null,
      awaitingCards: '["BAD-CARD-1"]',
    });
    const waiting = parked.events.find((event) => event.kind === "awaiting_cards")!;
    expect(inEnglishWords(waiting.message)).toMatch(/refused; fix them in Shopify/);
    expect(JSON.parse(waiting.data!)).toMatchObject({
      problems: [{ sku: "BAD-CARD-1", problem: expect.stringMatching(/name is not allowed/) }],
    });

    // The merchant renames the product in Shopify: the new card is sent, and the order follows.
    await flow.post({
      topic: "products/update",
      payload: productPayload(7601, [{ id: 8601, sku: "BAD-CARD-1" }], { title: "Чашка керамічна" }),
    });
    await eventually(async () => {
      const found = await eventKindsOf(String(orderWith(4601, "x").id));
      return found.order.state === "accepted";
    }, "the order to be accepted once its card is");
    expect(card("BAD-CARD-1")).toMatchObject({ name: "Чашка керамічна" });
  });
});

describe("products taken in at once", { timeout: 60_000 }, () => {
  it("finds a SKU shared by two products whose webhooks are processed together", async () => {
    flow = await startOrderFlow();
    // Pairs of products, each pair created together with one SKU: on PostgreSQL each webhook's transaction
    // saw only its own row until they took the shop's catalogue lock, so both cards were sent.
    const pairs = 8;
    await Promise.all(
      Array.from({ length: pairs }, (_, pair) =>
        [0, 1].map((side) =>
          flow!.post({
            topic: "products/create",
            payload: productPayload(9000 + pair * 2 + side, [
              { id: 9500 + pair * 2 + side, sku: `TWIN-AT-ONCE-${pair}` },
            ]),
          }),
        ),
      ).flat(),
    );
    const rows = await db().catalogueItem.findMany({
      where: { shop: SHOP, sku: { startsWith: "TWIN-AT-ONCE-" } },
    });
    expect(rows).toHaveLength(pairs * 2);
    expect(rows.filter((row) => row.problem !== "sku_duplicate").map((row) => row.sku)).toEqual([]);
    expect(rows.every((row) => row.dueAt === null)).toBe(true);
  });

  it("does not send a card whose SKU another live variant has, however the map came to hold both", async () => {
    flow = await startOrderFlow();
    // Two live rows with one SKU and no problem: what a race the lock did not cover would leave.
    await db().catalogueItem.createMany({
      data: [
        {
          shop: SHOP,
          variantId: "gid://shopify/ProductVariant/9901",
          productId: "gid://shopify/Product/9801",
          sku: "SLIPPED-TWIN",
          name: "Чашка одна",
          dueAt: new Date(),
        },
        {
          shop: SHOP,
          variantId: "gid://shopify/ProductVariant/9902",
          productId: "gid://shopify/Product/9802",
          sku: "SLIPPED-TWIN",
          name: "Чашка друга",
        },
      ],
    });
    wakeWorker(SHOP);
    await eventually(async () => {
      const rows = await db().catalogueItem.findMany({ where: { shop: SHOP, sku: "SLIPPED-TWIN" } });
      return rows.every((row) => row.problem === "sku_duplicate" && row.dueAt === null);
    }, "both variants to be held as sharing their SKU");
    expect(card("SLIPPED-TWIN")).toBeUndefined();
    expect(addProducts()).toBe(0);
  });
});

describe("an order parked for a card that stops being awaited", { timeout: 60_000 }, () => {
  /** An order parked for BAD-card `sku`, refused by the warehouse (so never sent until fixed). */
  async function parkedFor(n: number, sku: string, productId: number, variantId: number) {
    await flow!.sim.seedProducts([{ sku, name: "Прихід без картки", quantity: 10 }]);
    await db().catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: `gid://shopify/ProductVariant/${variantId}`,
        productId: `gid://shopify/Product/${productId}`,
        sku,
        name: "Чашка",
        problem: "refused",
        problemMessage: "The warehouse refused this product card: AddProduct: name is not allowed",
      },
    });
    await flow!.post({ topic: "orders/create", payload: orderWith(n, sku) });
    await eventually(async () => {
      const found = await eventKindsOf(String(orderWith(n, "x").id));
      return found.kinds.includes("awaiting_cards") && found.order.awaitingCards ? found : null;
    }, "the order to wait for its card");
  }

  async function acceptedAfterRelease(n: number) {
    const found = await eventually(async () => {
      const seen = await eventKindsOf(String(orderWith(n, "x").id));
      return seen.order.state === "accepted" && seen.kinds.includes("accepted") ? seen : null;
    }, "the released order to be accepted");
    expect(found.order.awaitingCards).toBeNull();
    return found;
  }

  it("goes once the product is deleted", async () => {
    flow = await startOrderFlow();
    await parkedFor(4701, "GONE-CARD-1", 7701, 8701);
    await flow.post({ topic: "products/delete", payload: { id: 7701 } });
    const found = await acceptedAfterRelease(4701);
    expect(found.kinds).toContain("cards_not_awaited");
    const released = found.events.find((event) => event.kind === "cards_not_awaited")!;
    expect(JSON.parse(released.data!)).toMatchObject({ skus: ["GONE-CARD-1"] });
    expect(addProducts()).toBe(0);
  });

  it("goes once its SKU is shared by another product", async () => {
    flow = await startOrderFlow();
    await parkedFor(4702, "SHARED-CARD-1", 7702, 8702);
    await flow.post({
      topic: "products/create",
      payload: productPayload(7703, [{ id: 8703, sku: "SHARED-CARD-1" }]),
    });
    const found = await acceptedAfterRelease(4702);
    expect(found.kinds).toContain("cards_not_awaited");
    expect(addProducts()).toBe(0);
  });

  it("goes once the warehouse's stock report lists its SKU", async () => {
    flow = await startOrderFlow();
    await parkedFor(4703, "LISTED-CARD-1", 7704, 8704);
    // The stock sync: its ReportSklad lists the SKU (Shopify's side then fails: this flow has no Admin client).
    await db().shopSettings.update({
      where: { shop: SHOP },
      data: { locationId: "gid://shopify/Location/1" },
    });
    await requestStockSync(db(), SHOP, new Date());
    wakeWorker(SHOP);
    const found = await acceptedAfterRelease(4703);
    expect(found.kinds).toContain("cards_accepted");
    expect(addProducts()).toBe(0);
  });
});

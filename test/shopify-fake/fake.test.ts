// Drives the Shopify fake over real HTTP on loopback, the way the app's Admin API client will talk to it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_API_VERSION } from "../../app/api-version";
import {
  startShopifyFake,
  validateAdminOperation,
  type LocationRecord,
  type ShopifyFake,
  type ShopStore,
} from ".";

const DOMAIN = "sklad-test.myshopify.com";
const TOKEN = "shpat_sklad_test";
const INVALID_TOKEN = {
  errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
};

let clock: number;
let fake: ShopifyFake;
let shop: ShopStore;
let warehouse: LocationRecord;

beforeEach(async () => {
  clock = Date.UTC(2026, 9, 1, 9);
  fake = await startShopifyFake({ now: () => clock });
  const locales = [{ locale: "uk" }, { locale: "en", published: false }];
  shop = fake.state.addShop({ domain: DOMAIN, accessToken: TOKEN, name: "Склад Тест", locales });
  warehouse = shop.addLocation({ name: "Склад Київ", city: "Київ" });
});

afterEach(() => fake.close());

type Body = { data?: unknown; errors?: unknown; extensions?: unknown };

async function gql(query: string, variables: object = {}, headers: Record<string, string> = {}) {
  const response = await fetch(fake.graphqlUrl, {
    method: "POST",
    headers: { "x-shopify-access-token": TOKEN, "x-fake-shop": DOMAIN, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

/** Reads a path out of a JSON response. */
function dig(value: unknown, ...path: Array<string | number>): unknown {
  const step = (current: unknown, key: string | number) =>
    typeof current === "object" && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return path.reduce(step, value);
}

const SET_QUANTITIES = `mutation SetStock($input: InventorySetQuantitiesInput!, $key: String!) {
  inventorySetQuantities(input: $input) @idempotent(key: $key) {
    inventoryAdjustmentGroup { reason changes { name delta quantityAfterChange } }
    userErrors { field message code } } }`;
const CREATE_FULFILLMENT = `mutation Ship($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id name status displayStatus trackingInfo { number url company } }
    userErrors { field message } } }`;

function stockedVariant(available: number) {
  const inventory = [{ locationId: warehouse.id, available }];
  const variant = { sku: "VSH-M", barcode: "4820000000017", price: "1299.00", inventory };
  const seeded = shop.addProduct({ title: "Вишиванка", variants: [variant] }).variants[0]!;
  const level = () => shop.level(seeded.inventoryItemId, warehouse.id)!;
  const entry = (quantity: number, changeFromQuantity: number | null) => {
    return {
      inventoryItemId: seeded.inventoryItemId,
      locationId: warehouse.id,
      quantity,
      changeFromQuantity,
    };
  };
  return { variant: seeded, level, entry };
}

describe("requests", () => {
  it("rejects a field the schema lacks with Shopify's error shape and runs nothing", async () => {
    const { order, fulfillmentOrder } = shop.addOrder({ lineItems: [{ title: "Подарунок", quantity: 1 }] });
    const { status, body } = await gql(
      `mutation { fulfillmentCreate(fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "${fulfillmentOrder.id}" }] }) {
        fulfillment { id trackingNumber } userErrors { field message } } }`,
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [
        {
          message: 'Cannot query field "trackingNumber" on type "Fulfillment". Did you mean "trackingInfo"?',
          locations: [{ line: 2, column: 26 }],
          extensions: { code: "undefinedField" },
        },
      ],
    });
    expect([fulfillmentOrder.status, order.fulfillmentIds]).toEqual(["OPEN", []]);
  });

  it("rejects an unknown argument, and records every request", async () => {
    const { body } = await gql(`query ShopName { shop(domain: "x") { name } }`);
    expect(dig(body, "errors", 0, "extensions", "code")).toBe("argumentNotAccepted");
    expect(dig(body, "errors", 0, "message")).toContain('Unknown argument "domain"');
    expect(body.data).toBeUndefined();
    expect(fake.requests).toEqual([expect.objectContaining({ shop: DOMAIN, operationName: "ShopName" })]);
    expect(validateAdminOperation(`{ shop { name } }`)).toEqual([]);
  });

  it("answers 401 for a missing or foreign token and 404 for another API version", async () => {
    fake.state.addShop({ domain: "other.myshopify.com", accessToken: "shpat_other" });
    const missing = await fetch(fake.graphqlUrl, {
      method: "POST",
      headers: { "x-fake-shop": DOMAIN },
      body: "{}",
    });
    expect([missing.status, await missing.json()]).toEqual([401, INVALID_TOKEN]);
    const foreign = await gql(`{ shop { name } }`, {}, { "x-shopify-access-token": "shpat_other" });
    expect(foreign).toEqual({ status: 401, body: INVALID_TOKEN });
    // Without x-fake-shop the loopback Host names no shop, so the token picks it.
    const byToken = await gql(
      `{ shop { myshopifyDomain } }`,
      {},
      { "x-fake-shop": "", "x-shopify-access-token": "shpat_other" },
    );
    expect(dig(byToken.body, "data", "shop", "myshopifyDomain")).toBe("other.myshopify.com");
    const oldVersion = fake.graphqlUrl.replace(ADMIN_API_VERSION, "2024-01");
    const headers = { "x-shopify-access-token": TOKEN, "x-fake-shop": DOMAIN };
    expect(
      (await fetch(oldVersion, { method: "POST", headers, body: `{"query":"{ shop { name } }"}` })).status,
    ).toBe(404);
  });

  it("names the missing piece when a root or nested field is not implemented", async () => {
    const root = await gql(`{ customers(first: 1) { nodes { id } } }`);
    const message = "the Shopify fake does not implement Query.customers (extend test/shopify-fake)";
    expect(root.body).toMatchObject({ data: null, errors: [{ message, path: ["customers"] }] });
    const nested = await gql(`{ shop { name plan { partnerDevelopment } } }`);
    expect(dig(nested.body, "errors", 0, "message")).toContain("does not implement Shop.plan ");
  });
});

describe("queries", () => {
  it("answers shop and shopLocales from the seed, and charges Shopify's cost", async () => {
    const { body } = await gql(`{
      shop { id name currencyCode ianaTimezone myshopifyDomain primaryDomain { host url } }
      all: shopLocales { locale primary published }
      published: shopLocales(published: true) { locale } }`);
    const primaryDomain = { host: DOMAIN, url: `https://${DOMAIN}` };
    expect(dig(body, "data", "shop")).toEqual({
      ...{ id: shop.shop.id, name: "Склад Тест", currencyCode: "UAH", ianaTimezone: "Europe/Kyiv" },
      ...{ myshopifyDomain: DOMAIN, primaryDomain },
    });
    expect(dig(body, "data", "all")).toEqual([
      { locale: "uk", primary: true, published: true },
      { locale: "en", primary: false, published: false },
    ]);
    expect(dig(body, "data", "published")).toEqual([{ locale: "uk" }]);
    // shop 1 + primaryDomain 1 + one per locale list; scalars are free.
    const throttleStatus = { maximumAvailable: 2000, currentlyAvailable: 1996, restoreRate: 100 };
    expect(body.extensions).toEqual({ cost: { requestedQueryCost: 4, actualQueryCost: 4, throttleStatus } });
  });

  it("finds a variant by sku with its stock, pricing the connection by page size", async () => {
    const { variant } = stockedVariant(7);
    shop.addProduct({ title: "Рушник", variants: [{ sku: "RSH-1" }] });
    const { body } = await gql(
      `query BySku($q: String!, $at: ID!) { productVariants(first: 5, query: $q) { nodes {
        sku barcode price product { title }
        inventoryItem { id inventoryLevel(locationId: $at) { quantities(names: ["available", "on_hand"]) { name quantity } } }
      } } }`,
      { q: "sku:VSH-M", at: warehouse.id },
    );
    const quantities = [
      { name: "available", quantity: 7 },
      { name: "on_hand", quantity: 7 },
    ];
    expect(dig(body, "data", "productVariants", "nodes")).toEqual([
      {
        ...{ sku: "VSH-M", barcode: "4820000000017", price: "1299.00", product: { title: "Вишиванка" } },
        inventoryItem: { id: variant.inventoryItemId, inventoryLevel: { quantities } },
      },
    ]);
    // A node costs 5 (variant, product, item, level, quantities): requested 2 + 5 × 5, actual 2 + 1 × 5.
    expect(dig(body, "extensions", "cost")).toMatchObject({ requestedQueryCost: 27, actualQueryCost: 7 });
    expect(dig(body, "extensions", "cost", "throttleStatus", "currentlyAvailable")).toBe(1993);
  });

  it("searches variants by several SKUs joined with OR, a quoted value taken literally", async () => {
    const skus = ["VSH M", "a:b", 'say "hi"', "back\\slash", "VSH-M", "VSH-MAX"];
    const variants = skus.map((sku) => ({ sku }));
    const seeded = shop.addProduct({ title: "Вишиванка", variants }).variants;
    const find = async (query: string) => {
      const { body } = await gql(
        `query Find($q: String!) { productVariants(first: 10, query: $q) { nodes { sku } } }`,
        { q: query },
      );
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return (dig(body, "data", "productVariants", "nodes") as Array<{ sku: string }>).map((v) => v.sku);
    };
    expect(await find('sku:"VSH M" OR sku:"a:b" OR sku:"say \\"hi\\"" OR sku:"back\\\\slash"')).toEqual(
      skus.slice(0, 4),
    );
    expect(await find("sku:a\\:b OR sku:'VSH M'")).toEqual(["VSH M", "a:b"]);
    // A quoted value is the whole value: neither a prefix nor a second term.
    expect(await find('sku:"VSH-M*"')).toEqual([]);
    expect(await find('sku:"x OR sku:VSH-M"')).toEqual([]);
    expect(await find("sku:VSH-M*")).toEqual(["VSH-M", "VSH-MAX"]);
    expect(await find("sku:VSH-M* -sku:VSH-MAX")).toEqual(["VSH-M"]);
    expect(seeded).toHaveLength(6);
    const { body } = await gql(`{ productVariants(first: 1, query: "(sku:a OR sku:b)") { nodes { sku } } }`);
    expect(dig(body, "errors", 0, "extensions", "code")).toBe("NOT_IMPLEMENTED_BY_FAKE");
  });

  it("counts the other inventory items that share an item's SKU", async () => {
    const [first] = shop.addProduct({ title: "Вишиванка", variants: [{ sku: "VSH-M" }] }).variants;
    shop.addProduct({ title: "Вишиванка (стара)", variants: [{ sku: "VSH-M" }, { sku: "VSH-L" }] });
    const [noSku] = shop.addProduct({ title: "Подарунок" }).variants;
    const count = async (id: string) =>
      dig(
        (await gql(`query Count($id: ID!) { inventoryItem(id: $id) { duplicateSkuCount } }`, { id })).body,
        "data",
        "inventoryItem",
        "duplicateSkuCount",
      );
    expect(await count(first!.inventoryItemId)).toBe(1);
    expect(await count(noSku!.inventoryItemId)).toBe(0);
  });

  it("counts the shop's variants up to the limit, 10,000 unless told, and says when it stopped there", async () => {
    shop.addProduct({ title: "Футболка", variants: [{ sku: "TSH-S" }, { sku: "TSH-M" }, { sku: "TSH-L" }] });
    shop.addProduct({ title: "Подарунок" });
    const counted = async (limit: string) =>
      dig((await gql(`{ productVariantsCount${limit} { count precision } }`)).body, "data");
    expect(await counted("")).toEqual({ productVariantsCount: { count: 4, precision: "EXACT" } });
    expect(await counted("(limit: null)")).toEqual({
      productVariantsCount: { count: 4, precision: "EXACT" },
    });
    expect(await counted("(limit: 2)")).toEqual({
      productVariantsCount: { count: 2, precision: "AT_LEAST" },
    });
  });

  it("pages through active locations by name with opaque cursors", async () => {
    shop.addLocation({ name: "Склад Одеса" });
    shop.addLocation({ name: "Склад Львів" });
    shop.addLocation({ name: "Закритий", isActive: false });
    const page = `query Page($after: String) { locations(first: 2, after: $after) {
      edges { cursor node { name } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`;
    const first = dig((await gql(page)).body, "data", "locations");
    expect(dig(first, "edges", 1, "node", "name")).toBe("Склад Львів");
    expect(dig(first, "pageInfo")).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const endCursor = dig(first, "pageInfo", "endCursor");
    expect(endCursor).toBe(dig(first, "edges", 1, "cursor"));
    expect(String(endCursor)).not.toContain("gid://");
    const second = dig((await gql(page, { after: endCursor })).body, "data", "locations");
    expect(dig(second, "edges")).toEqual([{ cursor: expect.any(String), node: { name: "Склад Одеса" } }]);
    expect(dig(second, "pageInfo")).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it("keeps a cursor's place after its item is deleted, in ID order; elsewhere refuses it", async () => {
    shop.addProduct({ title: "А", variants: [{ sku: "A-1" }, { sku: "A-2" }] });
    const b = shop.addProduct({ title: "Б", variants: [{ sku: "B-1" }, { sku: "B-2" }] });
    // Last by ID, first by SKU: the two orders differ.
    shop.addProduct({ title: "В", variants: [{ sku: "0-1" }] });
    const page = `query Page($after: String, $before: String, $sortKey: ProductVariantSortKeys) {
      productVariants(first: 10, after: $after, before: $before, sortKey: $sortKey) {
        edges { cursor node { sku } } } }`;
    const edges = async (variables: object = {}) =>
      dig((await gql(page, variables)).body, "data", "productVariants", "edges") as Array<{
        cursor: string;
        node: { sku: string };
      }>;
    const before = await edges();
    expect(before.map((edge) => edge.node.sku)).toEqual(["A-1", "A-2", "B-1", "B-2", "0-1"]);
    const cursorOf = (sku: string) => before.find((edge) => edge.node.sku === sku)!.cursor;

    shop.deleteProduct(b.product.id);
    const skus = async (variables: object) => (await edges(variables)).map((edge) => edge.node.sku);
    expect(await skus({ after: cursorOf("B-1") })).toEqual(["0-1"]);
    expect(await skus({ after: cursorOf("A-2") })).toEqual(["0-1"]);
    expect(await skus({ before: cursorOf("B-2") })).toEqual(["A-1", "A-2"]);

    const bySku = await gql(page, { after: cursorOf("B-1"), sortKey: "SKU" });
    expect(dig(bySku.body, "errors", 0, "message")).toBe("Invalid cursor for current pagination sort.");
  });

  it("deleteProduct takes its variants, inventory items and levels with it", async () => {
    const { variant } = stockedVariant(7);
    shop.deleteProduct(variant.productId);
    expect([shop.products.size, shop.variants.size, shop.inventoryItems.size]).toEqual([0, 0, 0]);
    expect(shop.level(variant.inventoryItemId, warehouse.id)).toBeUndefined();
    const { body } = await gql(`query Gone($id: ID!) { product(id: $id) { id } }`, { id: variant.productId });
    expect(body).toMatchObject({ data: { product: null } });
  });
});

describe("inventorySetQuantities", () => {
  it("sets on_hand when changeFromQuantity matches and refuses a stale compare with the schema's code", async () => {
    const { level, entry } = stockedVariant(7);
    const input = {
      name: "on_hand",
      reason: "correction",
      referenceDocumentUri: "sklad://sync/1",
      quantities: [entry(12, 7)],
    };
    const set = await gql(SET_QUANTITIES, { key: "k1", input });
    const changes = [
      { name: "on_hand", delta: 5, quantityAfterChange: 12 },
      { name: "available", delta: 5, quantityAfterChange: 12 },
    ];
    expect(dig(set.body, "data", "inventorySetQuantities")).toEqual({
      inventoryAdjustmentGroup: { reason: "correction", changes },
      userErrors: [],
    });
    expect(dig(set.body, "extensions", "cost", "requestedQueryCost")).toBe(10);
    expect(shop.quantity(level(), "on_hand")).toBe(12);

    const stale = await gql(SET_QUANTITIES, {
      key: "k2",
      input: { ...input, name: "available", quantities: [entry(3, 7)] },
    });
    const message = "The changeFromQuantity argument no longer matches the persisted quantity.";
    expect(dig(stale.body, "data", "inventorySetQuantities")).toEqual({
      inventoryAdjustmentGroup: null,
      userErrors: [
        {
          field: ["input", "quantities", "0", "changeFromQuantity"],
          message,
          code: "CHANGE_FROM_QUANTITY_STALE",
        },
      ],
    });
    expect(level().quantities.available).toBe(12);
  });

  it("changes nothing when one quantity of the call is stale, and names that one by its index", async () => {
    const first = stockedVariant(7);
    const [other] = shop.addProduct({
      title: "Рушник",
      variants: [{ sku: "RSH-1", inventory: [{ locationId: warehouse.id, available: 2 }] }],
    }).variants;
    const otherEntry = { inventoryItemId: other!.inventoryItemId, locationId: warehouse.id };
    const input = {
      name: "available",
      reason: "correction",
      quantities: [first.entry(5, 7), { ...otherEntry, quantity: 9, changeFromQuantity: 1 }],
    };
    const { body } = await gql(SET_QUANTITIES, { key: "pair", input });
    expect(dig(body, "data", "inventorySetQuantities", "userErrors")).toEqual([
      {
        field: ["input", "quantities", "1", "changeFromQuantity"],
        message: "The changeFromQuantity argument no longer matches the persisted quantity.",
        code: "CHANGE_FROM_QUANTITY_STALE",
      },
    ]);
    expect(first.level().quantities.available).toBe(7);
    expect(shop.level(other!.inventoryItemId, warehouse.id)!.quantities.available).toBe(2);
  });

  it("replays an idempotency key and enforces the 2026-04 argument rules", async () => {
    const { level, entry } = stockedVariant(0);
    const input = { name: "available", reason: "received", quantities: [entry(4, null)] };
    await gql(SET_QUANTITIES, { key: "same", input });
    level().quantities.available = 1; // three sold meanwhile; a network retry must not undo that
    expect(
      dig(
        (await gql(SET_QUANTITIES, { key: "same", input })).body,
        "data",
        "inventorySetQuantities",
        "userErrors",
      ),
    ).toEqual([]);
    expect(level().quantities.available).toBe(1);
    const mismatch = await gql(SET_QUANTITIES, { key: "same", input: { ...input, reason: "correction" } });
    const mismatchCode = dig(mismatch.body, "data", "inventorySetQuantities", "userErrors", 0, "code");
    expect(mismatchCode).toBe("IDEMPOTENCY_KEY_PARAMETER_MISMATCH");

    const withoutKey = `mutation($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { code } } }`;
    expect(dig((await gql(withoutKey, { input })).body, "errors", 0)).toMatchObject({
      message: "The @idempotent directive is required for this mutation but was not provided.",
      extensions: { code: "BAD_REQUEST" },
      path: ["inventorySetQuantities"],
    });
    const { changeFromQuantity: _omitted, ...withoutCompare } = entry(9, 1);
    const noCompare = await gql(SET_QUANTITIES, {
      key: "k3",
      input: { ...input, quantities: [withoutCompare] },
    });
    expect(dig(noCompare.body, "errors", 0)).toMatchObject({
      message: "InventoryQuantityInput must include the following argument: changeFromQuantity.",
      extensions: { code: "INVALID_FIELD_ARGUMENTS" },
    });
    expect(level().quantities.available).toBe(1);
  });

  it("refuses more than 250 quantities before running the mutation", async () => {
    const { level, entry } = stockedVariant(7);
    const input = {
      name: "available",
      reason: "correction",
      quantities: Array.from({ length: 251 }, () => entry(1, null)),
    };
    const { status, body } = await gql(SET_QUANTITIES, { key: "big", input });
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [
        {
          message: "The input array size of 251 is greater than the maximum allowed of 250.",
          locations: [{ line: 2, column: 3 }],
          path: ["inventorySetQuantities", "input", "quantities"],
          extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" },
        },
      ],
    });
    expect(level().quantities.available).toBe(7);
  });
});

describe("inventoryActivate", () => {
  const ACTIVATE = `mutation Activate($item: ID!, $at: ID!, $key: String!) {
    inventoryActivate(inventoryItemId: $item, locationId: $at) @idempotent(key: $key) {
      inventoryLevel { item { id } location { id } quantities(names: ["available", "on_hand"]) { name quantity } }
      userErrors { field message } } }`;

  it("stocks an item at a location with zero quantities, and changes nothing for one already stocked", async () => {
    const shopFloor = shop.addLocation({ name: "Магазин" });
    const { variant } = stockedVariant(7);
    const item = variant.inventoryItemId;
    const zero = [
      { name: "available", quantity: 0 },
      { name: "on_hand", quantity: 0 },
    ];
    const activated = await gql(ACTIVATE, { item, at: shopFloor.id, key: "a1" });
    expect(dig(activated.body, "data", "inventoryActivate")).toEqual({
      inventoryLevel: { item: { id: item }, location: { id: shopFloor.id }, quantities: zero },
      userErrors: [],
    });
    expect(dig(activated.body, "extensions", "cost", "requestedQueryCost")).toBe(10);
    expect(shop.level(item, shopFloor.id)).toBeDefined();

    const again = await gql(ACTIVATE, { item, at: warehouse.id, key: "a2" });
    expect(dig(again.body, "data", "inventoryActivate", "inventoryLevel", "quantities", 0)).toEqual({
      name: "available",
      quantity: 7,
    });
  });

  it("requires an idempotency key, replays one, and refuses an unknown item or location", async () => {
    const { variant } = stockedVariant(0);
    const item = variant.inventoryItemId;
    const withoutKey = `mutation($item: ID!, $at: ID!) { inventoryActivate(inventoryItemId: $item, locationId: $at) { userErrors { message } } }`;
    const shopFloor = shop.addLocation({ name: "Магазин" });
    expect(dig((await gql(withoutKey, { item, at: shopFloor.id })).body, "errors", 0)).toMatchObject({
      message: "The @idempotent directive is required for this mutation but was not provided.",
      extensions: { code: "BAD_REQUEST" },
    });
    expect(shop.level(item, shopFloor.id)).toBeUndefined();

    const other = shop.addLocation({ name: "Склад Одеса" });
    await gql(ACTIVATE, { item, at: shopFloor.id, key: "same" });
    const mismatch = await gql(ACTIVATE, { item, at: other.id, key: "same" });
    expect(dig(mismatch.body, "data", "inventoryActivate", "userErrors", 0, "message")).toBe(
      "The same idempotency key cannot be used with different operation parameters.",
    );
    expect(shop.level(item, other.id)).toBeUndefined();

    const unknown = await gql(ACTIVATE, { item: "gid://shopify/InventoryItem/1", at: other.id, key: "u" });
    expect(dig(unknown.body, "data", "inventoryActivate")).toEqual({
      inventoryLevel: null,
      userErrors: [{ field: ["inventoryItemId"], message: "Inventory item does not exist" }],
    });
  });
});

describe("fulfillment", () => {
  it("fulfillmentCreate fulfils every line, stores tracking and closes the fulfillment order", async () => {
    stockedVariant(5);
    const lineItems = [
      { sku: "VSH-M", quantity: 2 },
      { title: "Листівка", quantity: 1 },
    ];
    const { order, fulfillmentOrder } = shop.addOrder({ name: "#1042", lineItems });
    const trackingInfo = {
      number: "20450000000001",
      url: "https://novaposhta.ua/tracking/20450000000001",
      company: "Nova Poshta",
    };
    const fulfillment = {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrder.id }],
      trackingInfo,
    };
    const { body } = await gql(CREATE_FULFILLMENT, { fulfillment });
    expect(dig(body, "data", "fulfillmentCreate")).toEqual({
      fulfillment: {
        id: order.fulfillmentIds[0],
        name: "#1042-F1",
        status: "SUCCESS",
        displayStatus: "FULFILLED",
        trackingInfo: [trackingInfo],
      },
      userErrors: [],
    });
    const after = await gql(
      `query($id: ID!) { fulfillmentOrder(id: $id) { status supportedActions { action }
        lineItems(first: 5) { nodes { sku remainingQuantity } } order { displayFulfillmentStatus } } }`,
      { id: fulfillmentOrder.id },
    );
    expect(dig(after.body, "data", "fulfillmentOrder")).toEqual({
      status: "CLOSED",
      supportedActions: [],
      lineItems: {
        nodes: [
          { sku: "VSH-M", remainingQuantity: 0 },
          { sku: null, remainingQuantity: 0 },
        ],
      },
      order: { displayFulfillmentStatus: "FULFILLED" },
    });
    const again = dig((await gql(CREATE_FULFILLMENT, { fulfillment })).body, "data", "fulfillmentCreate");
    const message = `Fulfillment order ${fulfillmentOrder.id.split("/").pop()} has an unfulfillable status= closed.`;
    expect(again).toEqual({ fulfillment: null, userErrors: [{ field: ["fulfillment"], message }] });
  });

  it("an order commits its units at its location, a fulfillment takes them out of on_hand, a move takes them along", async () => {
    const { variant } = stockedVariant(5);
    const QUANTITIES = `query($id: ID!, $at: ID!) { inventoryItem(id: $id) { inventoryLevel(locationId: $at) {
      quantities(names: ["available", "committed", "on_hand"]) { name quantity } } } }`;
    const quantities = async (at: string = warehouse.id) => {
      const { body } = await gql(QUANTITIES, { id: variant.inventoryItemId, at });
      const read = dig(body, "data", "inventoryItem", "inventoryLevel", "quantities") as
        Array<{ name: string; quantity: number }> | undefined;
      return Object.fromEntries((read ?? []).map(({ name, quantity }) => [name, quantity]));
    };
    const { fulfillmentOrder } = shop.addOrder({
      lineItems: [
        { sku: "VSH-M", quantity: 3 },
        { title: "Листівка", quantity: 1 },
      ],
    });
    // Placed: three units promised, none gone yet.
    expect(await quantities()).toEqual({ available: 2, committed: 3, on_hand: 5 });
    const [line] = fulfillmentOrder.lineItems;
    const group = {
      fulfillmentOrderId: fulfillmentOrder.id,
      fulfillmentOrderLineItems: [{ id: line!.id, quantity: 1 }],
    };
    await gql(CREATE_FULFILLMENT, { fulfillment: { lineItemsByFulfillmentOrder: [group] } });
    // One shipped: it leaves the shelf, the other two stay promised.
    expect(await quantities()).toEqual({ available: 2, committed: 2, on_hand: 4 });

    const shopFloor = shop.addLocation({ name: "Магазин" });
    shop.stock(variant.inventoryItemId, shopFloor.id, { available: 4 });
    shop.moveFulfillmentOrder(fulfillmentOrder.id, shopFloor.id);
    expect(await quantities()).toEqual({ available: 4, committed: 0, on_hand: 4 });
    expect(await quantities(shopFloor.id)).toEqual({ available: 2, committed: 2, on_hand: 4 });

    // An item the store does not track, or does not stock at the location, commits nothing.
    const untracked = shop.addProduct({
      title: "Послуга",
      variants: [{ sku: "SRV-1", inventory: [{ locationId: warehouse.id, available: 1 }] }],
    }).variants[0]!;
    shop.inventoryItems.get(untracked.inventoryItemId)!.tracked = false;
    shop.addOrder({ lineItems: [{ sku: "SRV-1", quantity: 1 }] });
    expect(shop.level(untracked.inventoryItemId, warehouse.id)!.quantities).toMatchObject({
      available: 1,
      committed: 0,
    });
  });

  it("fulfilling part of a fulfillment order leaves it in progress", async () => {
    const { fulfillmentOrder } = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 3 }] });
    const line = fulfillmentOrder.lineItems[0]!;
    const group = {
      fulfillmentOrderId: fulfillmentOrder.id,
      fulfillmentOrderLineItems: [{ id: line.id, quantity: 2 }],
    };
    const { body } = await gql(CREATE_FULFILLMENT, { fulfillment: { lineItemsByFulfillmentOrder: [group] } });
    expect(dig(body, "data", "fulfillmentCreate", "userErrors")).toEqual([]);
    expect([fulfillmentOrder.status, line.remainingQuantity]).toEqual(["IN_PROGRESS", 1]);
  });

  it("fulfillmentEventCreate records delivery on the fulfillment", async () => {
    const { order, fulfillmentOrder } = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 1 }] });
    await gql(CREATE_FULFILLMENT, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrder.id }] },
    });
    const fulfillmentId = order.fulfillmentIds[0];
    const EVENT = `mutation($event: FulfillmentEventInput!) { fulfillmentEventCreate(fulfillmentEvent: $event) {
      fulfillmentEvent { status happenedAt message } userErrors { field message } } }`;
    const happenedAt = "2026-10-03T12:30:00Z";
    const { body } = await gql(EVENT, {
      event: { fulfillmentId, status: "DELIVERED", happenedAt, message: "Отримано" },
    });
    expect(dig(body, "data", "fulfillmentEventCreate")).toEqual({
      fulfillmentEvent: { status: "DELIVERED", happenedAt, message: "Отримано" },
      userErrors: [],
    });
    const read = await gql(
      `query($id: ID!) { node(id: $id) { ... on Fulfillment { displayStatus deliveredAt events(first: 5) { nodes { status } } } } }`,
      { id: fulfillmentId },
    );
    const events = { nodes: [{ status: "DELIVERED" }] };
    expect(dig(read.body, "data", "node")).toEqual({
      displayStatus: "DELIVERED",
      deliveredAt: happenedAt,
      events,
    });
    const unknown = await gql(EVENT, {
      event: { fulfillmentId: "gid://shopify/Fulfillment/999999", status: "IN_TRANSIT" },
    });
    const userErrors = dig(unknown.body, "data", "fulfillmentEventCreate", "userErrors");
    expect(userErrors).toEqual([
      { field: ["fulfillmentEvent", "fulfillmentId"], message: "Fulfillment does not exist." },
    ]);
  });
});

describe("fulfillment holds, moves and tracking", () => {
  const READ_FO = `query($id: ID!) { fulfillmentOrder(id: $id) { status supportedActions { action }
    assignedLocation { location { id } } fulfillmentHolds { id reason displayReason heldByRequestingApp }
    lineItems(first: 5) { nodes { totalQuantity remainingQuantity } } } }`;
  const RELEASE = `mutation($id: ID!, $holdIds: [ID!]) { fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) {
    fulfillmentOrder { status } userErrors { field message code } } }`;

  it("a fulfillment order on hold shows its holds, offers no CREATE_FULFILLMENT and refuses a fulfillment", async () => {
    const { order, fulfillmentOrder } = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 1 }] });
    const hold = shop.holdFulfillmentOrder(fulfillmentOrder.id, { reason: "HIGH_RISK_OF_FRAUD" });
    const read = await gql(READ_FO, { id: fulfillmentOrder.id });
    expect(dig(read.body, "data", "fulfillmentOrder")).toEqual({
      status: "ON_HOLD",
      supportedActions: [{ action: "RELEASE_HOLD" }, { action: "MOVE" }],
      assignedLocation: { location: { id: warehouse.id } },
      fulfillmentHolds: [
        {
          id: hold.id,
          reason: "HIGH_RISK_OF_FRAUD",
          displayReason: "High risk of fraud",
          heldByRequestingApp: false,
        },
      ],
      lineItems: { nodes: [{ totalQuantity: 1, remainingQuantity: 1 }] },
    });
    const fulfillment = { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrder.id }] };
    const refused = dig((await gql(CREATE_FULFILLMENT, { fulfillment })).body, "data", "fulfillmentCreate");
    const message = `Fulfillment order ${fulfillmentOrder.id.split("/").pop()} has an unfulfillable status= on_hold.`;
    expect(refused).toEqual({ fulfillment: null, userErrors: [{ field: ["fulfillment"], message }] });
    expect(order.fulfillmentIds).toEqual([]);
  });

  it("fulfillmentOrderReleaseHold lifts the app's own hold and refuses a merchant's", async () => {
    const { fulfillmentOrder } = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 1 }] });
    const merchants = shop.holdFulfillmentOrder(fulfillmentOrder.id, { reason: "INCORRECT_ADDRESS" });
    const ours = shop.holdFulfillmentOrder(fulfillmentOrder.id, { byRequestingApp: true });

    const refused = await gql(RELEASE, { id: fulfillmentOrder.id, holdIds: [merchants.id] });
    expect(dig(refused.body, "data", "fulfillmentOrderReleaseHold")).toEqual({
      fulfillmentOrder: null,
      userErrors: [
        {
          field: ["id"],
          message: "The app doesn't have access to release the fulfillment hold.",
          code: "INVALID_ACCESS",
        },
      ],
    });
    const released = await gql(RELEASE, { id: fulfillmentOrder.id, holdIds: [ours.id] });
    expect(dig(released.body, "data", "fulfillmentOrderReleaseHold")).toEqual({
      fulfillmentOrder: { status: "ON_HOLD" }, // the merchant's hold still stands
      userErrors: [],
    });
    shop.releaseHolds(fulfillmentOrder.id); // the merchant lifts theirs in the admin
    expect([fulfillmentOrder.status, fulfillmentOrder.holds]).toEqual(["OPEN", []]);

    const missing = await gql(RELEASE, { id: "gid://shopify/FulfillmentOrder/999999" });
    expect(dig(missing.body, "data", "fulfillmentOrderReleaseHold", "userErrors", 0, "code")).toBe(
      "FULFILLMENT_ORDER_NOT_FOUND",
    );
  });

  it("moving an untouched fulfillment order re-assigns it; a partly fulfilled one is closed and split off", async () => {
    const shopFloor = shop.addLocation({ name: "Магазин" });
    const untouched = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 2 }] });
    expect(shop.moveFulfillmentOrder(untouched.fulfillmentOrder.id, shopFloor.id)).toBe(
      untouched.fulfillmentOrder,
    );
    const read = await gql(READ_FO, { id: untouched.fulfillmentOrder.id });
    expect(dig(read.body, "data", "fulfillmentOrder", "assignedLocation")).toEqual({
      location: { id: shopFloor.id },
    });

    const partly = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 3 }] });
    const line = partly.fulfillmentOrder.lineItems[0]!;
    const group = {
      fulfillmentOrderId: partly.fulfillmentOrder.id,
      fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }],
    };
    await gql(CREATE_FULFILLMENT, { fulfillment: { lineItemsByFulfillmentOrder: [group] } });
    const moved = shop.moveFulfillmentOrder(partly.fulfillmentOrder.id, shopFloor.id);
    expect(moved.id).not.toBe(partly.fulfillmentOrder.id);
    expect(partly.order.fulfillmentOrderIds).toEqual([partly.fulfillmentOrder.id, moved.id]);
    const original = await gql(READ_FO, { id: partly.fulfillmentOrder.id });
    expect(dig(original.body, "data", "fulfillmentOrder")).toMatchObject({
      status: "CLOSED",
      assignedLocation: { location: { id: warehouse.id } },
      lineItems: { nodes: [{ totalQuantity: 1, remainingQuantity: 0 }] },
    });
    const split = await gql(READ_FO, { id: moved.id });
    expect(dig(split.body, "data", "fulfillmentOrder")).toMatchObject({
      status: "OPEN",
      assignedLocation: { location: { id: shopFloor.id } },
      lineItems: { nodes: [{ totalQuantity: 2, remainingQuantity: 2 }] },
    });
  });

  it("refuses to fulfil more than remains on a line", async () => {
    const { fulfillmentOrder } = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 2 }] });
    const group = {
      fulfillmentOrderId: fulfillmentOrder.id,
      fulfillmentOrderLineItems: [{ id: fulfillmentOrder.lineItems[0]!.id, quantity: 3 }],
    };
    const { body } = await gql(CREATE_FULFILLMENT, { fulfillment: { lineItemsByFulfillmentOrder: [group] } });
    expect(dig(body, "data", "fulfillmentCreate")).toEqual({
      fulfillment: null,
      userErrors: [
        { field: ["fulfillment"], message: "Invalid fulfillment order line item quantity requested." },
      ],
    });
    expect(fulfillmentOrder.lineItems[0]!.remainingQuantity).toBe(2);
  });

  it("fulfillmentTrackingInfoUpdate replaces the tracking and remembers to notify the buyer", async () => {
    const { order, fulfillmentOrder } = shop.addOrder({ lineItems: [{ title: "Сорочка", quantity: 1 }] });
    const trackingInfo = { company: "Nova Poshta", number: "20450000000001", url: "https://np.example/1" };
    await gql(CREATE_FULFILLMENT, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fulfillmentOrder.id }],
        trackingInfo,
      },
    });
    const fulfillmentId = order.fulfillmentIds[0]!;
    const UPDATE = `mutation($id: ID!, $tracking: FulfillmentTrackingInput!, $notify: Boolean) {
      fulfillmentTrackingInfoUpdate(fulfillmentId: $id, trackingInfoInput: $tracking, notifyCustomer: $notify) {
        fulfillment { id trackingInfo { company number url } } userErrors { field message } } }`;
    const changed = { company: "Nova Poshta", number: "20450000000002", url: "https://np.example/2" };
    const { body } = await gql(UPDATE, { id: fulfillmentId, tracking: changed, notify: true });
    expect(dig(body, "data", "fulfillmentTrackingInfoUpdate")).toEqual({
      fulfillment: { id: fulfillmentId, trackingInfo: [changed] },
      userErrors: [],
    });
    expect(shop.fulfillments.get(fulfillmentId)!.notifyCustomer).toBe(true);

    const missing = await gql(UPDATE, { id: "gid://shopify/Fulfillment/999999", tracking: changed });
    expect(dig(missing.body, "data", "fulfillmentTrackingInfoUpdate")).toEqual({
      fulfillment: null,
      userErrors: [{ field: ["fulfillmentId"], message: "Fulfillment does not exist." }],
    });
  });
});

describe("rate limiting", () => {
  it("answers THROTTLED with the cost extension and runs nothing when the bucket is short", async () => {
    const { level, entry } = stockedVariant(7);
    fake.setThrottle({ currentlyAvailable: 5 });
    const input = { name: "available", reason: "correction", quantities: [entry(0, 7)] };
    const { status, body } = await gql(SET_QUANTITIES, { key: "t1", input });
    const throttleStatus = { maximumAvailable: 2000, currentlyAvailable: 5, restoreRate: 100 };
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [
        {
          message: "Throttled",
          extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
        },
      ],
      extensions: { cost: { requestedQueryCost: 10, actualQueryCost: null, throttleStatus } },
    });
    expect(level().quantities.available).toBe(7);
    fake.setThrottle({ currentlyAvailable: 2000 });
    fake.throttleNext();
    expect(dig((await gql(`{ shop { name } }`)).body, "errors", 0, "extensions", "code")).toBe("THROTTLED");
    expect(dig((await gql(`{ shop { name } }`)).body, "data", "shop", "name")).toBe("Склад Тест");
  });

  it("restores restoreRate points per second of the injected clock, up to the bucket size", async () => {
    fake.setThrottle({ currentlyAvailable: 0 });
    const available = async () =>
      dig(
        (await gql(`{ shop { name } }`)).body,
        "extensions",
        "cost",
        "throttleStatus",
        "currentlyAvailable",
      );
    expect(await available()).toBe(0);
    clock += 250; // 25 points back, 1 spent
    expect(await available()).toBe(24);
    clock += 60_000;
    expect(await available()).toBe(1999);
  });

  it("refuses a single query over 1000 points with MAX_COST_EXCEEDED", async () => {
    const { body } = await gql(`{ products(first: 250) { nodes { variants(first: 10) { nodes { id } } } } }`);
    const extensions = { code: "MAX_COST_EXCEEDED", cost: 2 + 250 * 13, maxCost: 1000 };
    expect(dig(body, "errors", 0, "extensions")).toMatchObject(extensions);
    expect(body.data).toBeUndefined();
  });
});

// The fake's control routes over real HTTP, as a benchmark drives the fake in its own process, and the CLI
// that starts it there.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startShopifyFake, type ShopifyFake } from ".";

const DOMAIN = "sklad-control.myshopify.com";
const TOKEN = "shpat_sklad_control";
const LINES = [{ title: "Вишиванка", quantity: 2 }];

let fake: ShopifyFake;

beforeEach(async () => {
  fake = await startShopifyFake();
});

afterEach(() => fake.close());

type Reply = { status: number; json: Record<string, unknown> };

async function control(route: string, body?: unknown, controlUrl = fake.controlUrl): Promise<Reply> {
  const response = await fetch(`${controlUrl}/${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function gql(query: string, variables: object = {}, graphqlUrl = fake.graphqlUrl) {
  const response = await fetch(graphqlUrl, {
    method: "POST",
    headers: { "x-shopify-access-token": TOKEN, "x-fake-shop": DOMAIN },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A shop with one location, through the control routes; answers the location's id. */
async function seededShop(): Promise<string> {
  expect((await control("shops", { domain: DOMAIN, accessToken: TOKEN })).status).toBe(200);
  const location = await control("locations", { shop: DOMAIN, name: "Склад" });
  expect(location.status).toBe(200);
  return location.json.id as string;
}

const store = () => fake.state.shop(DOMAIN)!;

describe("POST /__control/shops", () => {
  it("adds a shop the Admin API then answers for with its token", async () => {
    const { status, json } = await control("shops", { domain: DOMAIN, accessToken: TOKEN });
    expect(status).toBe(200);
    expect(json).toEqual({ domain: DOMAIN, id: store().shop.id });
    const { body } = await gql("{ shop { myshopifyDomain } }");
    expect(body.data).toEqual({ shop: { myshopifyDomain: DOMAIN } });
  });

  it("refuses a shop already added, keeping its token", async () => {
    await control("shops", { domain: DOMAIN, accessToken: TOKEN });
    const again = await control("shops", { domain: DOMAIN, accessToken: "shpat_other" });
    expect(again).toEqual({ status: 400, json: { error: `shop ${DOMAIN} is already added` } });
    expect(store().shop.accessToken).toBe(TOKEN);
  });

  it.each([
    ["no token", { domain: DOMAIN }],
    ["an empty domain", { domain: "", accessToken: TOKEN }],
    ["a field it does not know", { domain: DOMAIN, accessToken: TOKEN, plan: "plus" }],
  ])("answers 400 to a body with %s and adds nothing", async (_, body) => {
    const { status, json } = await control("shops", body);
    expect(status).toBe(400);
    expect(json.error).toEqual(expect.any(String));
    expect(fake.state.shops()).toEqual([]);
  });
});

describe("POST /__control/locations", () => {
  it("adds a named location to the shop", async () => {
    await control("shops", { domain: DOMAIN, accessToken: TOKEN });
    const { status, json } = await control("locations", { shop: DOMAIN, name: "Склад Київ" });
    expect(status).toBe(200);
    expect(json).toEqual({
      id: expect.stringMatching(/^gid:\/\/shopify\/Location\/\d+$/),
      name: "Склад Київ",
    });
    expect([...store().locations.keys()]).toEqual([json.id]);
  });

  it("answers 400 for a shop not added, and for a bad body", async () => {
    const unknown = await control("locations", { shop: DOMAIN, name: "Склад" });
    expect(unknown).toEqual({ status: 400, json: { error: `no shop ${DOMAIN}: add it first` } });
    await control("shops", { domain: DOMAIN, accessToken: TOKEN });
    expect((await control("locations", { shop: DOMAIN, name: 42 })).status).toBe(400);
    expect(store().locations.size).toBe(0);
  });
});

describe("POST /__control/orders", () => {
  it("adds `count` orders at the location and answers their GIDs in order", async () => {
    const locationId = await seededShop();
    const { status, json } = await control("orders", {
      shop: DOMAIN,
      count: 3,
      lineItems: LINES,
      locationId,
    });
    expect(status).toBe(200);
    expect(json.ids).toEqual([...store().orders.keys()]);
    expect(json.ids).toHaveLength(3);
    for (const order of store().orders.values()) {
      expect(order.lineItems).toMatchObject([{ title: "Вишиванка", quantity: 2 }]);
      const fulfillmentOrder = store().fulfillmentOrders.get(order.fulfillmentOrderIds[0]!);
      expect(fulfillmentOrder).toMatchObject({ status: "OPEN", assignedLocationId: locationId });
    }
  });

  it("assigns them to the shop's first location when none is named", async () => {
    const locationId = await seededShop();
    await control("orders", { shop: DOMAIN, count: 1, lineItems: LINES });
    const [order] = store().orders.values();
    expect(store().fulfillmentOrders.get(order!.fulfillmentOrderIds[0]!)!.assignedLocationId).toBe(
      locationId,
    );
  });

  it.each([
    ["a location the shop lacks", { locationId: "gid://shopify/Location/1" }],
    ["no line items", { lineItems: [] }],
    ["a count of zero", { count: 0 }],
    ["a fractional quantity", { lineItems: [{ title: "Вишиванка", quantity: 1.5 }] }],
  ])("answers 400 to %s and adds no order", async (_, change) => {
    await seededShop();
    const { status, json } = await control("orders", { shop: DOMAIN, count: 2, lineItems: LINES, ...change });
    expect(status).toBe(400);
    expect(json.error).toEqual(expect.any(String));
    expect(store().orders.size).toBe(0);
  });

  it("answers 400 for a shop without a location", async () => {
    await control("shops", { domain: DOMAIN, accessToken: TOKEN });
    const { status, json } = await control("orders", { shop: DOMAIN, count: 1, lineItems: LINES });
    expect({ status, json }).toEqual({
      status: 400,
      json: { error: `shop ${DOMAIN} has no location: add one first` },
    });
  });
});

describe("GET /__control/stats", () => {
  const SHIP = `mutation Ship($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) { fulfillment { id } userErrors { message } } }`;

  /** Fulfils one of each of the order's items, as a partial shipment would. */
  async function shipOne(orderId: string) {
    const fulfillmentOrder = store().fulfillmentOrders.get(
      store().orders.get(orderId)!.fulfillmentOrderIds[0]!,
    )!;
    const lines = fulfillmentOrder.lineItems.map((line) => ({ id: line.id, quantity: 1 }));
    const group = { fulfillmentOrderId: fulfillmentOrder.id, fulfillmentOrderLineItems: lines };
    const { body } = await gql(SHIP, { fulfillment: { lineItemsByFulfillmentOrder: [group] } });
    expect(body).toMatchObject({ data: { fulfillmentCreate: { userErrors: [] } } });
    return (body.extensions as { cost: { actualQueryCost: number } }).cost.actualQueryCost;
  }

  it("counts the orders, those fulfilled, the fulfillments beyond one, the requests and their cost", async () => {
    const locationId = await seededShop();
    expect((await control("stats")).json).toEqual({
      requests: 0,
      actualCost: 0,
      orders: 0,
      fulfilledOrders: 0,
      extraFulfillments: 0,
      operations: {},
    });
    const ids = (await control("orders", { shop: DOMAIN, count: 3, lineItems: LINES, locationId })).json
      .ids as string[];
    const query = await gql("{ shop { name } }");
    const cost =
      (query.body.extensions as { cost: { actualQueryCost: number } }).cost.actualQueryCost +
      (await shipOne(ids[0]!)) +
      (await shipOne(ids[1]!)) +
      (await shipOne(ids[1]!));
    expect((await control("stats")).json).toEqual({
      requests: 4,
      actualCost: cost,
      orders: 3,
      fulfilledOrders: 2,
      extraFulfillments: 1,
      operations: expect.any(Object),
    });
    expect(cost).toBeGreaterThan(30); // three mutations at 10 each, and the query
  });
});

describe("the control routes", () => {
  it("answer an unknown route 404 with the routes there are", async () => {
    const { status, json } = await control("throttle", {});
    expect(status).toBe(404);
    expect(json).toEqual({
      error: "no control route POST /throttle",
      routes: expect.arrayContaining([
        "POST shops",
        "POST locations",
        "POST locations/update",
        "POST routing",
        "POST stock",
        "POST orders",
        "POST orders/webhook-payload",
        "POST fulfillment-orders",
        "POST fulfillment-orders/move",
        "POST fulfillment-orders/hold",
        "POST fulfillment-orders/release-hold",
        "POST fulfillment-orders/split",
        "POST fulfillment-orders/merge",
        "POST fulfillment-orders/cancel",
        "POST fulfillment-orders/reschedule",
        "POST clock",
        "POST webhooks",
        "POST webhooks/drain",
        "POST webhooks/delivery",
        "GET webhooks/deliveries",
        "POST products",
        "POST sales",
        "POST levels",
        "GET stats",
      ]),
    });
    expect((await control("orders")).status).toBe(404);
  });

  it("answer malformed JSON and an empty body 400", async () => {
    const malformed = await fetch(`${fake.controlUrl}/shops`, { method: "POST", body: "{domain" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: expect.stringMatching(/^malformed JSON/) });
    const empty = await fetch(`${fake.controlUrl}/shops`, { method: "POST" });
    expect(empty.status).toBe(400);
    expect(fake.state.shops()).toEqual([]);
  });
});

// The CLI runs as node with tsx's loader, one process: `npx tsx` is a wrapper (npx, then tsx, then node), whose
// exit after SIGTERM said nothing of the server beneath it, which could still answer (a CI failure).
describe("the CLI", () => {
  it("prints one JSON line whose addresses answer, uses the bucket it is given, and closes on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/shopify-fake/cli.ts", "--restore-rate", "7", "--maximum-available", "70"],
      {
        cwd: new URL("../..", import.meta.url).pathname,
        stdio: ["ignore", "pipe", "ignore"],
        detached: true,
      },
    );
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once("line", resolve);
        child.once("exit", (code) => reject(new Error(`the CLI exited (${code}) before printing`)));
      });
      const printed = JSON.parse(line) as Record<string, string>;
      expect(Object.keys(printed).sort()).toEqual(["controlUrl", "graphqlUrl", "url"]);
      const added = await control("shops", { domain: DOMAIN, accessToken: TOKEN }, printed.controlUrl);
      expect(added.status).toBe(200);
      const { body } = await gql("{ shop { name } }", {}, printed.graphqlUrl);
      expect(body.extensions).toMatchObject({
        cost: { throttleStatus: { maximumAvailable: 70, restoreRate: 7 } },
      });
      expect((await control("stats", undefined, printed.controlUrl)).json).toMatchObject({ requests: 1 });

      process.kill(-child.pid!, "SIGTERM");
      await exited;
      await expect(fetch(`${printed.controlUrl}/stats`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    }
  });

  it("refuses a bucket figure that is not a positive whole number", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/shopify-fake/cli.ts", "--restore-rate", "fast"],
      {
        cwd: new URL("../..", import.meta.url).pathname,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toContain("--restore-rate must be a positive whole number, not fast");
  });
});

describe("the stock routes", () => {
  it("stock products at a location, sell from them as an order would, and read their levels back", async () => {
    const location = await seededShop();
    const added = await control("products", {
      shop: DOMAIN,
      locationId: location,
      products: [
        {
          title: "Вишиванка",
          variants: [
            { sku: "VSH-S", available: 3 },
            { sku: "VSH-M", available: 0 },
          ],
        },
      ],
    });
    expect(added).toEqual({ status: 200, json: { products: 1, variants: 2 } });
    expect((await control("sales", { shop: DOMAIN, locationId: location, skus: ["VSH-S"] })).json).toEqual({
      sold: 1,
    });
    const { json } = await control("levels", {
      shop: DOMAIN,
      locationId: location,
      skus: ["VSH-S", "VSH-M", "NONE"],
    });
    expect(json.levels).toEqual([
      { sku: "VSH-S", available: 2, committed: 1 },
      { sku: "VSH-M", available: 0, committed: 0 },
      { sku: "NONE", available: null, committed: null },
    ]);
  });

  it("refuse a sale of a SKU not stocked there, selling nothing, and products for a location the shop lacks", async () => {
    const location = await seededShop();
    await control("products", {
      shop: DOMAIN,
      locationId: location,
      products: [{ title: "Чашка", variants: [{ sku: "CUP", available: 5 }] }],
    });
    const refused = await control("sales", { shop: DOMAIN, locationId: location, skus: ["CUP", "NONE"] });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/no NONE stocked/);
    const { json } = await control("levels", { shop: DOMAIN, locationId: location, skus: ["CUP"] });
    expect(json.levels).toEqual([{ sku: "CUP", available: 5, committed: 0 }]);
    const elsewhere = await control("products", {
      shop: DOMAIN,
      locationId: "gid://shopify/Location/404",
      products: [{ title: "Чашка", variants: [{ sku: "CUP-2", available: 1 }] }],
    });
    expect(elsewhere.status).toBe(400);
    expect(store().variantBySku("CUP-2")).toBeUndefined();
  });

  it("count the requests by operation", async () => {
    await seededShop();
    await gql("query ShopName { shop { name } }");
    await gql("query ShopName { shop { name } }");
    const { json } = await control("stats");
    expect(json.operations).toMatchObject({ ShopName: 2 });
  });
});

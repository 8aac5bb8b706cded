// The fake's fulfillment services over real HTTP: the Admin API mutations and queries a service app uses, the
// merchant's requests (GraphQL and control routes), the signed callbacks Shopify makes to the service's
// callbackUrl (received here by a loopback server that verifies them: the notification with shopify-api's own
// fulfillment-service validation, the GETs by the query-string HMAC), and Shopify's rules on who fulfils what.
import "@shopify/shopify-api/adapters/node";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiVersion, shopifyApi } from "@shopify/shopify-api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startShopifyFake, type ShopifyFake, type ShopStore } from ".";
import { deprecatedArgumentsSent, fulfillmentServices, serviceAnswers } from "./services";

const DOMAIN = "sklad-services.myshopify.com";
const TOKEN = "shpat_sklad_services";
const SECRET = "fake-app-secret-for-services";

/** shopify-api's own check of a fulfillment-service notification, configured with the app's secret. */
const library = shopifyApi({
  apiKey: "services-test-key",
  apiSecretKey: SECRET,
  scopes: ["write_fulfillments"],
  hostName: "sklad-sync.test",
  apiVersion: ApiVersion.October25,
  isEmbeddedApp: true,
  logger: { level: 0 },
});

type Received = { method: string; url: string; headers: IncomingMessage["headers"]; body: string } & {
  /** POST: shopify-api's fulfillmentService.validate; GET: the HMAC of the raw query string. */
  verified: boolean;
};

/** The service app's side: records and verifies what the fake sends, answering with `answer`. */
async function startReceiver() {
  const received: Received[] = [];
  let answer: (request: Received) => { status: number; body: unknown } = () => ({ status: 200, body: {} });
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let verified: boolean;
        if (request.method === "POST") {
          verified = (await library.fulfillmentService.validate({ rawBody: body, rawRequest: request }))
            .valid;
        } else {
          const query = (request.url ?? "").split("?")[1] ?? "";
          const expected = createHmac("sha256", SECRET).update(query).digest();
          const given = Buffer.from(String(request.headers["x-shopify-hmac-sha256"] ?? ""), "base64");
          verified = given.length === expected.length && timingSafeEqual(given, expected);
        }
        const entry = {
          method: request.method ?? "",
          url: request.url ?? "",
          headers: request.headers,
          body,
          verified,
        };
        received.push(entry);
        const { status, body: reply } = answer(entry);
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(reply));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answerWith(next: typeof answer) {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let fake: ShopifyFake;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let store: ShopStore;

beforeEach(async () => {
  fake = await startShopifyFake({ app: { apiKey: "services-test-key", apiSecretKey: SECRET, scopes: "" } });
  receiver = await startReceiver();
  store = fake.state.addShop({ domain: DOMAIN, accessToken: TOKEN });
  store.addLocation({ name: "Магазин" });
});

afterEach(async () => {
  await fake.close();
  await receiver.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function gql(query: string, variables: object = {}): Promise<Json> {
  const response = await fetch(fake.graphqlUrl, {
    method: "POST",
    headers: { "x-shopify-access-token": TOKEN, "x-fake-shop": DOMAIN },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Json;
}

async function control(route: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${fake.controlUrl}/${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

const CREATE = `mutation Create($name: String!, $callbackUrl: URL, $inventory: Boolean, $tracking: Boolean) {
  fulfillmentServiceCreate(name: $name, callbackUrl: $callbackUrl, inventoryManagement: $inventory,
    trackingSupport: $tracking, requiresShippingMethod: true) {
    fulfillmentService { id serviceName handle callbackUrl inventoryManagement trackingSupport type
      location { id name isActive fulfillsOnlineOrders fulfillmentService { id } } }
    userErrors { field message }
  }
}`;

/** The app's service, registered through the API with its callback at the receiver. */
async function createService(name = "Sklad Sync", flags = { inventory: true, tracking: true }) {
  const body = await gql(CREATE, { name, callbackUrl: `${receiver.url}/fulfillment-service`, ...flags });
  expect(body.data.fulfillmentServiceCreate.userErrors).toEqual([]);
  return body.data.fulfillmentServiceCreate.fulfillmentService as Json;
}

const FO = "id status requestStatus merchantRequests(first: 5) { nodes { kind message } }";
const fo = (id: string) => store.fulfillmentOrders.get(id)!;
const mutate = async (name: string, args: string, variables: object) =>
  (
    await gql(
      `mutation M(${args}) { ${name}(${args.replace(/\$(\w+): [\w![\]]+/g, "$1: $$$1")}) {
    fulfillmentOrder { ${FO} } userErrors { field message } } }`,
      variables,
    )
  ).data[name] as Json;
const accept = (id: string) =>
  mutate("fulfillmentOrderAcceptFulfillmentRequest", "$id: ID!, $message: String", { id, message: "Беремо" });

/** An order of one tracked product stocked at `locationId`, its fulfillment order assigned there. */
function orderAt(locationId: string, quantity = 2) {
  const sku = `SKU-${store.orders.size + 1}`;
  const { variants } = store.addProduct({ title: "Чашка", variants: [{ sku, price: "100.00" }] });
  store.stock(store.variants.get(variants[0]!.id)!.inventoryItemId, locationId, { available: 10 });
  return store.addOrder({ lineItems: [{ sku, quantity }], locationId }).fulfillmentOrder;
}

const topics = () => store.webhookOutbox.map((webhook) => webhook.topic);

describe("fulfillmentServiceCreate", () => {
  it("creates the service and a location of its own, each naming the other", async () => {
    const service = await createService();
    expect(service).toMatchObject({
      serviceName: "Sklad Sync",
      handle: "sklad-sync",
      callbackUrl: `${receiver.url}/fulfillment-service`,
      inventoryManagement: true,
      trackingSupport: true,
      type: "THIRD_PARTY",
      location: {
        name: "Sklad Sync",
        isActive: true,
        fulfillsOnlineOrders: true,
        fulfillmentService: { id: service.id },
      },
    });
    expect(store.locations.get(service.location.id)?.fulfillmentServiceId).toBe(service.id);
    // FulfillmentService is not a Node in the schema: it is read by its own root field, never by node(id:).
    const read = await gql(
      `query R($id: ID!) { fulfillmentService(id: $id) { serviceName location { id } } }`,
      {
        id: service.id,
      },
    );
    expect(read.errors).toBeUndefined();
    expect(read.data).toEqual({
      fulfillmentService: { serviceName: "Sklad Sync", location: { id: service.location.id } },
    });
    const merchant = [...store.locations.values()].find((location) => location.name === "Магазин")!;
    const own = await gql(`query L($id: ID!) { location(id: $id) { fulfillmentService { id } } }`, {
      id: merchant.id,
    });
    expect(own.data.location.fulfillmentService).toBeNull();
  });

  it("refuses a second service of the same name and adds no location", async () => {
    await createService();
    const locations = store.locations.size;
    const again = await gql(CREATE, { name: "sklad sync" });
    expect(again.data.fulfillmentServiceCreate).toEqual({
      fulfillmentService: null,
      userErrors: [{ field: ["name"], message: "Name has already been taken" }],
    });
    expect(store.locations.size).toBe(locations);
  });

  it("refuses permitsSkuSharing, which 2026-10 no longer has, and records a sent fulfillmentOrdersOptIn", async () => {
    const refused = await gql(`mutation { fulfillmentServiceCreate(name: "A", permitsSkuSharing: true) {
      fulfillmentService { id } } }`);
    expect(refused.errors[0]).toMatchObject({ extensions: { code: "argumentNotAccepted" } });
    expect(fulfillmentServices(store)).toEqual([]);

    await createService("Without"); // the schema's default (true) is not something the app sent
    expect(deprecatedArgumentsSent(store)).toEqual([]);
    const sent = await gql(`mutation { fulfillmentServiceCreate(name: "With", fulfillmentOrdersOptIn: true) {
      fulfillmentService { fulfillmentOrdersOptIn } userErrors { message } } }`);
    expect(sent.data.fulfillmentServiceCreate).toEqual({
      fulfillmentService: { fulfillmentOrdersOptIn: true },
      userErrors: [],
    });
    expect(deprecatedArgumentsSent(store)).toEqual([
      { mutation: "fulfillmentServiceCreate", argument: "fulfillmentOrdersOptIn" },
    ]);
    const optOut =
      await gql(`mutation { fulfillmentServiceCreate(name: "Legacy", fulfillmentOrdersOptIn: false) {
      fulfillmentService { id } userErrors { field } } }`);
    expect(optOut.data.fulfillmentServiceCreate).toEqual({
      fulfillmentService: null,
      userErrors: [{ field: ["fulfillmentOrdersOptIn"] }],
    });
  });
});

describe("fulfillmentServiceUpdate, fulfillmentServiceDelete and locationEdit", () => {
  it("updates the service's flags and callback", async () => {
    const service = await createService();
    const body = await gql(
      `mutation U($id: ID!) { fulfillmentServiceUpdate(id: $id, inventoryManagement: false,
      callbackUrl: "https://sklad-sync.test/fs") { fulfillmentService { inventoryManagement trackingSupport callbackUrl }
      userErrors { message } } }`,
      { id: service.id },
    );
    expect(body.data.fulfillmentServiceUpdate).toEqual({
      fulfillmentService: {
        inventoryManagement: false,
        trackingSupport: true,
        callbackUrl: "https://sklad-sync.test/fs",
      },
      userErrors: [],
    });
  });

  it("deletes a service keeping its location as the merchant's, or transferring its stock", async () => {
    const kept = await createService("Kept");
    const keep = await gql(
      `mutation D($id: ID!) { fulfillmentServiceDelete(id: $id, inventoryAction: KEEP) {
      deletedId userErrors { message } } }`,
      { id: kept.id },
    );
    expect(keep.data.fulfillmentServiceDelete).toEqual({ deletedId: kept.id, userErrors: [] });
    expect(store.locations.get(kept.location.id)?.fulfillmentServiceId).toBeNull();

    const moved = await createService("Moved");
    const order = orderAt(moved.location.id, 3);
    const DELETE = `mutation D($id: ID!, $to: ID) { fulfillmentServiceDelete(id: $id, destinationLocationId: $to) {
      deletedId userErrors { field message } } }`;
    const refused = await gql(DELETE, { id: moved.id }); // TRANSFER, the default, needs a destination
    expect(refused.data.fulfillmentServiceDelete.userErrors[0].field).toEqual(["destinationLocationId"]);
    const shop = [...store.locations.values()].find((location) => location.name === "Магазин")!;
    const done = await gql(DELETE, { id: moved.id, to: shop.id });
    expect(done.data.fulfillmentServiceDelete).toEqual({ deletedId: moved.id, userErrors: [] });
    expect(store.locations.has(moved.location.id)).toBe(false);
    expect(fo(order.id).assignedLocationId).toBe(shop.id);
    const item = store.variantBySku("SKU-1")!.inventoryItemId;
    expect(store.level(item, shop.id)?.quantities).toMatchObject({ available: 7, committed: 3 });
  });

  it("edits the service location's address, but never its online fulfilment", async () => {
    const service = await createService();
    const EDIT = `mutation E($id: ID!, $input: LocationEditInput!) { locationEdit(id: $id, input: $input) {
      location { address { address1 city zip countryCode provinceCode } } userErrors { field message code } } }`;
    const address = {
      address1: "вул. Складська, 1",
      city: "Бровари",
      zip: "07400",
      countryCode: "UA",
      provinceCode: "UA-32",
    };
    const edited = await gql(EDIT, { id: service.location.id, input: { address } });
    expect(edited.data.locationEdit).toEqual({ location: { address }, userErrors: [] });
    const offline = await gql(EDIT, { id: service.location.id, input: { fulfillsOnlineOrders: false } });
    expect(offline.data.locationEdit.userErrors[0].code).toBe(
      "CANNOT_MODIFY_ONLINE_ORDER_FULFILLMENT_FOR_FS_LOCATION",
    );
    const missing = await gql(EDIT, { id: "gid://shopify/Location/1", input: { name: "X" } });
    expect(missing.data.locationEdit.userErrors[0].code).toBe("NOT_FOUND");
  });

  it("leaves another app's service alone", async () => {
    const other = await control("services", { shop: DOMAIN, name: "Other 3PL", otherApp: true });
    const body = await gql(
      `mutation U($id: ID!) { fulfillmentServiceUpdate(id: $id, trackingSupport: true) {
      fulfillmentService { id } userErrors { message } } }`,
      { id: other.json.id },
    );
    expect(body.data.fulfillmentServiceUpdate.fulfillmentService).toBeNull();
    expect(fulfillmentServices(store)[0]?.trackingSupport).toBe(false);
  });
});

describe("fulfillment requests", () => {
  it("a submitted request moves the order to SUBMITTED, raises the webhook and pings the callback, signed", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    expect(fo(order.id).requestStatus).toBe("UNSUBMITTED");
    const submitted = await gql(
      `mutation S($id: ID!) { fulfillmentOrderSubmitFulfillmentRequest(id: $id,
      message: "Крихке") { submittedFulfillmentOrder { ${FO} } unsubmittedFulfillmentOrder { id } userErrors { message } } }`,
      {
        id: order.id,
      },
    );
    expect(submitted.data.fulfillmentOrderSubmitFulfillmentRequest).toEqual({
      submittedFulfillmentOrder: {
        id: order.id,
        status: "OPEN",
        requestStatus: "SUBMITTED",
        merchantRequests: { nodes: [{ kind: "FULFILLMENT_REQUEST", message: "Крихке" }] },
      },
      unsubmittedFulfillmentOrder: null,
      userErrors: [],
    });
    const webhook = store.webhookOutbox.at(-1)!;
    expect(webhook.topic).toBe("fulfillment_orders/fulfillment_request_submitted");
    expect(webhook.payload).toMatchObject({
      original_fulfillment_order: { id: order.id, status: "open", request_status: "submitted" },
      submitted_fulfillment_order: { id: order.id, status: "open", request_status: "submitted" },
      fulfillment_order_merchant_request: { message: "Крихке" },
    });
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1));
    expect(receiver.received[0]).toMatchObject({
      method: "POST",
      url: "/fulfillment-service/fulfillment_order_notification",
      body: '{"kind":"FULFILLMENT_REQUEST"}',
      verified: true,
    });
    expect(receiver.received[0]!.headers["x-shopify-shop-domain"]).toBe(DOMAIN);
  });

  it("lets the app accept only a submitted request, once", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    const early = await accept(order.id);
    expect(early.userErrors[0].message).toMatch(/request status is UNSUBMITTED/);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    const accepted = await mutate(
      "fulfillmentOrderAcceptFulfillmentRequest",
      "$id: ID!, $message: String, $estimatedShippedAt: DateTime",
      { id: order.id, message: "Беремо", estimatedShippedAt: "2026-11-30T12:00:00Z" },
    );
    expect(accepted).toMatchObject({
      fulfillmentOrder: { status: "IN_PROGRESS", requestStatus: "ACCEPTED" },
      userErrors: [],
    });
    expect(store.webhookOutbox.at(-1)).toMatchObject({
      topic: "fulfillment_orders/fulfillment_request_accepted",
      payload: {
        fulfillment_order: { id: order.id, status: "in_progress", request_status: "accepted" },
        message: "Беремо",
      },
    });
    const twice = await accept(order.id);
    expect(twice.fulfillmentOrder).toBeNull();
    expect(twice.userErrors[0].message).toMatch(/request status is ACCEPTED/);
    expect(serviceAnswers(store).filter((a) => !a.refused)).toEqual([
      expect.objectContaining({
        mutation: "fulfillmentOrderAcceptFulfillmentRequest",
        estimatedShippedAt: "2026-11-30T12:00:00Z",
      }),
    ]);
  });

  it("a rejected request stays open with the merchant, who may ask again", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    const line = fo(order.id).lineItems[0]!.id;
    const rejected = await mutate(
      "fulfillmentOrderRejectFulfillmentRequest",
      "$id: ID!, $reason: FulfillmentOrderRejectionReason, $lineItems: [IncomingRequestLineItemInput!], $message: String",
      {
        id: order.id,
        reason: "INVENTORY_OUT_OF_STOCK",
        lineItems: [{ fulfillmentOrderLineItemId: line, message: "0 шт." }],
        message: "Немає",
      },
    );
    expect(rejected).toMatchObject({
      fulfillmentOrder: { status: "OPEN", requestStatus: "REJECTED" },
      userErrors: [],
    });
    expect(topics().at(-1)).toBe("fulfillment_orders/fulfillment_request_rejected");
    expect(serviceAnswers(store).at(-1)).toMatchObject({
      reason: "INVENTORY_OUT_OF_STOCK",
      message: "Немає",
    });
    const again = await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    expect(again.json.fulfillmentOrder).toEqual({ id: order.id, status: "OPEN", requestStatus: "SUBMITTED" });
  });

  it("a request for some lines splits the rest into a new unsubmitted fulfillment order", async () => {
    const service = await createService();
    const order = orderAt(service.location.id, 5);
    const line = fo(order.id).lineItems[0]!;
    const { json } = await control("fulfillment-requests", {
      shop: DOMAIN,
      fulfillmentOrderId: order.id,
      lineItems: [{ id: line.id, quantity: 2 }],
    });
    const rest = fo(json.unsubmittedFulfillmentOrder.id);
    expect(fo(order.id).lineItems.map((l) => l.remainingQuantity)).toEqual([2]);
    expect(rest).toMatchObject({ requestStatus: "UNSUBMITTED", assignedLocationId: service.location.id });
    expect(rest.lineItems.map((l) => l.remainingQuantity)).toEqual([3]);
  });

  it("the control route answers once the app has been pinged, and refuses a merchant's location", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    const { status, json } = await control("fulfillment-requests", {
      shop: DOMAIN,
      fulfillmentOrderId: order.id,
      message: "Швидше",
    });
    expect(status).toBe(200);
    expect(json.callback).toMatchObject({ kind: "FULFILLMENT_REQUEST", status: 200, delivered: true });
    expect(receiver.received).toHaveLength(1);
    const shop = [...store.locations.values()].find((location) => location.name === "Магазин")!;
    const merchants = orderAt(shop.id);
    const refused = await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: merchants.id });
    expect(refused).toEqual({
      status: 400,
      json: { error: "Fulfillment order is not assigned to a fulfillment service location." },
    });
  });

  it("sends a ping again when a test asks, and lists services, answers and pings for assertions", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    await accept(order.id);
    const again = await control("services/notifications", {
      shop: DOMAIN,
      kind: "FULFILLMENT_REQUEST",
      times: 2,
    });
    expect(again.json.callbacks).toHaveLength(2);
    expect(receiver.received.map((r) => [r.body, r.verified])).toEqual(
      Array(3).fill(['{"kind":"FULFILLMENT_REQUEST"}', true]),
    );
    const listed = await control(`services?shop=${DOMAIN}`);
    expect(listed.json).toMatchObject({
      services: [{ id: service.id, locationId: service.location.id, ownedByOtherApp: false }],
      deprecatedArguments: [],
      answers: [
        { fulfillmentOrderId: order.id, mutation: "fulfillmentOrderAcceptFulfillmentRequest", refused: null },
      ],
      callbacks: [
        { fulfillmentOrderId: order.id, status: 200 },
        { fulfillmentOrderId: null },
        { fulfillmentOrderId: null },
      ],
    });
  });

  it("pings the app where a test points callbacks, with the secret the app verifies", async () => {
    const body = await gql(CREATE, {
      name: "Remote",
      callbackUrl: "https://sklad-sync.test/fulfillment-service",
    });
    const service = body.data.fulfillmentServiceCreate.fulfillmentService as Json;
    expect((await control("services/config", { callbackOrigin: receiver.url })).json).toEqual({
      callbackOrigin: receiver.url,
    });
    await control("fulfillment-requests", {
      shop: DOMAIN,
      fulfillmentOrderId: orderAt(service.location.id).id,
    });
    expect(receiver.received[0]).toMatchObject({
      url: "/fulfillment-service/fulfillment_order_notification",
      verified: true,
    });

    await control("services/config", { apiSecretKey: "another-secret" }); // signed with a secret the app does not hold
    await control("fulfillment-requests", {
      shop: DOMAIN,
      fulfillmentOrderId: orderAt(service.location.id).id,
    });
    expect(receiver.received[1]!.verified).toBe(false);
  });
});

describe("cancellation requests", () => {
  async function acceptedOrder() {
    const service = await createService();
    const order = orderAt(service.location.id, 2);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    await accept(order.id);
    return { service, order };
  }
  const CANCEL = "$id: ID!, $message: String";

  it("can only follow an accepted request", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    const early = await mutate("fulfillmentOrderSubmitCancellationRequest", CANCEL, { id: order.id });
    expect(early.userErrors[0].message).toMatch(/request status SUBMITTED/);
  });

  it("accepted: the fulfillment order closes and its units leave committed", async () => {
    const { order, service } = await acceptedOrder();
    const asked = await mutate("fulfillmentOrderSubmitCancellationRequest", CANCEL, {
      id: order.id,
      message: "Скасовано",
    });
    expect(asked).toMatchObject({
      fulfillmentOrder: { status: "IN_PROGRESS", requestStatus: "CANCELLATION_REQUESTED" },
    });
    expect(store.webhookOutbox.at(-1)).toMatchObject({
      topic: "fulfillment_orders/cancellation_request_submitted",
      payload: { fulfillment_order_merchant_request: { message: "Скасовано" } },
    });
    await vi.waitFor(() =>
      expect(receiver.received.map((r) => r.body)).toContain('{"kind":"CANCELLATION_REQUEST"}'),
    );
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const item = store.variantBySku("SKU-1")!.inventoryItemId;
    expect(store.level(item, service.location.id)?.quantities.committed).toBe(2);
    const done = await mutate("fulfillmentOrderAcceptCancellationRequest", CANCEL, {
      id: order.id,
      message: "Не почали",
    });
    expect(done).toMatchObject({
      fulfillmentOrder: { status: "CLOSED", requestStatus: "CANCELLATION_ACCEPTED" },
      userErrors: [],
    });
    expect(topics().at(-1)).toBe("fulfillment_orders/cancellation_request_accepted");
    expect(store.level(item, service.location.id)?.quantities).toMatchObject({ committed: 0, available: 10 });
    const listed = await gql("{ assignedFulfillmentOrders(first: 10) { nodes { id } } }");
    expect(listed.data.assignedFulfillmentOrders.nodes).toEqual([]);
  });

  it("rejected: the work stays accepted and the app may still fulfil it", async () => {
    const { order } = await acceptedOrder();
    await control("cancellation-requests", {
      shop: DOMAIN,
      fulfillmentOrderId: order.id,
      message: "Скасуйте",
    });
    const kept = await mutate("fulfillmentOrderRejectCancellationRequest", CANCEL, {
      id: order.id,
      message: "Вже спаковано",
    });
    expect(kept).toMatchObject({
      fulfillmentOrder: { status: "IN_PROGRESS", requestStatus: "CANCELLATION_REJECTED" },
    });
    expect(topics().at(-1)).toBe("fulfillment_orders/cancellation_request_rejected");
    const again = await mutate("fulfillmentOrderRejectCancellationRequest", CANCEL, { id: order.id });
    expect(again.userErrors[0].message).toMatch(/not CANCELLATION_REQUESTED/);
    const fulfilled = await fulfil(order.id);
    expect(fulfilled).toMatchObject({ fulfillment: { status: "SUCCESS" }, userErrors: [] });
  });

  it("fulfillmentOrderClose hands accepted work back to the merchant, who may ask again", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    const early = await mutate("fulfillmentOrderClose", CANCEL, { id: order.id });
    expect(early.userErrors).toHaveLength(1);
    await accept(order.id);
    const closed = await mutate("fulfillmentOrderClose", CANCEL, { id: order.id, message: "Розбили" });
    expect(closed).toMatchObject({
      fulfillmentOrder: { status: "INCOMPLETE", requestStatus: "CLOSED" },
      userErrors: [],
    });
    expect(topics().at(-1)).toBe("fulfillment_orders/fulfillment_service_failed_to_complete");
    expect((await fulfil(order.id)).userErrors).toHaveLength(1);
    const again = await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    expect(again.json.fulfillmentOrder.requestStatus).toBe("SUBMITTED");
  });
});

async function fulfil(id: string): Promise<Json> {
  const body = await gql(
    `mutation F($id: ID!) { fulfillmentCreate(fulfillment: {
    lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: $id }] }) { fulfillment { status } userErrors { field message } } }`,
    {
      id,
    },
  );
  return body.data.fulfillmentCreate as Json;
}

describe("who may fulfil a service's fulfillment orders", () => {
  it("not before the service accepted the request", async () => {
    const service = await createService();
    const order = orderAt(service.location.id);
    expect((await fulfil(order.id)).userErrors[0].message).toMatch(/has not been accepted.*UNSUBMITTED/);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    expect((await fulfil(order.id)).userErrors[0].message).toMatch(/SUBMITTED/);
    const ACTIONS = `query A($id: ID!) { fulfillmentOrder(id: $id) { supportedActions { action } } }`;
    expect((await gql(ACTIONS, { id: order.id })).data.fulfillmentOrder.supportedActions).toEqual([]);
    await accept(order.id);
    expect((await gql(ACTIONS, { id: order.id })).data.fulfillmentOrder.supportedActions).toEqual([
      { action: "CREATE_FULFILLMENT" },
    ]);
    expect(await fulfil(order.id)).toEqual({ fulfillment: { status: "SUCCESS" }, userErrors: [] });
    expect(fo(order.id).status).toBe("CLOSED");
    expect((await fulfil(order.id)).userErrors[0].message).toMatch(/unfulfillable status= closed/);
    // A merchant's own location keeps fulfilling as before, with no request asked or accepted.
    const shop = [...store.locations.values()].find((location) => location.name === "Магазин")!;
    expect(await fulfil(orderAt(shop.id).id)).toEqual({ fulfillment: { status: "SUCCESS" }, userErrors: [] });
  });

  it("never another app's service's, which the app can neither answer nor fulfil", async () => {
    const other = await control("services", { shop: DOMAIN, name: "Other 3PL", otherApp: true });
    const order = orderAt(other.json.locationId);
    await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: order.id });
    const answered = await accept(order.id);
    expect(answered.userErrors[0].message).toBe(
      "The fulfillment order is assigned to another app's fulfillment service.",
    );
    expect(fo(order.id).requestStatus).toBe("SUBMITTED");
    fo(order.id).requestStatus = "ACCEPTED"; // as if the other app had accepted
    expect((await fulfil(order.id)).userErrors[0].message).toMatch(/another app's fulfillment service/);
    expect(receiver.received).toEqual([]); // the other app's callback is not the app under test's
  });
});

describe("assignedFulfillmentOrders", () => {
  const LIST = `query A($status: FulfillmentOrderAssignmentStatus, $locations: [ID!], $after: String) {
    assignedFulfillmentOrders(first: 2, after: $after, assignmentStatus: $status, locationIds: $locations) {
      nodes { id requestStatus } pageInfo { hasNextPage endCursor } } }`;
  const ids = (body: Json) =>
    (body.data.assignedFulfillmentOrders.nodes as Json[]).map((node) => node.id as string);

  it("lists only the app's services' orders, by assignment status, in pages, at connection cost", async () => {
    const service = await createService();
    const second = await createService("Second");
    const other = await control("services", { shop: DOMAIN, name: "Other 3PL", otherApp: true });
    const shop = [...store.locations.values()].find((location) => location.name === "Магазин")!;
    const [unsubmitted, submitted, accepted, cancelling, closed] = [1, 2, 3, 4, 5].map(
      () => orderAt(service.location.id).id,
    );
    const atSecond = orderAt(second.location.id).id;
    orderAt(shop.id);
    orderAt(other.json.locationId);
    for (const id of [submitted!, accepted!, cancelling!, closed!])
      await control("fulfillment-requests", { shop: DOMAIN, fulfillmentOrderId: id });
    for (const id of [accepted!, cancelling!, closed!]) await accept(id);
    await control("cancellation-requests", { shop: DOMAIN, fulfillmentOrderId: cancelling });
    await fulfil(closed!);

    const page = await gql(LIST, {});
    expect(ids(page)).toEqual([unsubmitted, submitted]);
    expect(page.data.assignedFulfillmentOrders.pageInfo.hasNextPage).toBe(true);
    const rest = await gql(LIST, { after: page.data.assignedFulfillmentOrders.pageInfo.endCursor });
    expect(ids(rest)).toEqual([accepted, cancelling]);
    const last = await gql(LIST, { after: rest.data.assignedFulfillmentOrders.pageInfo.endCursor });
    expect(ids(last)).toEqual([atSecond]); // the closed one is never listed
    expect(ids(await gql(LIST, { status: "FULFILLMENT_REQUESTED" }))).toEqual([submitted]);
    expect(ids(await gql(LIST, { status: "FULFILLMENT_ACCEPTED" }))).toEqual([accepted]);
    expect(ids(await gql(LIST, { status: "CANCELLATION_REQUESTED" }))).toEqual([cancelling]);
    expect(
      ids(await gql(LIST, { status: "FULFILLMENT_UNSUBMITTED", locations: [second.location.id] })),
    ).toEqual([atSecond]);
    // 2 for the connection plus 1 a node, for the page asked (2): as the fake prices every connection.
    expect(page.extensions.cost.requestedQueryCost).toBe(4);
  });
});

describe("fetch_stock and fetch_tracking_numbers", () => {
  it("GETs fetch_stock signed over its query string and gives back what the app answered", async () => {
    const service = await createService();
    receiver.answerWith(() => ({ status: 200, body: { "SKU-1": 7 } }));
    const { status, json } = await control("services/fetch-stock", {
      shop: DOMAIN,
      serviceId: service.id,
      sku: "SKU 1/Ч",
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 200, body: { "SKU-1": 7 } });
    const request = receiver.received[0]!;
    expect(request).toMatchObject({ method: "GET", verified: true });
    const url = new URL(request.url, receiver.url);
    expect(url.pathname).toBe("/fulfillment-service/fetch_stock.json");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      max_retries: "3",
      shop: DOMAIN,
      sku: "SKU 1/Ч",
      timestamp: expect.stringMatching(/^\d{10}$/),
    });
    expect(request.url).toContain("sku=SKU+1%2F%D0%A7&"); // escaped as Shopify's Rails does, sorted by name
    const sweep = await control("services/fetch-stock", { shop: DOMAIN });
    expect(new URL(sweep.json.url as string).searchParams.has("sku")).toBe(false);
  });

  it("GETs fetch_tracking_numbers for fulfillment names, and neither when the flag is off", async () => {
    const service = await createService();
    receiver.answerWith(() => ({
      status: 200,
      body: { tracking_numbers: { "#1001.1": "20450000000001" }, success: true },
    }));
    const { json } = await control("services/fetch-tracking-numbers", {
      shop: DOMAIN,
      orderNames: ["#1001.1", "#1002.1"],
    });
    expect(json.body).toEqual({ tracking_numbers: { "#1001.1": "20450000000001" }, success: true });
    const request = receiver.received[0]!;
    expect(request.verified).toBe(true);
    expect(new URL(request.url, receiver.url).searchParams.getAll("order_names[]")).toEqual([
      "#1001.1",
      "#1002.1",
    ]);

    await gql(
      `mutation U($id: ID!) { fulfillmentServiceUpdate(id: $id, inventoryManagement: false, trackingSupport: false) {
      userErrors { message } } }`,
      { id: service.id },
    );
    expect((await control("services/fetch-stock", { shop: DOMAIN })).status).toBe(400);
    expect(
      (await control("services/fetch-tracking-numbers", { shop: DOMAIN, orderNames: ["#1"] })).status,
    ).toBe(400);
    expect(receiver.received).toHaveLength(1);
  });
});

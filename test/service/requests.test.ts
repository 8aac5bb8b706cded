// The fulfillment_requests kind as the worker runs it, on a real database and over real HTTP to the Shopify
// fake: requests read in pages, answered once from the order's state, under redelivery, two runs at once and
// lost answers; cancellation requests answered from the warehouse's stage; retries that end.
// The reading and order sides are routing's own (storeFulfillmentOrders, reconcileRouting); Shopify's pings
// reach the app's own callback route over HTTP (signed as Shopify signs them), as the merchant's requests are
// made in the fake.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { ORDER_STATE } from "../../app/orders/states";
import { storeFulfillmentOrders } from "../../app/routing/store.server";
import { FULFILLMENT_REQUESTS_KIND } from "../../app/service/kinds.server";
import { answerFulfillmentRequests, MAX_ANSWER_ATTEMPTS } from "../../app/service/requests.server";
import { createShopAdmin, type AdminGraphql, type ShopAdmin } from "../../app/shopify/admin-graphql.server";
import { unauthenticated } from "../../app/shopify.server";
import type { ShopWork } from "../../app/work/steps.server";
import {
  configureServiceCallbacks,
  deliverServiceCallbacks,
  serviceAnswers,
  startShopifyFake,
  submitFulfillmentRequest,
  type ShopifyFake,
  type ShopStore,
} from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { startRouteServer, type RouteServer } from "../support/route-server";
import { seedOrder } from "../support/orders";
import { addFlowOrder, flowOrderPayload } from "../e2e/shopify-shop";

const { db, log } = appContext();
const CUP = "CUP-KARP-BLUE";

let fake: ShopifyFake;
let appRoutes: RouteServer;
let store: ShopStore;
let shop: string;
let serviceLocation: string;
let now: number;

beforeAll(async () => {
  fake = await startShopifyFake();
  routeShopifyTo(fake.url);
  appRoutes = await startRouteServer();
  // The service's callbackUrl (https://app.test/fulfillment-service) reaches the app's routes on loopback.
  configureServiceCallbacks(fake.state, { callbackOrigin: appRoutes.url });
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
  await appRoutes.close();
});

let shopCount = 0;
beforeEach(async () => {
  shop = `service-shop-${++shopCount}.myshopify.com`;
  store = fake.state.addShop({ domain: shop, accessToken: `shpat_service_${shopCount}` });
  store.addLocation({ name: "Магазин" });
  store.addProduct({ title: "Чашка «Карпати»", variants: [{ title: "Синя", sku: CUP, price: "450.00" }] });
  now = Date.now();
  await db.session.create({
    data: { id: `offline_${shop}`, shop, state: "", accessToken: store.shop.accessToken, scope: "" },
  });
  // The service as the mode's choice registers it (register.server.ts), through the fake's own mutation.
  const admin = await shopAdmin();
  const made = await admin.mutate<{
    fulfillmentServiceCreate: { fulfillmentService: { id: string; location: { id: string } } };
  }>(
    `mutation MakeService { fulfillmentServiceCreate(name: "Sklad Sync", callbackUrl: "https://app.test/fulfillment-service", inventoryManagement: true, trackingSupport: true) { fulfillmentService { id location { id } } userErrors { field message } } }`,
  );
  serviceLocation = made.fulfillmentServiceCreate.fulfillmentService.location.id;
  await db.shopSettings.create({
    data: {
      shop,
      fulfillmentMode: "service",
      fulfillmentServiceId: made.fulfillmentServiceCreate.fulfillmentService.id,
      locationId: serviceLocation,
    },
  });
});

async function shopAdmin(
  intercept?: (query: string, send: () => Promise<Response>) => Promise<Response>,
): Promise<ShopAdmin> {
  const { admin } = await unauthenticated.admin(shop);
  const graphql: AdminGraphql = (query, options) =>
    intercept ? intercept(String(query), () => admin.graphql(query, options)) : admin.graphql(query, options);
  return createShopAdmin(graphql, { sleep: async () => {} });
}

/**
 * Shopify does what was asked, and the answer of the first call to `operation` never comes back; with
 * `andTheNextRead`, the network stays down for the status read that follows it too (as in a crash).
 */
function losingAnswerOf(operation: string, andTheNextRead = false) {
  let lost = false;
  let readLost = !andTheNextRead;
  return shopAdmin(async (query, send) => {
    if (lost && !readLost && query.includes("query ServiceFulfillmentOrderRequestStatus")) {
      readLost = true;
      throw new TypeError("fetch failed: socket hang up");
    }
    const response = await send();
    if (!lost && query.includes(`mutation ${operation}`)) {
      lost = true;
      throw new TypeError("fetch failed: socket hang up");
    }
    return response;
  });
}

/** Every call to `operation` fails on the way, and Shopify never sees it. */
function failingCallsTo(operation: string) {
  return shopAdmin(async (query, send) => {
    if (query.includes(`mutation ${operation}`)) throw new TypeError("fetch failed: connect ECONNREFUSED");
    return send();
  });
}

/** The merchant asks the service to fulfil: Shopify's ping reaches the app's callback, which marks it due. */
async function requestFulfillment(id: string) {
  const asked = submitFulfillmentRequest(store, id);
  expect(asked.userErrors).toEqual([]);
  const pings = await deliverServiceCallbacks(fake.state, store);
  expect(pings.map((ping) => ping.status)).toEqual([200]);
}

/** One run of the kind for the shop, as the worker makes it. */
async function run(admin?: Promise<ShopAdmin>) {
  const work = {
    db,
    log,
    clock: () => new Date(now),
    shop,
    admin: () => admin ?? shopAdmin(),
    signal: new AbortController().signal,
  } as unknown as ShopWork;
  return answerFulfillmentRequests(work);
}

/**
 * An order routed to the service's location whose fulfillment the merchant requested, read by a run before
 * the order's webhook came (the answer waits for it), then the app's order for it in `state`: taken in by
 * intake with the fake order's own line items, its stored fulfillment order applied (waiting, then ready).
 */
async function serviceOrder(
  number: number,
  state: "accepted" | "held" | "rejected" | "ready",
  lastError?: string,
) {
  const { order, fulfillmentOrder } = addFlowOrder(store, serviceLocation, `#${number}`);
  await requestFulfillment(fulfillmentOrder.id);
  await run();
  expect(answersOf(fulfillmentOrder.id)).toEqual([]);
  const shopifyOrderId = Number(order.id.split("/").at(-1));
  const row = await seedOrder(db, {
    shop,
    number,
    state,
    shopifyOrderId,
    payload: flowOrderPayload(store, order.id),
    ...(lastError ? { lastError } : {}),
  });
  return { fo: fulfillmentOrder, row };
}

const foRow = (id: string) =>
  db.shopifyFulfillmentOrder.findUniqueOrThrow({ where: { shop_id: { shop, id } } });
/** The fake's answer mutations, by the short names the tests use. */
const SHORT: Record<string, string> = {
  fulfillmentOrderAcceptFulfillmentRequest: "accept",
  fulfillmentOrderRejectFulfillmentRequest: "reject",
  fulfillmentOrderAcceptCancellationRequest: "accept_cancellation",
  fulfillmentOrderRejectCancellationRequest: "reject_cancellation",
};
/** Every answer the app called Shopify with for this fulfillment order, refused ones too. */
const answersOf = (id: string) =>
  serviceAnswers(store)
    .filter((answer) => answer.fulfillmentOrderId === id)
    .map((answer) => ({ ...answer, mutation: SHORT[answer.mutation] ?? answer.mutation }));
const later = (ms = 3_600_000) => void (now += ms);

describe("a fulfillment request", { timeout: 30_000 }, () => {
  it("is accepted once when the callback, the webhook and two workers all run for it", async () => {
    const { fo } = await serviceOrder(5101, "accepted");
    // The callback and the webhook each mark the shop due; two workers each run what they find due.
    await Promise.all([run(), run()]);
    await run();
    expect(answersOf(fo.id).map((answer) => answer.mutation)).toEqual(["accept"]);
    expect(fo.requestStatus).toBe("ACCEPTED");
    expect(await foRow(fo.id)).toMatchObject({ answered: "accept", answer: null, answerDueAt: null });
  });

  it("is not made by a second run while the first run's call is still on its way", async () => {
    const { fo } = await serviceOrder(5107, "accepted");
    // The first run's accept is held on the wire until a second run has gone through the same request.
    let second: Promise<unknown> | undefined;
    const slow = shopAdmin(async (query, send) => {
      if (query.includes("mutation ServiceAcceptFulfillmentRequest")) await (second ??= run());
      return send();
    });
    await run(slow);
    await second;
    expect(answersOf(fo.id).map((answer) => [answer.mutation, answer.refused])).toEqual([["accept", null]]);
    expect(await foRow(fo.id)).toMatchObject({ answered: "accept", answer: null, answerDueAt: null });
  });

  it("is recorded, not made again, after a call whose answer was lost: the request's status is read", async () => {
    const { fo } = await serviceOrder(5106, "accepted");
    await run(losingAnswerOf("ServiceAcceptFulfillmentRequest"));
    later();
    await run();
    expect(answersOf(fo.id)).toHaveLength(1);
    expect(await foRow(fo.id)).toMatchObject({ answered: "accept", answer: null, answerDueAt: null });
  });

  it("is not accepted again by the next run after a call left unsettled: the request's status is read first", async () => {
    const { fo } = await serviceOrder(5102, "accepted");
    await run(losingAnswerOf("ServiceAcceptFulfillmentRequest", true));
    expect(fo.requestStatus).toBe("ACCEPTED");
    expect(await foRow(fo.id)).toMatchObject({ answer: "accept", answerAttempts: 1, answered: null });
    later();
    const next = await run();
    expect(answersOf(fo.id)).toHaveLength(1);
    expect(await foRow(fo.id)).toMatchObject({ answered: "accept", answer: null, answerDueAt: null });
    expect(next).toEqual({ nextRunAt: null });
  });

  it("waits while the order is held for the merchant, and is accepted once the warehouse takes it", async () => {
    const { fo, row } = await serviceOrder(5103, "held");
    const first = await run();
    expect(answersOf(fo.id)).toEqual([]);
    const waiting = await foRow(fo.id);
    expect(waiting.answer).toBeNull();
    expect(waiting.answerDueAt).not.toBeNull();
    expect(first).toEqual({ nextRunAt: waiting.answerDueAt });
    // The merchant fixed the order, and the warehouse took it.
    await db.warehouseOrder.update({
      where: { id: row.id },
      data: { state: ORDER_STATE.accepted, idOrderFF: "FF-5103", holdReasons: null },
    });
    later();
    await run();
    expect(answersOf(fo.id).map((answer) => answer.mutation)).toEqual(["accept"]);
  });

  it("is rejected with the warehouse's words, in the shop's language, when the warehouse refused the order", async () => {
    await db.shop.create({
      data: {
        shop,
        name: "Демо",
        currencyCode: "UAH",
        ianaTimezone: "Europe/Kyiv",
        primaryLocale: "uk",
        scopes: "",
        installedAt: new Date(now),
      },
    });
    const { fo } = await serviceOrder(5104, "rejected", "Невідомий артикул CUP-KARP-BLUE");
    await run();
    const [answer] = answersOf(fo.id);
    expect(answer?.mutation).toBe("reject");
    expect(answer?.message).toBe(
      "Склад відмовився від цього замовлення: «Невідомий артикул CUP-KARP-BLUE». Виправте його в Shopify і знову надішліть запит на виконання.",
    );
    expect(fo.requestStatus).toBe("REJECTED");
  });

  it("stops after its retries and keeps the problem for the merchant", async () => {
    const { fo } = await serviceOrder(5105, "accepted");
    const failing = failingCallsTo("ServiceAcceptFulfillmentRequest");
    for (let attempt = 1; attempt <= MAX_ANSWER_ATTEMPTS; attempt++) {
      await run(failing);
      later();
    }
    const given = await foRow(fo.id);
    expect(given).toMatchObject({ answer: "accept", answerAttempts: MAX_ANSWER_ATTEMPTS, answerDueAt: null });
    expect(given.answerProblem).toMatch(/ECONNREFUSED/);
    // Nothing more is tried until the request changes.
    await run(failing);
    expect((await foRow(fo.id)).answerAttempts).toBe(MAX_ANSWER_ATTEMPTS);
    expect(answersOf(fo.id)).toEqual([]);
  });
});

// Cancellation requests go the order side's real way, with the worker and the warehouse: test/e2e/service-requests.test.ts.

it("is due no more once nothing is owed", async () => {
  expect(FULFILLMENT_REQUESTS_KIND).toBe("fulfillment_requests");
  expect(await run()).toEqual({ nextRunAt: null });
});

it("keeps the answer owed and given on a row when routing stores a newer read of it", async () => {
  const { fo } = await serviceOrder(5301, "accepted");
  await run();
  const answered = await foRow(fo.id);
  await db.shopifyFulfillmentOrder.update({
    where: { shop_id: { shop, id: fo.id } },
    data: {
      answer: "reject_cancellation",
      answerDueAt: new Date(now),
      answerAttempts: 2,
      answerProblem: "x",
    },
  });
  // A newer read with other facts (the request to cancel) replaces the facts, never the answer's columns.
  const node = {
    id: fo.id,
    orderId: fo.orderId,
    status: "IN_PROGRESS",
    requestStatus: "CANCELLATION_REQUESTED",
    updatedAt: new Date(answered.shopifyUpdatedAt.getTime() + 1000).toISOString(),
    assignedLocation: { location: { id: serviceLocation } },
    fulfillmentHolds: [],
    lineItems: { nodes: [] },
  };
  expect(
    await storeFulfillmentOrders({ db, log, clock: () => new Date(now) } as never, shop, [node]),
  ).toEqual([answered.shopifyOrderId]);
  const after = await foRow(fo.id);
  expect(after).toMatchObject({
    requestStatus: "CANCELLATION_REQUESTED",
    answered: "accept",
    answer: "reject_cancellation",
    answerDueAt: new Date(now),
    answerAttempts: 2,
    answerProblem: "x",
  });
  expect(after.version).toBeGreaterThan(answered.version);
});

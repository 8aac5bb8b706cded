// Where we hold a customer's personal data, table by table. customers/data_request lists it and
// customers/redact erases it through this registry; test/compliance fails when a table is in neither
// PERSONAL_DATA_SOURCES nor TABLES_WITHOUT_CUSTOMER_DATA, so a new table cannot be forgotten.
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { message } from "../i18n/message";
import { readTexts } from "../i18n/texts";
import { storedTexts } from "../orders/timeline";
import { inEnglish } from "../orders/words";

export interface CustomerRef {
  customerId: string;
  email: string | null;
  phone: string | null;
  orderIds: string[];
}

export interface PersonalDataSource {
  /** The Prisma model that holds the data. */
  table: string;
  /** What this table holds about the customer, ready to hand to the merchant. */
  describe(db: Db, shop: string, customer: CustomerRef): Promise<Record<string, unknown>[]>;
  /** Erases it; answers how many records were changed or deleted. `at`: the erasure's moment. */
  erase(db: Db, shop: string, customer: CustomerRef, at: Date): Promise<number>;
  /**
   * Erases what it holds of these orders of the shop, whoever their customer (the retention sweep,
   * app/compliance/retention.server.ts); absent where the table holds nothing per order.
   */
  eraseOrders?(
    db: Db | Prisma.TransactionClient,
    shop: string,
    orders: readonly ErasedOrder[],
    at: Date,
    words: string,
  ): Promise<number>;
}

/** An order whose customer's data goes: its row's id and its id_order (its returns may name only that). */
export interface ErasedOrder {
  id: string;
  idOrder: string;
}

export const PERSONAL_DATA_SOURCES: PersonalDataSource[] = [
  {
    // A data request's report is a copy of the customer's data, so it goes when the customer is redacted.
    // The request itself stays (id, topic, dates) as the record that we answered it.
    table: "ComplianceRequest",
    async describe(db, shop, customer) {
      const requests = await db.complianceRequest.findMany({
        where: { shop, customerId: customer.customerId, report: { not: null } },
        select: { id: true, topic: true, receivedAt: true, completedAt: true },
        orderBy: { receivedAt: "asc" },
      });
      return requests.map((request) => ({ kind: "earlier data request report", ...request }));
    },
    async erase(db, shop, customer) {
      const { count } = await db.complianceRequest.updateMany({
        where: { shop, customerId: customer.customerId, report: { not: null } },
        data: { report: null },
      });
      return count;
    },
  },
  {
    // The order as we mapped it carries the recipient's name, phone and address. Erasing keeps the row
    // (its ids and state, the record of what happened) and drops every copy of the customer's data; the
    // order takes no more work, since nothing is left to send.
    table: "WarehouseOrder",
    async describe(db, shop, customer) {
      const orders = await db.warehouseOrder.findMany({
        where: customerOrders(shop, customer),
        select: { orderName: true, state: true, sentOrder: true, createdAt: true },
        orderBy: { createdAt: "asc" },
      });
      return orders.map((order) => ({
        kind: "order sent to the warehouse",
        orderName: order.orderName,
        state: order.state,
        receivedAt: order.createdAt,
        warehouseOrder: order.sentOrder ? (JSON.parse(order.sentOrder) as unknown) : null,
      }));
    },
    async erase(db, shop, customer, at) {
      const { count } = await db.warehouseOrder.updateMany({
        where: customerOrders(shop, customer),
        data: erasedOrderColumns(at),
      });
      return count;
    },
    // The retention also drops the customer's id: nothing is left that a request could need it to find.
    async eraseOrders(db, shop, orders, at) {
      const { count } = await db.warehouseOrder.updateMany({
        where: { shop, id: { in: orders.map((order) => order.id) } },
        data: { ...erasedOrderColumns(at), customerId: null },
      });
      return count;
    },
  },
  {
    // The order as Shopify sent it: the customer, the addresses, the phone numbers.
    table: "OrderPayload",
    async describe(db, shop, customer) {
      const payloads = await db.orderPayload.findMany({
        where: { shop, order: customerOrders(shop, customer) },
        select: { payload: true, order: { select: { orderName: true } } },
        orderBy: { order: { createdAt: "asc" } },
      });
      return payloads.map((stored) => ({
        kind: "order as Shopify sent it",
        orderName: stored.order.orderName,
        shopifyOrder: JSON.parse(stored.payload) as unknown,
      }));
    },
    async erase(db, shop, customer) {
      const { count } = await db.orderPayload.updateMany({
        where: { shop, order: customerOrders(shop, customer) },
        data: { payload: "{}" },
      });
      return count;
    },
    async eraseOrders(db, shop, orders) {
      const { count } = await db.orderPayload.updateMany({
        where: { shop, orderId: { in: orders.map((order) => order.id) } },
        data: { payload: "{}" },
      });
      return count;
    },
  },
  {
    // Timeline events quote the requests sent (recipient, phone, address) and hold messages naming the phone.
    table: "OrderEvent",
    async describe(db, shop, customer) {
      const events = await db.orderEvent.findMany({
        where: { shop, order: customerOrders(shop, customer) },
        select: { at: true, kind: true, message: true, order: { select: { orderName: true } } },
        orderBy: { at: "asc" },
      });
      return events.map((event) => ({
        kind: "order timeline event",
        orderName: event.order.orderName,
        at: event.at,
        event: event.kind,
        // What the timeline said, in English words (the row keeps keys and values).
        message: readTexts(event.message).map(inEnglish).join(" "),
      }));
    },
    async erase(db, shop, customer) {
      const { count } = await db.orderEvent.updateMany({
        where: { shop, order: customerOrders(shop, customer) },
        data: { message: storedTexts(message("common:text.erased")), data: null },
      });
      return count;
    },
    // The events' kinds and times stay: the timeline still says what happened when, without the words.
    async eraseOrders(db, shop, orders, _at, words) {
      const { count } = await db.orderEvent.updateMany({
        where: { shop, orderId: { in: orders.map((order) => order.id) } },
        data: { message: words, data: null },
      });
      return count;
    },
  },
  {
    // A return of the customer's order, as the warehouse's register wrote it: its records are not documented
    // and may name the buyer, so the record as sent goes; what came back (SKUs, counts, waybill) stays, as
    // the order's own row keeps its waybill.
    table: "WarehouseReturn",
    async describe(db, shop, customer) {
      const returns = await db.warehouseReturn.findMany({
        where: await customerReturns(db, shop, customer),
        select: { idOrder: true, returnedAt: true, ttn: true, lines: true, raw: true },
        orderBy: { firstSeenAt: "asc" },
      });
      return returns.map((booked) => ({
        kind: "return booked by the warehouse",
        idOrder: booked.idOrder,
        returnedAt: booked.returnedAt,
        ttn: booked.ttn,
        lines: JSON.parse(booked.lines) as unknown,
        warehouseRecord: booked.raw,
      }));
    },
    async erase(db, shop, customer) {
      const { count } = await db.warehouseReturn.updateMany({
        where: await customerReturns(db, shop, customer),
        data: { raw: ERASED_MESSAGE },
      });
      return count;
    },
    async eraseOrders(db, shop, orders, _at, words) {
      const { count } = await db.warehouseReturn.updateMany({
        where: returnsOf(shop, orders),
        data: { raw: words },
      });
      return count;
    },
  },
];

const ERASED_MESSAGE = "(erased at the customer's request)";

/**
 * What an order's row keeps once its customer's data is gone: its ids, state, stage, waybill and dates (the
 * record of what happened), none of the bodies; it takes no more work, since nothing is left to send.
 */
function erasedOrderColumns(at: Date) {
  return {
    mapped: null,
    sentOrder: null,
    holdReasons: null,
    overrides: "{}",
    lastError: null,
    attentionMessage: null,
    pending: null,
    nextAttemptAt: null,
    dataErasedAt: at,
    // A worker's write decided before the erasure must not land after it (and bring data back).
    version: { increment: 1 },
  };
}

/**
 * Erases, in every table that holds it, the customer's data of these orders of the shop; `words` replace
 * the texts that could quote the customer (the timeline's, a return's record). Answers the records changed
 * per table.
 */
export async function eraseOrdersPersonalData(
  db: Db | Prisma.TransactionClient,
  shop: string,
  orders: readonly ErasedOrder[],
  at: Date,
  words: string,
): Promise<Record<string, number>> {
  const erased: Record<string, number> = {};
  if (!orders.length) return erased;
  for (const source of PERSONAL_DATA_SOURCES) {
    if (source.eraseOrders) erased[source.table] = await source.eraseOrders(db, shop, orders, at, words);
  }
  return erased;
}

/** The customer's orders: by customer id, and the orders Shopify names in the request. */
function customerOrders(shop: string, customer: CustomerRef) {
  return {
    shop,
    OR: [{ customerId: customer.customerId }, { shopifyOrderId: { in: customer.orderIds } }],
  };
}

/**
 * The returns of the customer's orders: linked to them, or naming their id_order (a return kept before its
 * order was linked, or after the order's row had gone).
 */
async function customerReturns(db: Db, shop: string, customer: CustomerRef) {
  const orders = await db.warehouseOrder.findMany({
    where: customerOrders(shop, customer),
    select: { id: true, idOrder: true },
  });
  return returnsOf(shop, orders);
}

/** The returns of these orders: linked to them, or naming their id_order. */
function returnsOf(shop: string, orders: readonly ErasedOrder[]) {
  return {
    shop,
    OR: [
      { orderId: { in: orders.map((order) => order.id) } },
      { idOrder: { in: orders.map((order) => order.idOrder) } },
    ],
  };
}

/** Tables that hold no customer's personal data, each with the reason. */
export const TABLES_WITHOUT_CUSTOMER_DATA: Record<string, string> = {
  Session: "the merchant's staff sessions, not customers; deleted on uninstall and shop/redact",
  Shop: "the store's own facts (name, currency, time zone, locale)",
  ShopSettings: "the store's warehouse connection and mapping rules",
  WebhookEvent: "webhook delivery ids, topics and times only",
  WebhookRefusal: "counts and times of refused webhooks per topic, never their bodies",
  WorkLease: "which worker process serves a shop, and until when",
  RateLimitState: "send times of warehouse requests per ApiKey digest",
  ShopSchedule: "when each kind of background work is next due for the shop, and where it stopped",
  CatalogueItem: "the store's variants as product cards (SKU, name, barcode) and their stock figures",
  StockSync: "counts, times and SKU-level differences of each stock sync, no orders",
  CatalogueSync: "progress counts of each full catalogue sync",
  ShopifyFulfillmentOrder:
    "Shopify's fulfillment orders of the shop's orders as read: ids, locations, statuses, holds, line ids, SKUs and quantities",
  RoutingHint: "ids of Shopify fulfillment orders a webhook named, until they are read",
  InboundDelivery:
    "the merchant's own deliveries of goods to the warehouse (SKUs, counts, the carrier's waybill)",
  // The carrier's public reference data, one set for the deployment (decision 020; no shop's, so shop/redact
  // leaves it). claimedBy names the shop whose refresh works on it (a shop's domain, no customer's), for
  // CLAIM_MS at most once that shop is gone.
  ReferenceSet:
    "when the deployment's carrier reference data was refreshed, its counts, its last problem, and which shop's refresh holds it",
  CarrierCity: "the carrier's public list of cities, one set for the deployment",
  CarrierBranch: "the carrier's public list of branches and parcel lockers, one set for the deployment",
  CarrierStreetLookup:
    "the carrier's public street names per city, as asked by text, one set for the deployment",
};

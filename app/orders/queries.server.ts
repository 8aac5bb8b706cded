// The read side of the orders pages: the list with its counts per state and stage, and one order with its
// timeline and where it is after the warehouse has it. Every query is scoped to the shop; stored JSON
// columns come back parsed, and a malformed one reads as empty rather than breaking the page.
// The stored JSON columns are read in stored-columns.ts, and an order's shipment and fulfillment in
// shipment.server.ts; what the pages import from them is exported here too.
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { caseVariants, listSearchSchema } from "../http/list-search";
import type { Message } from "../i18n/message";
import type { Db } from "../db.server";
import { BATCH_PROOF, ORDER_STATES, STAGES, type OrderState, type Stage } from "./states";
import { parseWarehouseLines, WAIT_REASONS, type WaitReason } from "../routing/decide";
import {
  fulfillmentOf,
  isStage,
  shipmentColumns,
  shipmentOf,
  trackingContext,
  type FulfillmentView,
  type ShipmentView,
} from "./shipment.server";
import { parseHoldReasons, parseJson, parseObject, type HoldReasonView } from "./stored-columns";
import { attentionTexts, eventTexts } from "./timeline";

export { parseFulfillmentProblem, parseReportedStatus, parseUnshipped } from "./stored-columns";
export type { FulfillmentProblem, HoldReasonView, ReportedStatus, UnshippedItem } from "./stored-columns";
export type { FulfillmentView, ShipmentView } from "./shipment.server";

/** A list filter: one state, or the orders with a problem only the merchant can solve. */
export const ORDER_FILTERS = [...ORDER_STATES, "attention"] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

export const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

/** The list's query, as it comes from the page's URL: anything unusable falls back to its default. */
export const orderListQuerySchema = z.object({
  state: z.enum(ORDER_FILTERS).optional().catch(undefined),
  /** Where accepted orders are at the warehouse; combines with the state (e.g. returned and needing attention). */
  stage: z.enum(STAGES).optional().catch(undefined),
  search: listSearchSchema,
  page: z.coerce.number().int().min(1).default(1).catch(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .catch(DEFAULT_PAGE_SIZE),
});
/** What a caller may ask for; anything unusable (an unknown state, page "x") falls back to its default. */
export interface OrderListQuery {
  state?: string;
  stage?: string;
  search?: string;
  page?: number | string;
  pageSize?: number | string;
}

export interface OrderListRow {
  id: string;
  orderName: string;
  idOrder: string;
  state: OrderState;
  holdReasons: Pick<HoldReasonView, "code" | "message" | "text">[];
  attention: string | null;
  /** What the order needing the merchant says (empty when it needs nothing). */
  attentionTexts: Message[];
  pending: string | null;
  lastError: string | null;
  idOrderFF: string | null;
  orderCreatedAt: Date;
  createdAt: Date;
  updatedAt: Date;
  shipment: ShipmentView;
  fulfillment: FulfillmentView;
}

export interface OrderListPage {
  rows: OrderListRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

function searchWhere(search: string): Prisma.WarehouseOrderWhereInput {
  return {
    OR: caseVariants(search).flatMap((text) => [
      { orderName: { contains: text } },
      { idOrder: { contains: text } },
      { idOrderFF: { contains: text } },
      { ttn: { contains: text } },
    ]),
  };
}

function filterWhere(shop: string, state: OrderFilter | undefined): Prisma.WarehouseOrderWhereInput {
  if (state === "attention") return { shop, ...NEEDS_ATTENTION };
  return state ? { shop, state } : { shop };
}

export async function listOrders(db: Db, shop: string, query: OrderListQuery = {}): Promise<OrderListPage> {
  const { state, stage, search, page, pageSize } = orderListQuerySchema.parse(query);
  const where: Prisma.WarehouseOrderWhereInput = {
    AND: [filterWhere(shop, state), ...(stage ? [{ stage }] : []), ...(search ? [searchWhere(search)] : [])],
  };
  const tracking = trackingContext(db, shop);
  const total = await db.warehouseOrder.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(page, pageCount);
  const rows = await db.warehouseOrder.findMany({
    where,
    orderBy: [{ orderCreatedAt: "desc" }, { id: "desc" }],
    skip: (current - 1) * pageSize,
    take: pageSize,
    select: {
      id: true,
      orderName: true,
      idOrder: true,
      state: true,
      holdReasons: true,
      attention: true,
      attentionMessage: true,
      pending: true,
      lastError: true,
      idOrderFF: true,
      orderCreatedAt: true,
      createdAt: true,
      updatedAt: true,
      ...shipmentColumns,
    },
  });
  const links = await tracking;
  return {
    rows: rows.map((row) => ({
      id: row.id,
      orderName: row.orderName,
      idOrder: row.idOrder,
      state: row.state as OrderState,
      holdReasons: parseHoldReasons(row.holdReasons).map(({ code, message, text }) => ({
        code,
        message,
        text,
      })),
      attention: row.attention,
      attentionTexts: attentionTexts(row.attentionMessage),
      pending: row.pending,
      lastError: row.lastError,
      idOrderFF: row.idOrderFF,
      orderCreatedAt: row.orderCreatedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      shipment: shipmentOf(row, links),
      fulfillment: fulfillmentOf(row, links),
    })),
    total,
    page: current,
    pageSize,
    pageCount,
    hasPrevious: current > 1,
    hasNext: current < pageCount,
  };
}

/** An order needs the merchant for the warehouse's side or for Shopify's (a fulfillment problem). */
const NEEDS_ATTENTION = {
  OR: [{ attention: { not: null } }, { fulfillmentProblem: { not: null } }],
} satisfies Prisma.WarehouseOrderWhereInput;

export type OrderCounts = Record<OrderState, number> & { all: number; attention: number };

export async function countOrdersByState(db: Db, shop: string): Promise<OrderCounts> {
  const [groups, attention] = await Promise.all([
    db.warehouseOrder.groupBy({ by: ["state"], where: { shop }, _count: { _all: true } }),
    db.warehouseOrder.count({ where: { shop, ...NEEDS_ATTENTION } }),
  ]);
  const counts = Object.fromEntries(ORDER_STATES.map((state) => [state, 0])) as Record<OrderState, number>;
  let all = 0;
  for (const group of groups) {
    all += group._count._all;
    if (group.state in counts) counts[group.state as OrderState] = group._count._all;
  }
  return { ...counts, all, attention };
}

/** The shop's orders at each stage, for the stage filter. */
export async function countOrdersByStage(db: Db, shop: string): Promise<Record<Stage, number>> {
  const groups = await db.warehouseOrder.groupBy({
    by: ["stage"],
    where: { shop, stage: { not: null } },
    _count: { _all: true },
  });
  const counts = Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
  for (const group of groups) if (isStage(group.stage)) counts[group.stage] = group._count._all;
  return counts;
}

export interface OrderEventView {
  id: string;
  at: Date;
  kind: string;
  /** What the event says, in keys and values (an older row's English words as they are). */
  texts: Message[];
  /** The request sent and the answer read (the key already masked), or the facts behind the event. */
  data: unknown;
}

export interface OrderDetail {
  id: string;
  orderName: string;
  shopifyOrderId: string;
  idOrder: string;
  idOrderFF: string | null;
  keyOrder: string | null;
  state: OrderState;
  /** While waiting: what for in Shopify (routing | on_hold | scheduled | request). */
  waitReason: WaitReason | null;
  /** How many of the order's lines are the warehouse's (routing); null: the whole order. */
  warehouseLineCount: number | null;
  pending: string | null;
  attention: string | null;
  /** What the order needing the merchant says (empty when it needs nothing). */
  attentionTexts: Message[];
  lastError: string | null;
  attempts: number;
  nextAttemptAt: Date | null;
  submittedAt: Date | null;
  acceptedAt: Date | null;
  cancelledAt: Date | null;
  /** When the customer's details were removed (the retention, or the customer's request); null: kept. */
  dataErasedAt: Date | null;
  orderCreatedAt: Date;
  createdAt: Date;
  updatedAt: Date;
  /** The warehouse order the mapping produced last; null while held. */
  mapped: Record<string, unknown> | null;
  /** The exact body last sent to the warehouse (AddOrder, or the last EditOrder it accepted). */
  sentOrder: Record<string, unknown> | null;
  holdReasons: HoldReasonView[];
  /** The merchant's corrections so far. */
  overrides: Record<string, unknown>;
  shipment: ShipmentView;
  fulfillment: FulfillmentView;
  /** Newest first, one page of TIMELINE_PAGE_SIZE. */
  events: OrderEventView[];
  /** The cursor of the next, older page of the timeline; null when this page reaches its start. */
  olderEvents: string | null;
}

/** The number of line items the warehouse's lines name; null for the whole order. */
function lineCountOf(stored: string | null): number | null {
  const lines = parseWarehouseLines(stored);
  return lines ? new Set(lines.map((line) => line.lineItemId)).size : null;
}

/** Events shown on an order's page at a time: an order retried for days has thousands. */
export const TIMELINE_PAGE_SIZE = 50;

/**
 * One order of the shop with a page of its timeline, newest first, from the event after `eventsBefore`
 * (the newest page when it names no event of this order); null when there is no such order in this shop.
 */
export async function orderDetail(
  db: Db,
  shop: string,
  id: string,
  options: { eventsBefore?: string } = {},
): Promise<OrderDetail | null> {
  const [row, tracking] = await Promise.all([
    db.warehouseOrder.findFirst({ where: { id, shop } }),
    trackingContext(db, shop),
  ]);
  if (!row) return null;
  const cursor =
    options.eventsBefore === undefined
      ? null
      : await db.orderEvent.findFirst({
          where: { id: options.eventsBefore, orderId: row.id },
          select: { id: true },
        });
  // One more than a page, to know whether an older page exists.
  const page = await db.orderEvent.findMany({
    where: { orderId: row.id },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: TIMELINE_PAGE_SIZE + 1,
    ...(cursor && { cursor: { id: cursor.id }, skip: 1 }),
  });
  const events = page.slice(0, TIMELINE_PAGE_SIZE);
  const olderEvents = page.length > TIMELINE_PAGE_SIZE ? events.at(-1)!.id : null;
  return {
    id: row.id,
    orderName: row.orderName,
    shopifyOrderId: row.shopifyOrderId,
    idOrder: row.idOrder,
    idOrderFF: row.idOrderFF,
    keyOrder: row.keyOrder,
    waitReason: (WAIT_REASONS as readonly string[]).includes(row.waitReason ?? "")
      ? (row.waitReason as WaitReason)
      : null,
    warehouseLineCount: lineCountOf(row.warehouseLines),
    pending: row.pending,
    attention: row.attention,
    attentionTexts: attentionTexts(row.attentionMessage),
    lastError: row.lastError,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    submittedAt: row.submittedAt,
    acceptedAt: row.acceptedAt,
    cancelledAt: row.cancelledAt,
    dataErasedAt: row.dataErasedAt,
    orderCreatedAt: row.orderCreatedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    state: row.state as OrderState,
    shipment: shipmentOf(row, tracking),
    fulfillment: fulfillmentOf(row, tracking),
    mapped: parseObject(row.mapped),
    sentOrder: parseObject(row.sentOrder),
    holdReasons: parseHoldReasons(row.holdReasons),
    overrides: parseObject(row.overrides) ?? {},
    events: events.map((event) => ({
      id: event.id,
      at: event.at,
      kind: event.kind,
      texts: eventTexts(event.kind, event.message, parseJson(event.data)),
      data: parseJson(event.data),
    })),
    olderEvents,
  };
}

/** The shop's IANA time zone as read at install; Kyiv time until the shop's facts are known. */
export async function shopTimeZone(db: Db, shop: string): Promise<string> {
  const row = await db.shop.findUnique({ where: { shop }, select: { ianaTimezone: true } });
  return row?.ianaTimezone || "Europe/Kyiv";
}

/**
 * Whether the warehouse did not answer the shop's first batched AddOrder in the expected form, so its
 * orders go one at a time although the merchant allows batches (a banner says so).
 */
export async function batchesTurnedOff(db: Db, shop: string): Promise<boolean> {
  const settings = await db.shopSettings.findUnique({
    where: { shop },
    select: { batchAddOrder: true, batchProof: true },
  });
  return Boolean(settings?.batchAddOrder && settings.batchProof === BATCH_PROOF.failed);
}

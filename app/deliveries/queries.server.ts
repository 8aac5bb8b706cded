// What the deliveries pages read: the list (filtered, searched, a page at a time), one request, the CSV
// export, and the catalogue's SKUs for the form's picker. Every query is the shop's own.
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { csvDocument, type CsvValue } from "../http/csv";
import { INBOUND_DELIVERY_STATUS } from "../warehouse/wire";
import { z } from "zod";
import { caseVariants, listSearchSchema } from "../http/list-search";
import {
  DELIVERY_STATE,
  DELIVERY_STATUSES,
  deliveryStatus,
  readLines,
  totals,
  type DeliveryStatus,
} from "./lines";

export const DELIVERIES_PAGE_SIZE = 25;
/** The most SKUs the picker offers for what was typed. */
export const SKU_HITS = 20;
/** The most requests one CSV export holds (newest first). */
export const CSV_MAX_REQUESTS = 5_000;

/** The rows a list filter keeps. */
function statusWhere(status: DeliveryStatus): Prisma.InboundDeliveryWhereInput {
  const atWarehouse = { state: { in: [DELIVERY_STATE.sent, DELIVERY_STATE.found] } };
  switch (status) {
    case "sending":
      return { state: DELIVERY_STATE.sending };
    case "inDoubt":
      return { state: DELIVERY_STATE.inDoubt };
    case "failed":
      return { state: DELIVERY_STATE.failed };
    case "received":
      return { ...atWarehouse, status: INBOUND_DELIVERY_STATUS.received };
    case "partlyReceived":
      return { ...atWarehouse, status: INBOUND_DELIVERY_STATUS.arrivedNotFullyReceived };
    case "new":
      return {
        ...atWarehouse,
        OR: [{ status: null }, { status: INBOUND_DELIVERY_STATUS.new }],
      };
  }
}

export interface DeliveryListQuery {
  status?: DeliveryStatus;
  /** A waybill, a request number or a SKU (any part of one). */
  search?: string;
  page: number;
}

export interface DeliveryListRow {
  id: string;
  idRequest: string;
  deliveryDate: string;
  method: string;
  seats: number;
  ttn: string | null;
  lines: number;
  planned: number;
  received: number;
  status: DeliveryStatus;
  createdAt: string;
}

/** The list's filters as a query: the status and the search (the list's page, and its CSV). */
function deliveriesWhere(
  shop: string,
  query: Omit<DeliveryListQuery, "page">,
): Prisma.InboundDeliveryWhereInput {
  const search = query.search?.trim();
  return {
    shop,
    ...(query.status && statusWhere(query.status)),
    ...(search && {
      AND: [
        {
          OR: [
            { warehouseId: search },
            ...caseVariants(search).flatMap((text) => [
              { ttn: { contains: text } },
              { idRequest: { contains: text } },
              // The lines' JSON holds each SKU as "sku":"…": a part of one is found there.
              { lines: { contains: text } },
            ]),
          ],
        },
      ],
    }),
  };
}

/** The list's query from a URL (`?status=&search=&page=`); a value that is no filter is read as none. */
export function deliveryListQueryOf(url: URL): DeliveryListQuery {
  return deliveryListQuerySchema.parse(Object.fromEntries(url.searchParams));
}

const deliveryListQuerySchema = z.object({
  status: z.enum(DELIVERY_STATUSES).optional().catch(undefined),
  search: listSearchSchema,
  page: z.coerce.number().int().min(1).max(10_000).default(1).catch(1),
});

export async function listDeliveries(
  db: Db,
  shop: string,
  query: DeliveryListQuery,
): Promise<{ rows: DeliveryListRow[]; hasNext: boolean }> {
  const where = deliveriesWhere(shop, query);
  const found = await db.inboundDelivery.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (query.page - 1) * DELIVERIES_PAGE_SIZE,
    take: DELIVERIES_PAGE_SIZE + 1,
  });
  const rows = found.slice(0, DELIVERIES_PAGE_SIZE).map((row) => {
    const sums = totals(readLines(row.lines));
    return {
      id: row.id,
      idRequest: row.idRequest,
      deliveryDate: row.deliveryDate,
      method: row.method,
      seats: row.seats,
      ttn: row.ttn,
      lines: sums.lines,
      planned: sums.planned,
      received: sums.received,
      status: deliveryStatus(row),
      createdAt: row.createdAt.toISOString(),
    };
  });
  return { rows, hasNext: found.length > DELIVERIES_PAGE_SIZE };
}

/** One request per line: request, date, method, status, SKU, planned, received. */
export async function deliveriesCsv(
  db: Db,
  shop: string,
  query: Omit<DeliveryListQuery, "page"> = {},
): Promise<string> {
  const requests = await db.inboundDelivery.findMany({
    where: deliveriesWhere(shop, query),
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: CSV_MAX_REQUESTS,
  });
  const rows: CsvValue[][] = [
    ["request", "warehouse_id", "date", "method", "status", "sku", "planned", "received"],
  ];
  for (const request of requests) {
    const head = [
      request.idRequest,
      request.warehouseId,
      request.deliveryDate,
      request.method,
      deliveryStatus(request),
    ];
    const lines = readLines(request.lines);
    if (lines.length === 0) rows.push([...head, "", "", ""]);
    for (const line of lines) rows.push([...head, line.sku, line.count, line.received]);
  }
  return csvDocument(rows);
}

/**
 * Whether the warehouse has the card of the item's SKU: it accepted our AddProduct for this very SKU (a SKU
 * changed in Shopify since is not the one it has), or its stock report lists the SKU.
 */
export function cardAtWarehouse(item: {
  sku: string | null;
  sentSku: string | null;
  sentAt: Date | null;
  warehouseQuantity: number | null;
}): boolean {
  return (item.sentAt !== null && (item.sentSku ?? item.sku) === item.sku) || item.warehouseQuantity !== null;
}

export interface SkuHit {
  sku: string;
  name: string;
  /** The warehouse has the SKU's card: only then can it be announced. */
  atWarehouse: boolean;
}

/** The shop's SKUs holding what was typed, those whose card the warehouse has first. */
export async function searchSkus(db: Db, shop: string, text: string): Promise<SkuHit[]> {
  const items = await db.catalogueItem.findMany({
    where: {
      shop,
      deletedAt: null,
      sku: { not: null },
      OR: [{ sku: { contains: text } }, { name: { contains: text } }],
    },
    select: { sku: true, name: true, sentSku: true, sentAt: true, warehouseQuantity: true },
    orderBy: { sku: "asc" },
    take: SKU_HITS * 3,
  });
  const bySku = new Map<string, SkuHit>();
  for (const item of items) {
    const known = bySku.get(item.sku!);
    const atWarehouse = cardAtWarehouse(item);
    if (!known || (!known.atWarehouse && atWarehouse))
      bySku.set(item.sku!, { sku: item.sku!, name: item.name, atWarehouse });
  }
  return [...bySku.values()]
    .sort((a, b) => Number(b.atWarehouse) - Number(a.atWarehouse) || a.sku.localeCompare(b.sku))
    .slice(0, SKU_HITS);
}

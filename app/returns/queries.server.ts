// What the Returns page and its CSV export read: the shop's returns, newest first, filtered by what came
// back (defective or not), whether the return names one of our orders, and whether it could be read; a
// search over order names and numbers, waybills and SKUs; the sweep's schedule; the restock setting.
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { caseVariants, listSearchSchema } from "../http/list-search";
import type { Db } from "../db.server";
import { readTexts } from "../i18n/texts";
import { parseStockSettings } from "../stock/settings";
import { RETURNS_KIND } from "./kinds.server";
import { readCursor } from "./cursor";
import { linesOf, type ReturnLine } from "./read";

export const RETURNS_PAGE_SIZE = 25;
/** The CSV holds at most this many returns (each a row per line): a year of a busy shop's returns. */
export const RETURNS_CSV_MAX = 10_000;

const yesNo = z.enum(["yes", "no"]).optional().catch(undefined);

/** The page's query; anything unusable (an unknown filter, page "x") falls back to its default. */
export const returnsQuerySchema = z.object({
  defective: yesNo,
  linked: yesNo,
  readable: yesNo,
  search: listSearchSchema,
  page: z.coerce.number().int().min(1).max(100_000).default(1).catch(1),
});
export type ReturnsQuery = z.infer<typeof returnsQuerySchema>;

/** The query's parameters as the URL has them (one value each; a repeated one counts once). */
export function returnsQueryOf(url: URL): ReturnsQuery {
  return returnsQuerySchema.parse(Object.fromEntries(url.searchParams));
}

async function whereOf(db: Db, shop: string, query: ReturnsQuery): Promise<Prisma.WarehouseReturnWhereInput> {
  const and: Prisma.WarehouseReturnWhereInput[] = [{ shop }];
  if (query.defective) and.push({ defective: query.defective === "yes" });
  if (query.linked) and.push({ orderId: query.linked === "yes" ? { not: null } : null });
  if (query.readable) and.push({ problem: query.readable === "yes" ? null : { not: null } });
  if (query.search) {
    const variants = caseVariants(query.search);
    const orders = await db.warehouseOrder.findMany({
      where: { shop, OR: variants.map((text) => ({ orderName: { contains: text } })) },
      select: { id: true },
      take: 500,
    });
    and.push({
      OR: [
        ...variants.flatMap((text) => [
          { idOrder: { contains: text } },
          { ttn: { contains: text } },
          // The lines are kept as JSON: a SKU is found as JSON writes it.
          { lines: { contains: JSON.stringify(text).slice(1, -1) } },
        ]),
        ...(orders.length ? [{ orderId: { in: orders.map((order) => order.id) } }] : []),
      ],
    });
  }
  return { AND: and };
}

export { linesOf };

type ReturnRow = Awaited<ReturnType<typeof returnRows>>[number];

function returnRows(db: Db, where: Prisma.WarehouseReturnWhereInput, skip: number, take: number) {
  return db.warehouseReturn.findMany({
    where,
    orderBy: [{ returnedAt: { sort: "desc", nulls: "first" } }, { firstSeenAt: "desc" }, { id: "desc" }],
    skip,
    take,
  });
}

/** The orders the rows name, by id (the shop's own only). */
async function ordersOf(db: Db, shop: string, rows: ReturnRow[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.orderId ? [row.orderId] : [])))];
  const orders = ids.length
    ? await db.warehouseOrder.findMany({
        where: { shop, id: { in: ids } },
        select: { id: true, orderName: true, shopifyOrderId: true },
      })
    : [];
  return new Map(orders.map((order) => [order.id, order]));
}

/** A return as the page shows it. */
function viewOf(row: ReturnRow, order: { orderName: string; shopifyOrderId: string } | undefined) {
  return {
    id: row.id,
    idOrder: row.idOrder,
    orderId: order ? row.orderId : null,
    orderName: order?.orderName ?? null,
    shopifyOrderId: order?.shopifyOrderId ?? null,
    returnedAt: row.returnedAt,
    firstSeenAt: row.firstSeenAt,
    ttn: row.ttn,
    lines: linesOf(row.lines),
    units: row.units,
    defective: row.defective,
    problems: readTexts(row.problem),
    raw: row.problem ? row.raw : null,
    restockRequestedAt: row.restockRequestedAt,
  };
}
export type ReturnView = ReturnType<typeof viewOf>;

export async function listReturns(db: Db, shop: string, query: ReturnsQuery) {
  const where = await whereOf(db, shop, query);
  const total = await db.warehouseReturn.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / RETURNS_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const rows = await returnRows(db, where, (page - 1) * RETURNS_PAGE_SIZE, RETURNS_PAGE_SIZE);
  const orders = await ordersOf(db, shop, rows);
  return {
    rows: rows.map((row) => viewOf(row, row.orderId ? orders.get(row.orderId) : undefined)),
    total,
    page,
    pageCount,
    hasPrevious: page > 1,
    hasNext: page < pageCount,
  };
}

/** The register's state: whether anything is kept, the sweep's schedule, and what restocking does. */
export async function returnsOverview(db: Db, shop: string) {
  const [any, schedule, settings] = await Promise.all([
    db.warehouseReturn.findFirst({ where: { shop }, select: { id: true } }),
    db.shopSchedule.findUnique({ where: { shop_kind: { shop, kind: RETURNS_KIND } } }),
    db.shopSettings.findUnique({ where: { shop }, select: { stockSettings: true, locationId: true } }),
  ]);
  return {
    empty: !any,
    lastSweptAt: schedule?.lastRunAt ?? null,
    nextSweepAt: schedule?.nextRunAt ?? null,
    // In the merchant's words (a Message; an older row's English reads as it is).
    sweepProblem: readTexts(schedule?.lastError)[0] ?? null,
    // The pages the warehouse refused and the sweep moved past: tried again until read, or given up.
    skippedPages: readCursor(schedule?.cursor ?? null).skipped.map((entry) => ({
      from: entry.from,
      to: entry.to,
      page: entry.page,
      since: entry.since,
      tries: entry.tries,
      nextTryAt: entry.nextTryAt,
      givenUp: entry.nextTryAt === null,
      error: readTexts(entry.error),
    })),
    restockReturns: parseStockSettings(settings?.stockSettings).settings.restockReturns,
    hasLocation: Boolean(settings?.locationId),
  };
}

/** One order's returns, for its page (a few at most; bounded all the same). */
export async function returnsOfOrder(db: Db, shop: string, orderId: string) {
  const rows = await db.warehouseReturn.findMany({
    where: { shop, orderId },
    orderBy: [{ firstSeenAt: "desc" }, { id: "desc" }],
    take: 20,
  });
  return rows.map((row) => ({
    id: row.id,
    returnedAt: row.returnedAt,
    ttn: row.ttn,
    lines: linesOf(row.lines),
    units: row.units,
    defective: row.defective,
    unreadable: row.problem !== null,
  }));
}

/** The CSV's rows: one per line of each return (one for a return without lines), newest first. */
export async function returnsCsvRows(db: Db, shop: string, query: ReturnsQuery) {
  const where = await whereOf(db, shop, query);
  const rows = await returnRows(db, where, 0, RETURNS_CSV_MAX);
  const orders = await ordersOf(db, shop, rows);
  return rows.flatMap((row) => {
    const view = viewOf(row, row.orderId ? orders.get(row.orderId) : undefined);
    const lines: (ReturnLine | null)[] = view.lines.length ? view.lines : [null];
    return lines.map((line) => ({
      returnedAt: view.returnedAt,
      orderName: view.orderName,
      idOrder: view.idOrder,
      ttn: view.ttn,
      sku: line?.sku ?? null,
      count: line?.count ?? null,
      defective: line ? line.defective : null,
      unreadable: view.problems.length > 0,
    }));
  });
}

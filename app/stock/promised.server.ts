// The units Shopify already counts as committed for this shop's orders that the warehouse has not taken: they are
// in neither of the warehouse's figures, so with `available` the stock sync keeps them off sale (plan.ts) for as
// long as the order waits, held for the merchant or in any other state short of the warehouse's acceptance.
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import { storedShopifyOrder } from "../orders/intake.server";
import { unitsBySku } from "../orders/mapping";
import { ORDER_STATE, STAGE } from "../orders/states";
import { parseWarehouseLines } from "../routing/decide";

/**
 * States in which the warehouse has not taken the order, or may not have: held for the merchant, ready (due,
 * waiting for its cards, for a paused shop or for the rate limit), being sent, in doubt (its answer lost: it may
 * be at the warehouse, and then its units count twice until it is found, which undersells, never oversells) and
 * refused (until the merchant sends it again or cancels it in Shopify). Cancelled orders' units Shopify releases.
 */
export const NOT_TAKEN_STATES: readonly string[] = [
  // Waiting for Shopify (routing, a hold, a date, a request): its units at the warehouse's location are
  // committed there, and before routing the whole order counts (the safe side). Not the warehouse's
  // (elsewhere): committed at other locations, so nothing here.
  ORDER_STATE.waiting,
  ORDER_STATE.held,
  ORDER_STATE.ready,
  ORDER_STATE.submitting,
  ORDER_STATE.inDoubt,
  ORDER_STATE.rejected,
];

/** Orders read at once: a page of payloads is parsed and dropped before the next is read. */
const PAGE = 200;

/**
 * Per SKU, the units of the shop's orders the warehouse had not taken when its report was asked for at
 * `reportAskedAt`: those in a state short of acceptance, and those accepted since (the report, asked before,
 * does not reserve them yet). An order accepted just before is in the report and not counted here: nothing twice.
 * An order the warehouse cancelled counts too until the merchant cancels it in Shopify (or fulfils it elsewhere):
 * the warehouse has freed its units, Shopify still commits them.
 */
export async function unitsNotTaken(
  db: Db,
  log: Log,
  shop: string,
  reportAskedAt: Date,
): Promise<Map<string, number>> {
  const units = new Map<string, number>();
  // Each read on an index: (shop, state, …), (shop, acceptedAt), and (shop, state, …) again.
  const wheres: Prisma.WarehouseOrderWhereInput[] = [
    { shop, state: { in: [...NOT_TAKEN_STATES] }, cancelledAt: null },
    { shop, acceptedAt: { gte: reportAskedAt }, state: ORDER_STATE.accepted, cancelledAt: null },
    {
      shop,
      state: ORDER_STATE.accepted,
      stage: STAGE.cancelledAtWarehouse,
      cancelledAt: null,
      // Counted once: one accepted since the report is already in the read before.
      OR: [{ acceptedAt: null }, { acceptedAt: { lt: reportAskedAt } }],
    },
  ];
  for (const where of wheres) {
    let after: string | undefined;
    for (;;) {
      const rows = await db.warehouseOrder.findMany({
        where: { ...where, ...(after && { id: { gt: after } }) },
        orderBy: { id: "asc" },
        take: PAGE,
        select: { id: true, warehouseLines: true, shopifyOrder: { select: { payload: true } } },
      });
      for (const row of rows) {
        let order;
        try {
          order = storedShopifyOrder(row.id, row.shopifyOrder);
        } catch (error) {
          // An order without a readable payload cannot say what it holds; the sync goes on without it.
          log.warn(
            { event: "stock.order_units_unreadable", orderId: row.id, err: error },
            "order units unread",
          );
          continue;
        }
        // Only the warehouse's lines, when routing gave them (null: the whole order, as before routing).
        const lines = parseWarehouseLines(row.warehouseLines);
        for (const [sku, count] of unitsBySku(order, lines)) units.set(sku, (units.get(sku) ?? 0) + count);
      }
      if (rows.length < PAGE) break;
      after = rows.at(-1)!.id;
    }
  }
  return units;
}

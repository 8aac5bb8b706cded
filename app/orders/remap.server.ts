// Maps a shop's open orders again after its mapping settings changed. Saving settings only asks for a run
// (a ShopSchedule row of kind REMAP_KIND); the engine runs it under the shop's lease, in chunks, so neither
// the settings request nor one long transaction carries a shop's whole backlog. A save during a run asks
// again, and the schedule keeps that request (see scheduledKind).
import type { ServiceDeps } from "../context.server";
import { checkedMapping } from "../settings/settings.server";
import { scheduledKind } from "../work/schedule.server";
import { applyChange, storedShopifyOrder } from "./intake.server";
import { ORDER_STATE, REMAP_KIND } from "./states";

/** Orders read and re-mapped at a time. */
export const REMAP_CHUNK = 200;

export interface RemapOutcome {
  /** Orders whose mapping or state changed. */
  changed: number;
  /** False when the run was told to stop between chunks: it must run again. */
  complete: boolean;
}

/**
 * Re-maps the shop's orders not yet sent (held and ready) with its saved mapping. An order's `id_order`
 * stays as intake fixed it; each order is written conditionally on its version (applyChange), so one the
 * worker claimed or a webhook changed meanwhile is decided again from what it is now. `keepGoing` is asked
 * between chunks, so an uninstall or a lost lease stops the run early.
 */
export async function remapOpenOrders(
  deps: ServiceDeps,
  shop: string,
  options: { chunkSize?: number; keepGoing?: () => boolean | Promise<boolean> } = {},
): Promise<RemapOutcome> {
  const { db, log } = deps;
  const chunkSize = options.chunkSize ?? REMAP_CHUNK;
  const saved = await db.shopSettings.findUnique({ where: { shop }, select: { mapping: true } });
  const settings = checkedMapping(shop, saved?.mapping, log);

  let changed = 0;
  let after: string | undefined;
  for (;;) {
    if (options.keepGoing && !(await options.keepGoing())) return { changed, complete: false };
    const rows = await db.warehouseOrder.findMany({
      where: {
        shop,
        state: { in: [ORDER_STATE.held, ORDER_STATE.ready] },
        // An order whose customer's details were removed has nothing left to map.
        dataErasedAt: null,
        ...(after !== undefined && { id: { gt: after } }),
      },
      orderBy: { id: "asc" },
      take: chunkSize,
      include: { shopifyOrder: true },
    });
    for (const { shopifyOrder, ...row } of rows) {
      const order = storedShopifyOrder(row.id, shopifyOrder);
      if (await applyChange(deps, row, { order, settings, cancelled: false })) changed++;
    }
    if (rows.length < chunkSize) break;
    after = rows[rows.length - 1]!.id;
  }
  log.info({ shop, event: "orders.remapped", changed }, "open orders mapped again with the saved settings");
  return { changed, complete: true };
}

/** Re-mapping as a kind of the engine's work: runs when asked for, again at once if it was cut short. */
export const remapWork = scheduledKind(REMAP_KIND, async (work) => {
  const { complete } = await remapOpenOrders(work, work.shop, { keepGoing: () => !work.signal.aborted });
  return { nextRunAt: complete ? null : work.clock() };
});

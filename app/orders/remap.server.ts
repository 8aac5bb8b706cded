// Maps a shop's open orders again after its mapping settings changed. Saving settings only records that
// a remap is due (ShopSettings.remapRequestedAt); the worker runs this step under the shop's lease, in
// chunks, so neither the settings request nor one long transaction carries a shop's whole backlog.
import type { ServiceDeps } from "../context.server";
import { checkedMapping } from "../settings/settings.server";
import { applyChange, OrderMovedMeanwhile, storedShopifyOrder } from "./intake.server";
import { NOTHING, WORK, type WorkKind } from "../work/steps";
import { ORDER_STATE } from "./states";

/** Orders read and re-mapped at a time. */
export const REMAP_CHUNK = 200;

export interface RemapOutcome {
  /** Whether a remap was due when the step began. */
  requested: boolean;
  /** Orders whose mapping or state changed. */
  changed: number;
  /** Still due: a save came meanwhile, or the step was told to stop; run the step again. */
  due: boolean;
}

/**
 * Re-maps the shop's orders not yet sent (held and ready) with its current mapping, if a save asked for it.
 * An order's `id_order` stays as intake fixed it. `keepGoing` is asked between chunks, so an uninstall or
 * a lost lease stops the step early; it is then still due.
 */
export async function remapOpenOrdersStep(
  deps: ServiceDeps,
  shop: string,
  options: { chunkSize?: number; keepGoing?: () => boolean | Promise<boolean> } = {},
): Promise<RemapOutcome> {
  const { db, log } = deps;
  const chunkSize = options.chunkSize ?? REMAP_CHUNK;
  const request = await db.shopSettings.findUnique({
    where: { shop },
    select: { remapRequestedAt: true, mapping: true },
  });
  if (!request?.remapRequestedAt) return { requested: false, changed: 0, due: false };
  const settings = checkedMapping(shop, request.mapping, log);

  let changed = 0;
  let after: string | undefined;
  for (;;) {
    if (options.keepGoing && !(await options.keepGoing())) return { requested: true, changed, due: true };
    const rows = await db.warehouseOrder.findMany({
      where: {
        shop,
        state: { in: [ORDER_STATE.held, ORDER_STATE.ready] },
        ...(after !== undefined && { id: { gt: after } }),
      },
      orderBy: { id: "asc" },
      take: chunkSize,
      include: { shopifyOrder: true },
    });
    for (const { shopifyOrder, ...row } of rows) {
      const order = storedShopifyOrder(row.id, shopifyOrder);
      try {
        if (await applyChange(deps, row, { order, settings, cancelled: false })) changed++;
      } catch (error) {
        // Claimed by the worker or changed by a webhook meanwhile: it went out (or was re-mapped) as it
        // was then, like any order in flight; a webhook re-maps with the settings of its own time.
        if (!(error instanceof OrderMovedMeanwhile)) throw error;
      }
    }
    if (rows.length < chunkSize) break;
    after = rows[rows.length - 1]!.id;
  }

  // Cleared only if no save came meanwhile: a newer request, or another mapping saved with the same
  // timestamp, leaves it due, and the next run maps everything with what was saved last.
  const { count } = await db.shopSettings.updateMany({
    where: { shop, remapRequestedAt: request.remapRequestedAt, mapping: request.mapping },
    data: { remapRequestedAt: null },
  });
  log.info(
    { shop, event: "orders.remapped", changed, due: count === 0 },
    "open orders mapped again with the saved settings",
  );
  return { requested: true, changed, due: count === 0 };
}

/**
 * Re-mapping as a kind of the engine's work: due while the shop's settings carry a remap request, run a
 * chunk at a time under the shop's lease, and stopped between chunks when the lease ends.
 */
export const remapWork: WorkKind = {
  name: "remap_orders",
  async dueShops(db) {
    const rows = await db.shopSettings.findMany({
      where: { remapRequestedAt: { not: null } },
      select: { shop: true },
    });
    return rows.map((row) => row.shop);
  },
  open(work) {
    return Promise.resolve({
      async run() {
        const outcome = await remapOpenOrdersStep(work, work.shop, { keepGoing: () => !work.signal.aborted });
        return outcome.requested ? WORK : NOTHING;
      },
      async nextDueAt() {
        const row = await work.db.shopSettings.findUnique({
          where: { shop: work.shop },
          select: { remapRequestedAt: true },
        });
        return row?.remapRequestedAt ? work.clock().getTime() : null;
      },
    });
  },
};

// Product cards to the warehouse as a kind of the engine's work: under a shop's lease, each card of the SKU
// map that is due goes with AddProduct (one SKU a request), oldest first. Cards never delay orders: they
// wait while the shop's orders have work due, and they are paced to leave part of every window of the key's
// limit free, so an order that arrives while a whole catalogue is being sent leaves with the next batch.
// Every write after the request is conditional on the row's version: a card changed meanwhile stays due.
import type { CatalogueItem } from "@prisma/client";
import { MAX_ATTEMPTS } from "../orders/state-machine";
import { releaseOrdersWithCards } from "./awaiting.server";
import { holdIfShared } from "./record.server";
import { CARD_SEND_PROBLEM } from "./send-problems";
import { ordersGoFirst } from "../orders/submit.server";
import { WarehouseError } from "../warehouse/errors";
import type { Headroom } from "../warehouse/limiter.server";
import { OPERATIONS } from "../warehouse/wire";
import { backoffMs } from "../work/backoff";
import {
  keyOrLimitOutcome,
  NOTHING,
  WORK,
  type ShopStep,
  type ShopWork,
  type StepResult,
  type WorkKind,
} from "../work/steps.server";

/** Requests of each window of the key's limit that cards leave to orders, edits, cancellations and reports. */
export const LEFT_FOR_ORDERS = 10;

/** While the shop's orders have work due, cards wait this long before looking again. */
const ORDERS_FIRST_MS = 2_000;

/** The shop's cards that are due at `now`, or (without it) due at all. */
export const dueCards = (shop: string, now?: Date) => ({
  shop,
  dueAt: now ? { lte: now } : { not: null },
  problem: null,
  deletedAt: null,
  sku: { not: null },
});

export const catalogueWork: WorkKind = {
  name: "catalogue",
  async dueShops(db, now) {
    const rows = await db.catalogueItem.findMany({
      where: { dueAt: { lte: now }, problem: null, deletedAt: null },
      distinct: ["shop"],
      select: { shop: true },
    });
    return rows.map((row) => row.shop);
  },
  open(work) {
    return Promise.resolve(cardsStep(work));
  },
};

function cardsStep(work: ShopWork): ShopStep {
  const { db, shop } = work;
  /** When the pace lets the next card go (ms since the epoch). */
  let pacedUntil = 0;
  return {
    async run(): Promise<StepResult> {
      const now = work.clock();
      const row = await db.catalogueItem.findFirst({ where: dueCards(shop, now), orderBy: { dueAt: "asc" } });
      if (!row) return NOTHING;
      const ordersFirst = await ordersGoFirst(work, ORDERS_FIRST_MS);
      if (ordersFirst) return { did: "wait", until: ordersFirst };
      const headroom = await work.warehouse.headroom(OPERATIONS.addProduct);
      pacedUntil = Math.max(pacedUntil, (headroom.lastAt ?? 0) + cardPaceMs(headroom));
      const at = Math.max(headroom.at, pacedUntil);
      // Read after the limiter's own clock, which stamps `at` no earlier than its now.
      if (at > work.clock().getTime()) return { did: "wait", until: new Date(at) };
      return sendCard(work, row);
    },
    async nextDueAt(last) {
      if (last.did === "wait") return last.until.getTime();
      const next = await db.catalogueItem.findFirst({
        where: dueCards(shop),
        orderBy: { dueAt: "asc" },
        select: { dueAt: true },
      });
      return next?.dueAt ? Math.max(next.dueAt.getTime(), pacedUntil) : null;
    },
  };
}

/** The interval between cards that leaves LEFT_FOR_ORDERS requests of every window free. */
export function cardPaceMs({
  windowMs,
  requestsPerWindow,
}: Pick<Headroom, "windowMs" | "requestsPerWindow">) {
  return windowMs / Math.max(1, requestsPerWindow - LEFT_FOR_ORDERS);
}

async function sendCard(work: ShopWork, row: CatalogueItem): Promise<StepResult> {
  const { db } = work;
  // Checked again here, whatever the card's way into the queue: a card two variants share must not go.
  if (await holdIfShared(db, work.shop, row, work.clock())) {
    await releaseOrdersWithCards(work, work.shop);
    work.log.warn(
      { event: "catalogue.card_shared", sku: row.sku },
      "the card's SKU is on another variant too; held for the merchant instead of sent",
    );
    return WORK;
  }
  // A card without a barcode in Shopify carries the warehouse's own: whether AddProduct without one erases
  // the stored barcode is not documented (the simulator's does), and a blank in Shopify is no reason to.
  const barcode = row.barcode ?? row.warehouseBarcode;
  const card = { sku: row.sku!, name: row.name, ...(barcode && { barcode }) };
  try {
    await work.warehouse.addProduct(card);
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    const outcome = await keyOrLimitOutcome(error, work.clock);
    if (outcome) return outcome;
    await settleFailure(work, row, error);
    return WORK;
  }
  const sent = {
    sentSku: card.sku,
    sentName: card.name,
    sentBarcode: card.barcode ?? null,
    sentAt: work.clock(),
  };
  const settled = await db.catalogueItem.updateMany({
    where: { id: row.id, version: row.version },
    data: { ...sent, dueAt: null, attempts: 0, lastError: null, version: { increment: 1 } },
  });
  // The card changed while it was out: what the warehouse accepted is recorded, and the new card stays due.
  if (settled.count === 0) await db.catalogueItem.updateMany({ where: { id: row.id }, data: sent });
  // Orders that waited for this card (and have all theirs now) are due again, for the loop's next pass.
  await releaseOrdersWithCards(work, work.shop);
  work.log.info({ event: "catalogue.card_sent", sku: card.sku }, "product card sent with AddProduct");
  return WORK;
}

/** A refusal stops the card with the warehouse's words; a transient failure retries with backoff, then stops. */
async function settleFailure(work: ShopWork, row: CatalogueItem, error: WarehouseError): Promise<void> {
  const attempts = row.attempts + 1;
  const stop = !error.retryable
    ? CARD_SEND_PROBLEM.refused
    : attempts >= MAX_ATTEMPTS
      ? CARD_SEND_PROBLEM.retriesExhausted
      : null;
  const now = work.clock().getTime();
  await work.db.catalogueItem.updateMany({
    where: { id: row.id, version: row.version },
    data: stop
      ? {
          problem: stop,
          problemMessage:
            stop === CARD_SEND_PROBLEM.refused
              ? `The warehouse refused this product card: ${error.message}`
              : `The warehouse could not be reached for this product card after ${attempts} attempts: ${error.message}`,
          dueAt: null,
          attempts,
          lastError: error.message,
          version: { increment: 1 },
        }
      : {
          dueAt: new Date(now + backoffMs(attempts)),
          attempts,
          lastError: error.message,
          version: { increment: 1 },
        },
  });
  work.log.warn(
    { event: "catalogue.card_failed", sku: row.sku, attempts, stopped: Boolean(stop), err: error },
    stop
      ? "AddProduct failed; the card waits for the merchant"
      : "AddProduct failed; it is tried again later",
  );
}

// The stock sync as a kind of the engine's work: on the shop's schedule (and when the merchant asks), one
// ReportSklad, then Shopify's quantities at the warehouse location made the warehouse's (syncStock), each
// sync kept as a StockSync row: its counts for the history, its drift and failures for the Stock page, and
// its id in every write's idempotency key and reference document, so Shopify's history names it.
import { cleanText } from "../catalogue/card";
import { message, type Message } from "../i18n/message";
import { writeTexts } from "../i18n/texts";
import { recordWarehouseReport } from "../catalogue/full-sync.server";
import { env } from "../env.server";
import { ordersGoFirst } from "../orders/submit.server";
import { WarehouseError } from "../warehouse/errors";
import { OPERATIONS } from "../warehouse/wire";
import { scheduledKind, type Schedule, type ScheduledRun } from "../work/schedule.server";
import { keyOrLimitOutcome, type ShopWork, type StepResult } from "../work/steps.server";
import { MANUAL_SYNC, STOCK_KIND } from "./kinds.server";
import { unitsNotTaken } from "./promised.server";
import { parseStockSettings } from "./settings";
import { warehouseErrorText } from "../warehouse/texts";
import { StockLocationNotFound, syncStock, type StockSyncReport } from "./shopify.server";
import { mayRest, parseBaseline, stockDigest } from "./baseline";
import type { Db } from "../db.server";

/** While the shop's orders have work due, the report waits this long: orders go first. */
const ORDERS_FIRST_MS = 15_000;

/** After a sync Shopify's side failed, the next try. */
const RETRY_MS = 60_000;

/** Entries of each list kept on a sync's record: enough to act on, bounded whatever the catalogue's size. */
export const LISTED_PER_KIND = 1_000;

// Up to 3 of its 10 minutes early, with a pass that runs anyway (decision 023).
export const stockWork = scheduledKind(STOCK_KIND, syncShopStock, { earlyMs: 3 * 60_000 });

async function syncShopStock(work: ShopWork, schedule: Schedule): Promise<ScheduledRun | StepResult> {
  const { db, shop } = work;
  const now = work.clock();
  const row = await db.shopSettings.findUnique({
    where: { shop },
    select: { locationId: true, stockSettings: true, stockBaseline: true, stockBaselineAt: true },
  });
  // Until the merchant says which location stands for the warehouse, nothing is written (the Stock page
  // says so); choosing one asks for this run again.
  if (!row?.locationId) return { nextRunAt: null };
  const { settings, problem } = parseStockSettings(row.stockSettings);
  if (problem)
    work.log.warn(
      { event: "settings.stock_settings_invalid", problem },
      "stock settings unreadable; defaults used",
    );
  const next = new Date(now.getTime() + settings.intervalMinutes * 60_000);
  const ordersFirst = await ordersGoFirst(work, ORDERS_FIRST_MS);
  if (ordersFirst) return { nextRunAt: ordersFirst };
  const allowedAt = await work.warehouse.nextAllowedAt(OPERATIONS.reportSklad);
  if (allowedAt > work.clock().getTime()) return { did: "wait", until: new Date(allowedAt) };

  const manual = schedule.cursor === MANUAL_SYNC;
  const sync = await db.stockSync.create({
    data: {
      shop,
      trigger: manual ? "manual" : "schedule",
      quantityName: settings.quantityName,
      startedAt: now,
    },
  });
  let rows;
  // Orders accepted from here on may be missing from the report: their units are still kept off sale.
  const reportAskedAt = work.clock();
  try {
    rows = await work.warehouse.reportSklad({ ExcludeZero: false });
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    const texts = [message("stock:sync.error.report"), warehouseErrorText(error)];
    const outcome = await keyOrLimitOutcome(error, work.clock, {
      keyRefused: () => finish(work, sync.id, { error: texts }),
      rateLimited: () => db.stockSync.delete({ where: { id: sync.id } }),
    });
    if (outcome) return outcome;
    await finish(work, sync.id, { error: texts });
    return { nextRunAt: next, cursor: null, problem: error.message };
  }
  // What the warehouse reported, kept on the SKU map (its cards, and the figures the Catalogue page shows).
  await recordWarehouseReport(db, shop, new Map(rows.map((stock) => [cleanText(stock.sku), stock])), now);
  const { locationId } = row;
  const { quantityName } = settings;
  const warehouseRows = rows;
  // Read before Shopify is: an order changed after this moment makes the next run's digest differ.
  const ordersChangedAt = await latestOrderChange(db, shop);
  const digestOf = (promised: ReadonlyMap<string, number> | undefined) =>
    stockDigest({ locationId, quantityName, rows: warehouseRows, promised, ordersChangedAt });
  const baseline = parseBaseline(row.stockBaseline);
  // At rest: nothing on our side changed since a sync read Shopify and left it holding these figures, and
  // that was recently enough (RECONCILE_MS). The merchant's "Sync now" always reads Shopify.
  if (!manual && baseline && mayRest(row.stockBaselineAt, now, settings.intervalMinutes * 60_000)) {
    const promised =
      quantityName === "available" ? await unitsNotTaken(db, work.log, shop, reportAskedAt) : undefined;
    if (digestOf(promised) === baseline.digest) {
      await db.stockSync.update({
        where: { id: sync.id },
        data: {
          finishedAt: work.clock(),
          skus: rows.length,
          problems: baseline.problems,
          shopifyRead: false,
          error: null,
        },
      });
      work.log.info({ event: "stock.at_rest", skus: rows.length }, "stock unchanged; Shopify not read");
      return { nextRunAt: next, cursor: null };
    }
  }
  let promisedUsed: ReadonlyMap<string, number> | undefined;
  let report: StockSyncReport;
  try {
    report = await syncStock({
      admin: await work.admin(),
      warehouseRows: rows,
      locationId: row.locationId,
      quantityName: settings.quantityName,
      referenceDocumentUri: `${env().SHOPIFY_APP_URL}/app/stock?sync=${sync.id}`,
      idempotencyKey: (seed) => `${sync.id}:${seed}`,
      promisedUnits: async () => (promisedUsed = await unitsNotTaken(db, work.log, shop, reportAskedAt)),
    });
  } catch (error) {
    // Whatever stopped it, the sync's record says so: a record left open would read "running" for ever.
    // The record keeps it in the admin's words (a key); the schedule and the log keep it in English.
    const detail = error instanceof Error ? error.message : String(error);
    const [text, inEnglish]: [Message, string] =
      error instanceof StockLocationNotFound
        ? [
            message("stock:sync.error.locationGone"),
            "The location chosen for the warehouse no longer exists in Shopify; choose another in Settings.",
          ]
        : work.signal.aborted
          ? [
              message("stock:sync.error.interrupted"),
              "The sync was interrupted (the worker stopped or lost the shop); the next one starts afresh.",
            ]
          : [
              message("stock:sync.error.shopify", { detail }),
              `Shopify could not be read or written: ${detail}`,
            ];
    await finish(work, sync.id, { error: [text] });
    if (work.signal.aborted) throw error;
    work.log.warn({ event: "stock.sync_failed", err: error }, "stock sync failed; tried again later");
    return { nextRunAt: new Date(work.clock().getTime() + RETRY_MS), cursor: null, problem: inEnglish };
  }
  const problems = await finish(work, sync.id, { report });
  // Shopify holds every figure the digest stands for only when each was written or already there: a stale
  // write keeps a sale on top of the figure, and a failure or a stop leaves some unwritten.
  const confirmed = !report.stoppedBy && report.failures.length === 0 && report.counts.staleRetries === 0;
  // Only over the baseline this run began with: a product webhook that replaced it meanwhile stands.
  await db.shopSettings.updateMany({
    where: { shop, stockBaseline: row.stockBaseline },
    data: confirmed
      ? { stockBaseline: JSON.stringify({ digest: digestOf(promisedUsed), problems }), stockBaselineAt: now }
      : { stockBaseline: null, stockBaselineAt: null },
  });
  work.log.info(
    { event: "stock.synced", ...report.counts, stoppedBy: report.stoppedBy },
    "stock synced to Shopify",
  );
  return { nextRunAt: next, cursor: null, ...(report.stoppedBy && { problem: report.stoppedBy }) };
}

/** When the shop's latest order last changed in Shopify (index (shop, orderUpdatedAt)); null without orders. */
async function latestOrderChange(db: Db, shop: string): Promise<Date | null> {
  const latest = await db.warehouseOrder.findFirst({
    where: { shop },
    orderBy: { orderUpdatedAt: "desc" },
    select: { orderUpdatedAt: true },
  });
  return latest?.orderUpdatedAt ?? null;
}

/**
 * The sync's record: its counts, and its lists bounded to LISTED_PER_KIND each. Its `error`, when it failed or
 * stopped partway, is a list of Messages (writeTexts), read back with readTexts.
 * Returns the problems it counts.
 */
async function finish(
  work: ShopWork,
  id: string,
  outcome: { report?: StockSyncReport; error?: Message[] },
): Promise<number> {
  const { report } = outcome;
  const error =
    outcome.error ??
    (report?.stoppedBy ? [message("stock:sync.error.stopped", { detail: report.stoppedBy })] : []);
  const bounded = report && {
    stoppedBy: report.stoppedBy,
    counts: report.counts,
    missingInShopify: report.missingInShopify.slice(0, LISTED_PER_KIND),
    missingAtWarehouse: report.missingAtWarehouse.slice(0, LISTED_PER_KIND),
    sharedSkus: report.sharedSkus.slice(0, LISTED_PER_KIND),
    untracked: report.untracked.slice(0, LISTED_PER_KIND),
    invalidRows: report.invalidRows.slice(0, LISTED_PER_KIND),
    withoutSku: report.withoutSku,
    promised: report.promised.slice(0, LISTED_PER_KIND),
    written: report.written.slice(0, LISTED_PER_KIND),
    failures: report.failures.slice(0, LISTED_PER_KIND),
  };
  const problems = report
    ? report.failures.length + report.sharedSkus.length + report.untracked.length + report.invalidRows.length
    : 0;
  await work.db.stockSync.update({
    where: { id },
    data: {
      finishedAt: work.clock(),
      ...(report && {
        skus: report.counts.skus,
        changed: report.counts.written,
        mutations: report.counts.mutations,
        activated: report.counts.activated,
        problems,
        report: JSON.stringify(bounded),
      }),
      error: writeTexts(error),
    },
  });
  return problems;
}

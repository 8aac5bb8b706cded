// The full catalogue sync the merchant starts from the Catalogue page, as a scheduled kind of the engine's
// work: every variant of the shop read from Shopify into the SKU map, then the warehouse's ReportSklad (every
// SKU, zeros included) kept on the map and each card judged against it, so that only cards the warehouse
// lacks or holds otherwise are made due; the catalogue kind (work.server.ts) sends those at the pace that
// leaves orders their share of the key's limit, and the sync is done once none is left. One CatalogueSync row
// holds where the sync stands, and a run does one bounded step of it (a page, the report, a look at what is
// left to send), so the shop's other work goes between and a restart goes on from the row.
// docs/decisions/012-full-catalogue-sync.md says why Shopify is read before the warehouse is asked.
import type { CatalogueSync, Prisma } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { isUniqueViolation, type Db } from "../db.server";
import { sqlTransaction } from "../db/sql.server";
import { message, type Message } from "../i18n/message";
import { writeTexts } from "../i18n/texts";
import { ordersGoFirst } from "../orders/submit.server";
import { ShopifyGraphqlError, ShopifyThrottled } from "../shopify/admin-graphql.server";
import { WarehouseError } from "../warehouse/errors";
import type { StockRow } from "../warehouse/schemas";
import { OPERATIONS } from "../warehouse/wire";
import { warehouseErrorText } from "../warehouse/texts";
import { scheduledKind, type ScheduledRun } from "../work/schedule.server";
import { keyOrLimitOutcome, type ShopWork, type StepResult } from "../work/steps.server";
import { releaseOrdersWithCards } from "./awaiting.server";
import { cleanText } from "./card";
import { diffCatalogue } from "./diff";
import { RUNNING_PHASES, type RunningPhase, type SyncPhase } from "./progress";
import { cardOf, deleteUnseenVariants, lastSentOf, recordVariantPage } from "./record.server";
import { readVariantPage, type VariantPage } from "./variants.server";
import { dueCards } from "./work.server";

/** The ShopSchedule kind of the full sync; its row exists while a sync runs. */
export const CATALOGUE_SYNC_KIND = "catalogue_sync";

/** While the shop's orders have work due, ReportSklad waits this long: orders go first. */
const ORDERS_FIRST_MS = 15_000;

/** SKUs written or judged a statement: a large catalogue's 10,000 are twenty statements, not 10,000. */
const BATCH = 500;

export const ALREADY_RUNNING =
  "A full catalogue sync is already running. It goes on by itself, and this page shows how far it has got.";

const runningSync = (db: Db | Prisma.TransactionClient, shop: string) =>
  db.catalogueSync.findFirst({
    where: { shop, phase: { in: [...RUNNING_PHASES] } },
    orderBy: { startedAt: "asc" },
  });

/** Another start took the lock first: its transaction is undone. */
class LockTaken extends Error {}

export type StartedSync = { ok: true; sync: CatalogueSync } | { ok: false; message: string };

/** Starts a full sync of the shop's catalogue, unless one runs already. */
export async function startCatalogueSync(deps: ServiceDeps, shop: string): Promise<StartedSync> {
  const { db } = deps;
  const now = deps.clock();
  let sync: CatalogueSync | null;
  try {
    sync = await db.$transaction(async (tx) => {
      if (await runningSync(tx, shop)) return null;
      // The kind's schedule row doubles as the lock: its key (shop, kind) lets only one of two starts made at
      // once through, and it is deleted when the sync ends.
      const left = await tx.shopSchedule.findUnique({
        where: { shop_kind: { shop, kind: CATALOGUE_SYNC_KIND } },
        select: { version: true },
      });
      if (!left) {
        await tx.shopSchedule.create({ data: { shop, kind: CATALOGUE_SYNC_KIND, nextRunAt: now } });
      } else {
        // No sync runs, yet the row is there: the last sync has just ended and its run has not yet deleted
        // the row (it does so once it is back), or a request for a run came for it since. The row is taken
        // over on its version, so that of two starts at once only one gets it; the ended run then finds the
        // row asked for again and leaves it due. A sync another start made meanwhile undoes this one.
        const { count } = await tx.shopSchedule.updateMany({
          where: { shop, kind: CATALOGUE_SYNC_KIND, version: left.version },
          data: { nextRunAt: now, cursor: null, lastError: null, version: { increment: 1 } },
        });
        if (count === 0 || (await runningSync(tx, shop))) throw new LockTaken();
      }
      return tx.catalogueSync.create({ data: { shop, phase: "shopify", startedAt: now } });
    });
  } catch (error) {
    if (!isUniqueViolation(error) && !(error instanceof LockTaken)) throw error;
    sync = null;
  }
  if (!sync) return { ok: false, message: ALREADY_RUNNING };
  deps.log.info({ shop, event: "catalogue.sync_started", syncId: sync.id }, "full catalogue sync started");
  deps.wake?.(shop);
  return { ok: true, sync };
}

export const catalogueSyncWork = scheduledKind(CATALOGUE_SYNC_KIND, async (work) => {
  const sync = await runningSync(work.db, work.shop);
  if (!sync) return { nextRunAt: null };
  if (sync.phase === "shopify") return readPage(work, sync);
  if (sync.phase === "warehouse") return compareWithWarehouse(work, sync);
  return followSending(work, sync);
});

/** Step 1, a page a run: the page's variants into the map and its cursor onto the sync, in one transaction. */
async function readPage(work: ShopWork, sync: CatalogueSync): Promise<ScheduledRun> {
  const { db, shop } = work;
  let page: VariantPage;
  try {
    page = await readVariantPage(await work.admin(), sync.cursor);
  } catch (error) {
    // A longer wait than the client takes for the bucket to fill: the next run reads this page again.
    if (error instanceof ShopifyThrottled) {
      return { nextRunAt: new Date(work.clock().getTime() + error.retryAfterMs) };
    }
    if (error instanceof ShopifyGraphqlError) {
      return fail(work, sync, [message("catalogue:error.shopify", { detail: error.message })]);
    }
    throw error;
  }
  const now = work.clock();
  const gone = await db.$transaction(async (tx) => {
    await recordVariantPage(tx, shop, page.variants, now);
    const unseen = page.last ? await deleteUnseenVariants(tx, shop, sync.startedAt, now) : 0;
    const { count } = await tx.catalogueSync.updateMany({
      where: { id: sync.id, phase: "shopify", cursor: sync.cursor },
      data: {
        cursor: page.cursor,
        variantsRead: { increment: page.variants.length },
        ...(page.last && { phase: "warehouse" }),
      },
    });
    // Undone with the page: whoever moved the sync on meanwhile read it too.
    if (count === 0) throw new Error("the catalogue sync moved on while a page was being read");
    return unseen;
  });
  // Variants gone, SKUs now shared or renamed: orders parked for their cards wait no longer.
  await releaseOrdersWithCards({ db, clock: () => now }, shop);
  work.log.info(
    { event: "catalogue.sync_page_read", syncId: sync.id, variants: page.variants.length, last: page.last },
    "a page of the shop's variants read into the SKU map",
  );
  if (gone) {
    work.log.info(
      { event: "catalogue.sync_variants_gone", syncId: sync.id, variants: gone },
      "variants Shopify no longer has left the SKU map",
    );
  }
  return { nextRunAt: now };
}

/**
 * Step 2: ReportSklad, kept on the map's rows, and every card judged against it. The report is in memory
 * for this one run only: what the next steps need of it is on the rows (the due cards, and each SKU's
 * warehouse barcode and stock for the pages).
 */
async function compareWithWarehouse(work: ShopWork, sync: CatalogueSync): Promise<ScheduledRun | StepResult> {
  const { db, shop } = work;
  const ordersFirst = await ordersGoFirst(work, ORDERS_FIRST_MS);
  if (ordersFirst) return { nextRunAt: ordersFirst };
  const allowedAt = await work.warehouse.nextAllowedAt(OPERATIONS.reportSklad);
  if (allowedAt > work.clock().getTime()) return { did: "wait", until: new Date(allowedAt) };
  let rows: StockRow[];
  try {
    // Zeros included: a SKU out of stock is still a card the warehouse has.
    rows = await work.warehouse.reportSklad({ ExcludeZero: false });
  } catch (error) {
    if (!(error instanceof WarehouseError)) throw error;
    // The sync stays at this step: it goes on once the merchant has given a key the warehouse takes.
    const outcome = await keyOrLimitOutcome(error, work.clock);
    if (outcome) return outcome;
    return fail(work, sync, [message("catalogue:error.report"), warehouseErrorText(error)]);
  }
  const reportedAt = work.clock();
  const reported = new Map(rows.map((row) => [cleanText(row.sku), row]));
  await recordWarehouseReport(db, shop, reported, reportedAt);
  const judged = await judgeCards(db, shop, reported, reportedAt);
  await db.catalogueSync.updateMany({
    where: { id: sync.id, phase: "warehouse" },
    data: { phase: "sending", ...judged },
  });
  work.log.info(
    { event: "catalogue.sync_compared", syncId: sync.id, skusReported: reported.size, ...judged },
    "the SKU map compared with the warehouse's stock report",
  );
  return { nextRunAt: reportedAt };
}

/** A figure the Int columns can keep: ReportSklad's numbers are not promised to be whole. */
const whole = (figure: number) => (Number.isSafeInteger(figure) ? figure : null);

/**
 * What ReportSklad says of each SKU, kept on every row of the map with that SKU: its barcode and both stock
 * figures, with when it was reported; a SKU the report does not list is kept as reported with neither.
 * Plain SQL in batches (UPDATE … FROM VALUES, which SQLite and PostgreSQL both run): Prisma would take a
 * statement per SKU.
 */
export async function recordWarehouseReport(
  db: Db,
  shop: string,
  reported: ReadonlyMap<string, StockRow>,
  at: Date,
): Promise<void> {
  const rows = [...reported];
  await sqlTransaction(db, async (tx) => {
    await tx.execute(
      `UPDATE "CatalogueItem" SET "warehouseBarcode" = NULL, "warehouseQuantity" = NULL,
         "warehouseAvailable" = NULL, "reportedAt" = ?
       WHERE "shop" = ? AND "sku" IS NOT NULL`,
      [at, shop],
    );
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      const values = batch
        .map(() => "(CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER))")
        .join(", ");
      await tx.execute(
        `UPDATE "CatalogueItem" SET "warehouseBarcode" = v.column2, "warehouseQuantity" = v.column3,
           "warehouseAvailable" = v.column4
         FROM (VALUES ${values}) AS v
         WHERE "CatalogueItem"."shop" = ? AND "CatalogueItem"."sku" = v.column1`,
        [
          ...batch.flatMap(([sku, row]) => [
            sku,
            cleanText(row.barcode) || null,
            whole(row.quantity),
            whole(row.quantityAvailable),
          ]),
          shop,
        ],
      );
    }
  });
  // A SKU the warehouse lists has its card there: orders parked for it wait no longer (the stock sync and
  // the full sync both keep their report here).
  await releaseOrdersWithCards({ db, clock: () => at }, shop);
}

/**
 * Makes due every live card the warehouse lacks or holds with another name or barcode (diffCatalogue), and
 * counts the others as already there. A card the warehouse holds with its SKU and barcode under a name the
 * app never sent (entered there before the app) is already there too: ReportSklad carries no names, so
 * sending it would spend a request to learn nothing, and on a first sync that is most of the catalogue, hours
 * at the key's pace; its name goes with its next change. A card already due stays due: it waits for a change
 * a webhook saw. Writes are conditional on the row's version, so a card changed meanwhile keeps its new state.
 */
async function judgeCards(
  db: Db,
  shop: string,
  reported: ReadonlyMap<string, StockRow>,
  now: Date,
): Promise<{ alreadyThere: number; toSend: number }> {
  let alreadyThere = 0;
  let toSend = 0;
  let after = "";
  for (;;) {
    const rows = await db.catalogueItem.findMany({
      where: { shop, deletedAt: null, problem: null, sku: { not: null }, id: { gt: after } },
      orderBy: { id: "asc" },
      take: BATCH,
      select: {
        id: true,
        version: true,
        sku: true,
        name: true,
        barcode: true,
        sentSku: true,
        sentName: true,
        sentBarcode: true,
        dueAt: true,
      },
    });
    if (!rows.length) return { alreadyThere, toSend };
    after = rows.at(-1)!.id;
    const newlyDue: Array<{ id: string; version: number }> = [];
    for (const row of rows) {
      const card = cardOf(row)!;
      const held = reported.get(card.sku);
      const [verdict] = diffCatalogue({
        cards: [card],
        lastSent: lastSentOf(row),
        reported: held ? [held] : [],
      }).send;
      const send = verdict?.reasons.some((reason) => reason !== "name_unknown") ?? false;
      if (row.dueAt) toSend++;
      else if (send) {
        toSend++;
        newlyDue.push({ id: row.id, version: row.version });
      } else alreadyThere++;
    }
    if (newlyDue.length) {
      await db.catalogueItem.updateMany({
        where: { OR: newlyDue },
        data: { dueAt: now, attempts: 0, lastError: null, version: { increment: 1 } },
      });
    }
  }
}

/** Step 3, once a rate-limit window: done when the catalogue kind has sent every card due. */
async function followSending(work: ShopWork, sync: CatalogueSync): Promise<ScheduledRun> {
  const { db } = work;
  const now = work.clock();
  const { stillDue, sent } = await sendingCounts(db, sync);
  if (stillDue === 0) {
    await db.catalogueSync.updateMany({
      where: { id: sync.id, phase: "sending" },
      data: { phase: "done", sent, finishedAt: now },
    });
    work.log.info(
      { event: "catalogue.sync_done", syncId: sync.id, sent, alreadyThere: sync.alreadyThere },
      "full catalogue sync done",
    );
    return { nextRunAt: null };
  }
  await db.catalogueSync.updateMany({ where: { id: sync.id, phase: "sending" }, data: { sent } });
  const { windowMs } = await work.warehouse.headroom(OPERATIONS.addProduct);
  return { nextRunAt: new Date(now.getTime() + windowMs) };
}

/** Cards still due to be sent, and those the warehouse accepted since the sync began. */
async function sendingCounts(db: Db, sync: Pick<CatalogueSync, "shop" | "startedAt">) {
  const [stillDue, sent] = await Promise.all([
    db.catalogueItem.count({ where: dueCards(sync.shop) }),
    db.catalogueItem.count({ where: { shop: sync.shop, sentAt: { gte: sync.startedAt } } }),
  ]);
  return { stillDue, sent };
}

/** Ends the sync as failed, saying why as Messages (CatalogueSync.error, read back with readTexts). */
async function fail(work: ShopWork, sync: CatalogueSync, texts: Message[]): Promise<ScheduledRun> {
  await work.db.catalogueSync.updateMany({
    where: { id: sync.id, phase: sync.phase },
    data: { phase: "failed", error: writeTexts(texts), finishedAt: work.clock() },
  });
  work.log.warn(
    { event: "catalogue.sync_failed", syncId: sync.id, phase: sync.phase, error: texts },
    "full catalogue sync failed",
  );
  return { nextRunAt: null };
}

export interface RunningSync extends CatalogueSync {
  phase: RunningPhase;
  /** Counted now: cards still due, and cards the warehouse accepted since the sync began. */
  stillDue: number;
  sent: number;
  /** Why the sync's last step failed, when it is to be tried again. */
  retrying: string | null;
}

export interface CatalogueSyncOverview {
  running: RunningSync | null;
  /** The shop's last syncs, newest first. */
  syncs: Array<CatalogueSync & { phase: SyncPhase }>;
}

/** The running sync as it stands now, and the last syncs, for the Catalogue page. */
export async function catalogueSyncOverview(db: Db, shop: string): Promise<CatalogueSyncOverview> {
  const [syncs, running, schedule] = await Promise.all([
    db.catalogueSync.findMany({ where: { shop }, orderBy: { startedAt: "desc" }, take: 10 }),
    runningSync(db, shop),
    db.shopSchedule.findUnique({
      where: { shop_kind: { shop, kind: CATALOGUE_SYNC_KIND } },
      select: { lastError: true },
    }),
  ]);
  return {
    running: running && {
      ...running,
      phase: running.phase as RunningPhase,
      ...(await sendingCounts(db, running)),
      retrying: schedule?.lastError ?? null,
    },
    syncs: syncs.map((sync) => ({ ...sync, phase: sync.phase as SyncPhase })),
  };
}

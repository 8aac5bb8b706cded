// Customers' details kept no longer than the work needs (Shopify's protected customer data): once an order
// has reached a final stage (delivered, returned, cancelled by the warehouse, or cancelled), its Shopify
// payload, the bodies mapped and sent (recipient, phone, address), and the texts and data of its timeline
// are removed after the shop's `personalDataDays` (90 unless the merchant chose otherwise), by the same
// erasure customers/redact uses (personal-data.server.ts). The order's row stays with its ids, state, stage,
// waybill and dates. It runs as scheduled work of the engine, one ShopSchedule row per shop
// (docs/decisions/007): each run erases what is due and answers when the next order falls due.
// docs/personal-data.md says what is kept, where and for how long.
import { z } from "zod";
import type { Db } from "../db.server";
import { isUniqueViolation } from "../db.server";
import { message, type Message } from "../i18n/message";
import { ORDER_STATE, STAGE } from "../orders/states";
import { storedTexts, timelineText } from "../orders/timeline";
import { EVENT, recordEvents } from "../orders/timeline.server";
import { requestRun, scheduledKind, type ScheduledRun } from "../work/schedule.server";
import { shopIsActive } from "../shops/lifecycle.server";
import type { PeriodicTask, ShopWork, WorkKind } from "../work/steps.server";
import { eraseOrdersPersonalData } from "./personal-data.server";

/** The ShopSchedule kind of the retention sweep. */
export const PERSONAL_DATA_KIND = "personal_data";

/** How long a finished order keeps its customer's details unless the merchant chooses otherwise. */
export const DEFAULT_PERSONAL_DATA_DAYS = 90;
/** The choices a merchant has: at least a week (a return or a dispute comes soon after), at most ten years. */
export const PERSONAL_DATA_DAYS = { min: 7, max: 3650 } as const;

const DAY_MS = 24 * 3600_000;

/** A shop's run looks again at least this often: orders finish every day. */
const LOOK_AGAIN_MS = DAY_MS;

/** Orders erased a transaction: a shop's first run after months may find thousands. */
const BATCH = 200;

/** The stages after which the warehouse does nothing more with an order. */
export const FINAL_STAGES = [STAGE.delivered, STAGE.returned, STAGE.cancelledAtWarehouse];

/**
 * States in which the app has nothing more to do for an order, counted from its last change: cancelled, and not
 * the warehouse's (routed elsewhere in Shopify and left there: its buyer is served by another location).
 */
const ENDED_STATES = [ORDER_STATE.cancelled, ORDER_STATE.elsewhere];

/**
 * The shop's orders finished at or before `before` whose details are still kept. A cancelled order counts
 * from its last change (the row keeps no separate moment for its cancellation reaching the warehouse).
 */
function finishedBy(shop: string, before: Date) {
  return {
    shop,
    dataErasedAt: null,
    OR: [
      { stage: { in: FINAL_STAGES }, stageAt: { lte: before } },
      { state: { in: ENDED_STATES }, updatedAt: { lte: before } },
    ],
  };
}

/** Work the order still has (a change for the warehouse, Shopify to be told): it keeps what that needs. */
const STILL_AT_WORK = [{ pending: { not: null } }, { fulfillmentDueAt: { not: null } }];

/** The shop's retention, in days. */
export async function personalDataDays(db: Db, shop: string): Promise<number> {
  const row = await db.shopSettings.findUnique({ where: { shop }, select: { personalDataDays: true } });
  return row?.personalDataDays ?? DEFAULT_PERSONAL_DATA_DAYS;
}

/** What the erased texts are replaced with, stored as the timeline's texts are. */
export const erasedWords = (days: number) => storedTexts(timelineText("erasedAfterDays", { days }));

/** One run for the shop: erases what is due, answers when to look again. */
export async function erasePersonalDataDue(
  deps: { db: Db; clock: () => Date; log: ShopWork["log"] },
  shop: string,
): Promise<ScheduledRun> {
  const { db } = deps;
  const now = deps.clock();
  const days = await personalDataDays(db, shop);
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const words = erasedWords(days);
  let erased = 0;
  for (;;) {
    const orders = await db.warehouseOrder.findMany({
      where: { ...finishedBy(shop, cutoff), NOT: { OR: STILL_AT_WORK } },
      select: { id: true, idOrder: true },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (!orders.length) break;
    await db.$transaction(async (tx) => {
      await eraseOrdersPersonalData(tx, shop, orders, now, words);
      await recordEvents(
        tx,
        orders.map((order) => ({
          shop,
          orderId: order.id,
          at: now,
          kind: EVENT.dataErased,
          text: timelineText("dataErased", { days }),
          data: { days },
        })),
      );
    });
    erased += orders.length;
    if (orders.length < BATCH) break;
  }
  const stillAtWork = await db.warehouseOrder.count({
    where: { AND: [finishedBy(shop, cutoff), { OR: STILL_AT_WORK }] },
  });
  // A data request's report is a copy of a customer's data: it goes after the same time.
  const reports = await db.complianceRequest.updateMany({
    where: { shop, report: { not: null }, completedAt: { lte: cutoff } },
    data: { report: null },
  });
  if (erased || reports.count) {
    deps.log.info(
      { event: "privacy.personal_data_erased", orders: erased, reports: reports.count, days, stillAtWork },
      "customer details of finished orders removed after the shop's retention",
    );
  }
  return { nextRunAt: await nextDue(db, shop, now, cutoff, days) };
}

/**
 * When the shop's next finished order falls due, or LOOK_AGAIN_MS from now, whichever is sooner (an order
 * due already but still at work is looked at again then).
 */
async function nextDue(db: Db, shop: string, now: Date, cutoff: Date, days: number): Promise<Date> {
  const kept = { shop, dataErasedAt: null };
  const [staged, cancelled] = await Promise.all([
    db.warehouseOrder.findFirst({
      where: { ...kept, stage: { in: FINAL_STAGES }, stageAt: { gt: cutoff } },
      orderBy: { stageAt: "asc" },
      select: { stageAt: true },
    }),
    db.warehouseOrder.findFirst({
      where: { ...kept, state: { in: ENDED_STATES }, updatedAt: { gt: cutoff } },
      orderBy: { updatedAt: "asc" },
      select: { updatedAt: true },
    }),
  ]);
  const finished = [staged?.stageAt, cancelled?.updatedAt].flatMap((at) => (at ? [at.getTime()] : []));
  return new Date(Math.min(now.getTime() + LOOK_AGAIN_MS, ...finished.map((at) => at + days * DAY_MS)));
}

/** Asks for the shop's retention run at `at` or sooner (a changed retention applies at once). */
export function requestPersonalDataRun(db: Db, shop: string, at: Date): Promise<void> {
  return requestRun(db, shop, PERSONAL_DATA_KIND, at);
}

const scheduled = scheduledKind(PERSONAL_DATA_KIND, (work) => erasePersonalDataDue(work, work.shop));

/**
 * The engine's kind. Every shop the engine serves gets its schedule row the first time its loop opens (an
 * order taken in, a status checked), so no install step or migration has to create one; from then on each
 * run answers its next time, a day on at the latest.
 */
export const personalDataWork: WorkKind = {
  ...scheduled,
  async open(work) {
    const row = await work.db.shopSchedule.findUnique({
      where: { shop_kind: { shop: work.shop, kind: PERSONAL_DATA_KIND } },
      select: { shop: true },
    });
    // A day on, not now: the loop that opens it came for other work, which goes first.
    if (!row)
      await requestPersonalDataRun(work.db, work.shop, new Date(work.clock().getTime() + LOOK_AGAIN_MS));
    return scheduled.open(work);
  },
};

/** The privacy page's form: the days chosen, and the days the page showed (a save over another's fails). */
export const personalDataDaysFormSchema = z.object({
  days: z.coerce
    .number({ error: "privacy:retention.error.notNumber" })
    .int("privacy:retention.error.notWhole")
    .min(PERSONAL_DATA_DAYS.min, "privacy:retention.error.range")
    .max(PERSONAL_DATA_DAYS.max, "privacy:retention.error.range"),
  shownDays: z.coerce.number().int().min(0),
});

export type SavedDays = { ok: true; days: number } | { ok: false; error: Message };

/**
 * Saves the shop's retention, only over the value the page showed: two admins saving at once get "changed
 * meanwhile", not a silent overwrite. A shorter retention applies at once (a run is asked for now).
 */
export async function savePersonalDataDays(
  deps: { db: Db; clock: () => Date },
  shop: string,
  input: unknown,
): Promise<SavedDays> {
  const parsed = personalDataDaysFormSchema.safeParse(input);
  if (!parsed.success) {
    const key = parsed.error.issues.find((issue) => issue.path[0] === "days")?.message;
    return {
      ok: false,
      error: message(key?.startsWith("privacy:") ? key : "privacy:retention.error.form", {
        min: PERSONAL_DATA_DAYS.min,
        max: PERSONAL_DATA_DAYS.max,
      }),
    };
  }
  const { db } = deps;
  const { days, shownDays } = parsed.data;
  const changedMeanwhile = { ok: false as const, error: message("privacy:retention.error.changedMeanwhile") };
  const saved = await db.shopSettings.updateMany({
    where: { shop, personalDataDays: shownDays },
    data: { personalDataDays: days },
  });
  if (!saved.count) {
    if (shownDays !== DEFAULT_PERSONAL_DATA_DAYS || (await db.shopSettings.count({ where: { shop } }))) {
      return changedMeanwhile;
    }
    try {
      await db.shopSettings.create({ data: { shop, personalDataDays: days } });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return changedMeanwhile;
    }
  }
  await requestPersonalDataRun(db, shop, deps.clock());
  return { ok: true, days };
}

/**
 * The retention of installed shops whose loop does not run: the warehouse refused their key (paused), or
 * none is saved. Their finished orders' details must go all the same, so the engine's sweep runs it for
 * them. Each shop's schedule row is claimed by its version first, so two processes' sweeps never erase
 * (and note on the timeline) the same orders twice.
 */
export const personalDataOfIdleShops: PeriodicTask = {
  name: "personal_data_of_idle_shops",
  everyMs: 3600_000,
  async run(deps) {
    const { db } = deps;
    const idle = await db.shopSettings.findMany({
      where: { OR: [{ pausedAt: { not: null } }, { apiKeyDigest: null }] },
      select: { shop: true },
    });
    for (const { shop } of idle) {
      if (!(await shopIsActive(db, shop))) continue;
      const now = deps.clock();
      const claimed = await claimRun(db, shop, now);
      if (claimed === null) continue;
      const { nextRunAt } = await erasePersonalDataDue({ ...deps, log: deps.log.child({ shop }) }, shop);
      await db.shopSchedule.updateMany({
        where: { shop, kind: PERSONAL_DATA_KIND, version: claimed },
        data: {
          nextRunAt: nextRunAt ?? new Date(now.getTime() + LOOK_AGAIN_MS),
          lastRunAt: now,
          lastError: null,
        },
      });
    }
  },
};

/**
 * Takes the shop's retention run if it is due (its row moved a day on, its version raised); answers the
 * version it now holds, or null when it is not due or another process took it.
 */
async function claimRun(db: Db, shop: string, now: Date): Promise<number | null> {
  const later = new Date(now.getTime() + LOOK_AGAIN_MS);
  const row = await db.shopSchedule.findUnique({
    where: { shop_kind: { shop, kind: PERSONAL_DATA_KIND } },
    select: { nextRunAt: true, version: true },
  });
  if (!row) {
    try {
      const created = await db.shopSchedule.create({
        data: { shop, kind: PERSONAL_DATA_KIND, nextRunAt: later },
        select: { version: true },
      });
      return created.version;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }
  if (row.nextRunAt > now) return null;
  const { count } = await db.shopSchedule.updateMany({
    where: { shop, kind: PERSONAL_DATA_KIND, version: row.version },
    data: { nextRunAt: later, version: { increment: 1 } },
  });
  return count ? row.version + 1 : null;
}

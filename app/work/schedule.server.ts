// Scheduled work as due rows (ShopSchedule): a kind of work that runs for a shop at a time rather than for
// rows of its own (re-mapping after a settings change today; status polling, stock and reference data
// next). The row holds when the run is due and where the last one stopped, so a restart loses nothing.
import type { Db } from "../db.server";
import { isUniqueViolation } from "../db.server";
import { NOTHING, WORK, type ShopWork, type StepResult, type WorkKind } from "./steps.server";

/** What a scheduled run answers: when it is due again (null: not until asked), and where it stopped. */
export interface ScheduledRun {
  nextRunAt: Date | null;
  /** Where to go on from next time (the step's own text); null starts afresh. */
  cursor?: string | null;
  /**
   * What kept this run from doing its work, for the merchant's pages (kept as the row's lastError), when
   * the kind handles the failure itself rather than throwing: a warehouse that did not answer, say.
   */
  problem?: string;
}

export interface Schedule {
  nextRunAt: Date;
  cursor: string | null;
}

/** After a run that threw, the schedule is tried again this much later, with its error kept on the row. */
export const SCHEDULE_RETRY_MS = 60_000;

/**
 * Asks for a run of `kind` for the shop at `at` or sooner. Bumps the row's version even when it is due
 * sooner already, so a run that is out now cannot write its own next time over this request. `cursor`: what
 * the run is asked to do (a kind's own text, such as the merchant's "now"), written in the same statement, so
 * no run can start between the time and the cursor and take the one without the other.
 */
export async function requestRun(
  db: Db,
  shop: string,
  kind: string,
  at: Date,
  options: { cursor?: string } = {},
): Promise<void> {
  const cursor = options.cursor === undefined ? {} : { cursor: options.cursor };
  for (let attempt = 0; attempt < 3; attempt++) {
    const sooner = await db.shopSchedule.updateMany({
      where: { shop, kind, nextRunAt: { gt: at } },
      data: { nextRunAt: at, version: { increment: 1 }, ...cursor },
    });
    if (sooner.count) return;
    // Only a row already due by `at`: a row created since the look above (by a request for later) would
    // otherwise keep its later time, and this request would be lost.
    const bumped = await db.shopSchedule.updateMany({
      where: { shop, kind, nextRunAt: { lte: at } },
      data: { version: { increment: 1 }, ...cursor },
    });
    if (bumped.count) return;
    try {
      await db.shopSchedule.create({ data: { shop, kind, nextRunAt: at, ...cursor } });
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error(`the ${kind} schedule of ${shop} kept changing while a run was requested`);
}

/**
 * Whether a row may run up to `earlyMs` before its time: only when its last run finished well and set its
 * next a whole period ahead. Never a retry after a failure, nor a run put off for a moment (orders first, a
 * page's pause, a merchant's request), which keep the pace their run chose: run early, each would only put
 * itself off again, pass after pass.
 */
export function mayRunEarly(
  row: { nextRunAt: Date; lastRunAt: Date | null; lastError: string | null },
  earlyMs: number,
): boolean {
  return (
    earlyMs > 0 &&
    row.lastError === null &&
    row.lastRunAt !== null &&
    row.nextRunAt.getTime() - row.lastRunAt.getTime() > earlyMs
  );
}

/**
 * A kind of work driven by its schedule row: `run` is called when the row is due, and its answer is
 * written back only if nobody asked for another run meanwhile (then the request's time stands).
 */
export function scheduledKind(
  name: string,
  run: (work: ShopWork, schedule: Schedule) => Promise<ScheduledRun | StepResult>,
  options: {
    retryMs?: number;
    /**
     * A poll that may run this much before its time when a pass of the shop's steps runs anyway (for
     * another kind's work): it then runs with that pass instead of waking the shop for a pass of its own a
     * few minutes later. Its next time counts from when it ran, so once it has run with another kind's
     * pass the two stay in step. It never starts a pass early: its due time, for the sweep and for the
     * loop's wake, stays the row's.
     */
    earlyMs?: number;
  } = {},
): WorkKind {
  const retryMs = options.retryMs ?? SCHEDULE_RETRY_MS;
  const earlyMs = options.earlyMs ?? 0;
  const rowOf = async (work: ShopWork) =>
    work.scheduleRows
      ? (await work.scheduleRows()).get(name)
      : await work.db.shopSchedule.findUnique({ where: { shop_kind: { shop: work.shop, kind: name } } });
  return {
    name,
    async dueShops(db, now) {
      const rows = await db.shopSchedule.findMany({
        where: { kind: name, nextRunAt: { lte: now } },
        select: { shop: true },
      });
      return rows.map((row) => row.shop);
    },
    async open(work) {
      const { db, shop } = work;
      return {
        async run() {
          const row = await rowOf(work);
          if (!row) return NOTHING;
          const early = mayRunEarly(row, earlyMs) ? earlyMs : 0;
          if (row.nextRunAt.getTime() > work.clock().getTime() + early) return NOTHING;
          let outcome: ScheduledRun | StepResult;
          let lastError: string | null = null;
          try {
            outcome = await run(work, { nextRunAt: row.nextRunAt, cursor: row.cursor });
          } catch (error) {
            lastError = error instanceof Error ? error.message : String(error);
            work.log.error(
              { event: "schedule.run_failed", kind: name, err: error },
              "a scheduled run failed; it is tried again later",
            );
            outcome = { nextRunAt: new Date(work.clock().getTime() + retryMs), cursor: row.cursor };
          }
          if ("did" in outcome) return outcome;
          lastError ??= outcome.problem ?? null;
          const now = work.clock();
          const written = { lastRunAt: now, lastError, version: { increment: 1 } };
          const cursor = outcome.cursor === undefined ? {} : { cursor: outcome.cursor };
          const unchanged = { shop, kind: name, version: row.version };
          const { count } =
            outcome.nextRunAt === null
              ? await db.shopSchedule.deleteMany({ where: unchanged })
              : await db.shopSchedule.updateMany({
                  where: unchanged,
                  data: { ...written, ...cursor, nextRunAt: outcome.nextRunAt },
                });
          // Asked for again while this run was out: the request's time stands. So does a cursor the request
          // wrote (the merchant's "now" a kind reads from it): this run's goes only where the cursor is still
          // the one it read.
          if (count === 0) {
            const { count: moved } = await db.shopSchedule.updateMany({
              where: { shop, kind: name, cursor: row.cursor },
              data: { ...written, ...cursor },
            });
            if (moved === 0) await db.shopSchedule.updateMany({ where: { shop, kind: name }, data: written });
          }
          return WORK;
        },
        async nextDueAt(last) {
          const row = await rowOf(work);
          if (!row) return null;
          // A run that waits (for the rate limits) leaves its row due: it is due again when the wait ends,
          // or the loop would run it over and over until then.
          const waited = last.did === "wait" ? last.until.getTime() : 0;
          return Math.max(row.nextRunAt.getTime(), waited);
        },
      };
    },
  };
}

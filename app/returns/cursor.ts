// Where the returns sweep stands, kept in its schedule row's cursor: the pass under way (a period of Kyiv
// dates and a page), how far the last sweep reached, and the pages the warehouse refused that the sweep moved
// past, each tried again on its own, less often each time, until read or given up. Pure: the sweep's step
// (work.server.ts) and the Returns page's overview read and write it.
import { z } from "zod";
import type { Message } from "../i18n/message";
import { writeTexts } from "../i18n/texts";
import { toCompactDate } from "../warehouse/dates";
import { DATE_FORMAT } from "../warehouse/wire";

/**
 * The first sweep goes back 60 days: long enough for the returns of every order still in a buyer's return
 * window (14 days in Ukrainian law, plus carriage back and the warehouse's booking), short enough to stay a
 * few pages for a shop of any size.
 */
export const FIRST_SWEEP_DAYS = 60;

/** Each sweep starts this many days before the last one ended: the warehouse may book a return late. */
export const OVERLAP_DAYS = 3;

/** A shop whose sweeps stopped for long (no key, paused) goes back at most this far. */
export const LONGEST_SWEEP_DAYS = 366;

const compactDate = z.string().regex(DATE_FORMAT.compactDate);

/**
 * A page the warehouse refused (a 4xx, an answer it cannot make, or a failure that came back on the same
 * page SAME_PAGE_FAILURES times). The sweep moves past it, so newer pages are never held up by it; it is
 * kept here, shown on the Returns page, and tried again on its own with a growing wait, until it is read or
 * SKIPPED_PAGE_TRIES tries have failed (then it stays shown, no longer tried).
 */
const skippedPageSchema = z.object({
  from: compactDate,
  to: compactDate,
  page: z.number().int().min(1).max(100_000),
  /** When the warehouse first refused it. */
  since: z.iso.datetime(),
  /** Refusals so far, counting the sweep's own. */
  tries: z.number().int().min(1).max(1_000),
  /** The next try; null once given up. */
  nextTryAt: z.iso.datetime().nullable(),
  /**
   * The last refusal in the merchant's words: a Message list (writeTexts, read back with readTexts); an
   * older cursor's English (as the client put it) reads as those words.
   */
  error: z.string().max(2_000),
});
export type SkippedPage = z.infer<typeof skippedPageSchema>;

/** Where the sweep stands, kept as the schedule row's cursor. */
const cursorSchema = z.object({
  /** The last Kyiv date a finished sweep covered. */
  sweptTo: compactDate.nullable(),
  /** The sweep under way: its period and the next page. */
  pass: z
    .object({
      from: compactDate,
      to: compactDate,
      page: z.number().int().min(1).max(100_000),
      /** Failures the warehouse may recover from, on this page, in a row. */
      failures: z.number().int().min(0).max(1_000).default(0),
      /** Whether the page before this one was refused and skipped. */
      afterSkip: z.boolean().default(false),
    })
    .nullable(),
  /** Pages refused and moved past (oldest first; at most SKIPPED_PAGES_KEPT). */
  skipped: z.array(skippedPageSchema).max(100).default([]),
});
export type ReturnsCursor = z.infer<typeof cursorSchema>;
export type Pass = NonNullable<ReturnsCursor["pass"]>;

/** A failure the warehouse may recover from (5xx, a timeout) that comes back this many times on one page skips it. */
export const SAME_PAGE_FAILURES = 3;
/** A skipped page is tried again this long after its first refusal, then twice as long each time... */
export const SKIPPED_PAGE_FIRST_RETRY_MS = 30 * 60_000;
/** ... up to this long between tries... */
export const SKIPPED_PAGE_LONGEST_WAIT_MS = 24 * 3_600_000;
/** ... and at most this many tries in all (some four days), after which it is shown as given up. */
export const SKIPPED_PAGE_TRIES = 8;
/** At most this many skipped pages are kept; past it, those given up go first, then the oldest. */
export const SKIPPED_PAGES_KEPT = 20;

/** The stored cursor; anything unreadable starts afresh (a first sweep). */
export function readCursor(stored: string | null): ReturnsCursor {
  try {
    const parsed = cursorSchema.safeParse(stored ? JSON.parse(stored) : null);
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: afresh.
  }
  return { sweptTo: null, pass: null, skipped: [] };
}

export const samePage = (a: { from: string; to: string; page: number }, b: typeof a) =>
  a.from === b.from && a.to === b.to && a.page === b.page;

/** The wait after `tries` refusals of a skipped page: doubling from the first, bounded. */
export function skippedPageWait(tries: number): number {
  return Math.min(SKIPPED_PAGE_FIRST_RETRY_MS * 2 ** Math.max(0, tries - 1), SKIPPED_PAGE_LONGEST_WAIT_MS);
}

/** The list with this page's refusal counted (a page refused before is the same entry), bounded. */
export function withRefusal(
  skipped: readonly SkippedPage[],
  page: { from: string; to: string; page: number },
  error: Message,
  now: Date,
): SkippedPage[] {
  const before = skipped.find((entry) => samePage(entry, page));
  const tries = (before?.tries ?? 0) + 1;
  const givenUp = (before && before.nextTryAt === null) || tries >= SKIPPED_PAGE_TRIES;
  const entry: SkippedPage = {
    from: page.from,
    to: page.to,
    page: page.page,
    since: before?.since ?? now.toISOString(),
    tries,
    nextTryAt: givenUp ? null : new Date(now.getTime() + skippedPageWait(tries)).toISOString(),
    // The warehouse's own words bounded, so the stored list stays within the cursor's bound.
    error: writeTexts([error.said === undefined ? error : { ...error, said: error.said.slice(0, 1_000) }])!,
  };
  const list = [...skipped.filter((other) => !samePage(other, page)), entry];
  while (list.length > SKIPPED_PAGES_KEPT) {
    const givenUpIndex = list.findIndex((other) => other.nextTryAt === null && other !== entry);
    list.splice(givenUpIndex >= 0 ? givenUpIndex : 0, 1);
  }
  return list;
}

/** The skipped page due for a try at `now`, if any (the longest due first). */
export function dueSkipped(skipped: readonly SkippedPage[], now: Date): SkippedPage | undefined {
  return skipped
    .filter((entry) => entry.nextTryAt !== null && Date.parse(entry.nextTryAt) <= now.getTime())
    .sort((a, b) => Date.parse(a.nextTryAt!) - Date.parse(b.nextTryAt!))[0];
}

/** When the next skipped page is due (null: none is waiting for a try). */
export function nextSkippedAt(skipped: readonly SkippedPage[]): number | null {
  const times = skipped.flatMap((entry) => (entry.nextTryAt ? [Date.parse(entry.nextTryAt)] : []));
  return times.length ? Math.min(...times) : null;
}

/** `YYYYMMDD` moved by `days` (calendar days; a compact date names a day, not an instant). */
export function addDays(compact: string, days: number): string {
  const at =
    Date.UTC(+compact.slice(0, 4), +compact.slice(4, 6) - 1, +compact.slice(6, 8)) + days * 86_400_000;
  return new Date(at).toISOString().slice(0, 10).replaceAll("-", "");
}

/** The period of a new sweep: from a little before where the last one ended (or FIRST_SWEEP_DAYS) to today. */
export function nextPass(sweptTo: string | null, now: Date): Pass {
  const today = toCompactDate(now);
  const earliest = addDays(today, -LONGEST_SWEEP_DAYS);
  const wanted = sweptTo ? addDays(sweptTo, -OVERLAP_DAYS) : addDays(today, -FIRST_SWEEP_DAYS);
  const from = wanted < earliest ? earliest : wanted > today ? today : wanted;
  return { from, to: today, page: 1, failures: 0, afterSkip: false };
}

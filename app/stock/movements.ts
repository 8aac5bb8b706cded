// A SKU's goods movements over a period (ReportMoveProduct) as the SKU view shows them: the period the
// merchant asks for in Kyiv dates and what the warehouse is asked for, each movement's moment read from the
// warehouse's text, quantities in and out, the balance after each movement and before the first one.
import { z } from "zod";
import type { MovementRow } from "../warehouse/schemas";
import { kyivDay, kyivInstant } from "../warehouse/dates";

/** The period shown when none is asked for: the last 30 days up to today, in Kyiv. */
export const DEFAULT_PERIOD_DAYS = 30;
/**
 * The longest period the page asks for. ReportMoveProduct answers one unpaged list with every movement of
 * the period; a year (with its leap day) answers "what happened to this SKU since the same day last year"
 * while keeping one answer of a busy SKU to a few thousand rows rather than every row since it arrived.
 */
export const MAX_PERIOD_DAYS = 366;
/** The rows the page's table and chart show at most (the newest); the CSV has every row. */
export const MAX_ROWS_SHOWN = 500;
/** The most rows one CSV carries, so that a runaway answer cannot make a runaway file. */
export const MAX_CSV_ROWS = 100_000;
/** A SKU as long as the warehouse's card takes it, and then some; anything longer is no SKU of ours. */
export const MAX_SKU_LENGTH = 255;

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2026-03-14" as UTC midnight (ms), or null for text that names no day. */
function dayNumber(date: string): number | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day)
    return null;
  return ms;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface Period {
  /** First and last day, both included, Kyiv dates "YYYY-MM-DD". */
  from: string;
  to: string;
}

/** The last DEFAULT_PERIOD_DAYS days up to and including today in Kyiv. */
export function defaultPeriod(now: Date): Period {
  const to = kyivDay(now);
  return { from: isoDay(dayNumber(to)! - (DEFAULT_PERIOD_DAYS - 1) * DAY_MS), to };
}

/** Why a period is refused, by field: each a key of the `stock` namespace (with values) for the page. */
export type PeriodProblem =
  | { field: "from" | "to"; key: "sku.period.notDate" }
  | { field: "to"; key: "sku.period.reversed" }
  | { field: "to"; key: "sku.period.tooLong"; max: number };

const dateText = z.string().trim().max(20);

/** What the SKU view's query carries; every field optional, since a plain link names the SKU alone. */
export const skuQuerySchema = z.object({
  sku: z.string().trim().min(1).max(MAX_SKU_LENGTH),
  from: dateText.optional(),
  to: dateText.optional(),
});

/** The SKU page's query (`?sku=&from=&to=`), as the page and its CSV read it. */
export function readSkuQuery(params: URLSearchParams) {
  return skuQuerySchema.safeParse({
    sku: params.get("sku") ?? "",
    from: params.get("from") ?? undefined,
    to: params.get("to") ?? undefined,
  });
}

/**
 * The period a query asks for: the default when it names neither end, one end missing taken from the
 * default, refused (with the field and why) when a date is not a date, the period runs backwards, or it is
 * longer than MAX_PERIOD_DAYS.
 */
export function readPeriod(
  query: { from?: string | undefined; to?: string | undefined },
  now: Date,
): { ok: true; period: Period } | { ok: false; period: Period; problems: PeriodProblem[] } {
  const fallback = defaultPeriod(now);
  const from = query.from || fallback.from;
  const to = query.to || fallback.to;
  const asked = { from, to };
  const problems: PeriodProblem[] = [];
  const start = dayNumber(from);
  const end = dayNumber(to);
  if (start === null) problems.push({ field: "from", key: "sku.period.notDate" });
  if (end === null) problems.push({ field: "to", key: "sku.period.notDate" });
  if (start !== null && end !== null) {
    if (start > end) problems.push({ field: "to", key: "sku.period.reversed" });
    else if ((end - start) / DAY_MS + 1 > MAX_PERIOD_DAYS)
      problems.push({ field: "to", key: "sku.period.tooLong", max: MAX_PERIOD_DAYS });
  }
  return problems.length ? { ok: false, period: asked, problems } : { ok: true, period: asked };
}

/** The period as ReportMoveProduct takes it: from the first day's 00:00:00 to the last day's 23:59:59. */
export function moveProductPeriod(period: Period): { dataStart: string; dataFinish: string } {
  const compact = (date: string) => date.replaceAll("-", "");
  return { dataStart: `${compact(period.from)}000000`, dataFinish: `${compact(period.to)}235959` };
}

// The moment of a movement: the warehouse's 1C prints "14.03.2026 10:15:02" (the simulator too); the
// field is not documented, so ISO ("2026-03-14T10:15:02") and the compact request form are read as well.
const MOMENT_PATTERNS: Array<{ pattern: RegExp; order: [number, number, number] }> = [
  { pattern: /^(\d{2})\.(\d{2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/, order: [3, 2, 1] },
  { pattern: /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/, order: [1, 2, 3] },
  { pattern: /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/, order: [1, 2, 3] },
];

export interface MovementMoment {
  /** Kyiv wall clock, "2026-03-14 10:15:02"; null when the warehouse's text could not be read. */
  kyiv: string | null;
  /** The instant (ISO), for the chart's order; null when unread. */
  at: string | null;
}

/** The warehouse's Period text read as a Kyiv moment. */
export function readMoment(period: string): MovementMoment {
  const text = period.trim();
  for (const { pattern, order } of MOMENT_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const year = Number(match[order[0]]);
    const month = Number(match[order[1]]);
    const day = Number(match[order[2]]);
    const dayMs = dayNumber(`${match[order[0]]}-${match[order[1]]}-${match[order[2]]}`);
    // The compact form's hour is match 4 too, as for the others.
    const [hour, minute, second] = [match[4], match[5], match[6]].map((part) => Number(part ?? 0)) as [
      number,
      number,
      number,
    ];
    if (dayMs === null || hour > 23 || minute > 59 || second > 59) return { kyiv: null, at: null };
    // The wall-clock time as an instant, daylight saving included (on the two days it changes, a day's
    // start plus its hours would be an hour off).
    const at = kyivInstant(year, month, day, hour, minute, second);
    const pad = (value: number) => String(value).padStart(2, "0");
    return {
      kyiv: `${isoDay(dayMs)} ${pad(hour)}:${pad(minute)}:${pad(second)}`,
      at: at.toISOString(),
    };
  }
  return { kyiv: null, at: null };
}

export interface MovementLine {
  /** The warehouse's own text of the moment, shown when it could not be read. */
  period: string;
  moment: MovementMoment;
  document: string;
  /** Signed as the warehouse gives it; split for the table's in and out columns. */
  quantity: number;
  received: number;
  issued: number;
  /** The balance after this movement. */
  balance: number;
}

export interface MovementReport {
  /** Every movement of the period, in the warehouse's order. */
  lines: MovementLine[];
  /** The balance before the first movement of the period: its balance after, less its quantity. */
  openingBalance: number | null;
  closingBalance: number | null;
  totalIn: number;
  totalOut: number;
}

/**
 * The warehouse's rows for one SKU as the page's lines. A row naming another SKU (ReportMoveProduct's
 * rows may carry `sku`) is dropped: the page is about this SKU alone, whatever the warehouse answered.
 */
export function movementReport(rows: readonly MovementRow[], sku: string): MovementReport {
  const lines = rows
    .filter((row) => typeof row.sku !== "string" || row.sku === sku)
    .map((row): MovementLine => ({
      period: row.Period,
      moment: readMoment(row.Period),
      document: row.MovementDoc,
      quantity: row.Quantity,
      received: row.Quantity > 0 ? row.Quantity : 0,
      issued: row.Quantity < 0 ? -row.Quantity : 0,
      balance: row.EndingBalance,
    }));
  const first = lines[0];
  const last = lines.at(-1);
  return {
    lines,
    openingBalance: first ? first.balance - first.quantity : null,
    closingBalance: last ? last.balance : null,
    totalIn: lines.reduce((sum, line) => sum + line.received, 0),
    totalOut: lines.reduce((sum, line) => sum + line.issued, 0),
  };
}

/** The lines the page shows: the newest MAX_ROWS_SHOWN (the balance now matters most), and how many not. */
export function shownLines<T>(lines: readonly T[], max = MAX_ROWS_SHOWN): { shown: T[]; hidden: number } {
  const hidden = Math.max(0, lines.length - max);
  return { shown: lines.slice(hidden), hidden };
}

/** The period's movements as CSV rows (header first), every row up to MAX_CSV_ROWS. */
export function movementCsvRows(sku: string, report: MovementReport): Array<Array<string | number>> {
  const rows: Array<Array<string | number>> = [["sku", "date", "document", "quantity", "balance"]];
  for (const line of report.lines.slice(0, MAX_CSV_ROWS)) {
    rows.push([sku, line.moment.kyiv ?? line.period, line.document, line.quantity, line.balance]);
  }
  return rows;
}

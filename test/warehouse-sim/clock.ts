// The simulator's own clock (real time plus an offset, or frozen) and the warehouse's Kyiv-time date
// formats, so rate windows, stage delays and every date on the wire move together when a test moves time.

export type Instant = number | string | Date;

export function toMillis(at: Instant): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === "string" ? Date.parse(at) : at;
  if (!Number.isFinite(ms)) throw new Error(`Not an instant: ${String(at)}`);
  return ms;
}

export class SimulatorClock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(options: { startAt?: Instant; frozenAt?: Instant } = {}) {
    if (options.startAt !== undefined) this.offsetMs = toMillis(options.startAt) - Date.now();
    if (options.frozenAt !== undefined) this.frozenAt = toMillis(options.frozenAt);
  }

  now(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  /** Moves time forward; the simulator then runs every stage change that fell due, in time order. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`Cannot advance the clock by ${ms} ms`);
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
    this.changed();
    return this.now();
  }

  set(at: Instant): number {
    const ms = toMillis(at);
    if (this.frozenAt !== null) this.frozenAt = ms;
    else this.offsetMs = ms - Date.now();
    this.changed();
    return ms;
  }

  freeze(at: Instant = this.now()): number {
    this.frozenAt = toMillis(at);
    this.changed();
    return this.frozenAt;
  }

  /** Time runs on from the frozen instant. */
  unfreeze(): number {
    if (this.frozenAt !== null) {
      this.offsetMs = this.frozenAt - Date.now();
      this.frozenAt = null;
    }
    this.changed();
    return this.now();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

// ---------------------------------------------------------------------------------------------------
// Kyiv wall time. The warehouse is a 1C system in Kyiv: its dates are local, with daylight saving.

const KYIV = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Kyiv",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});
const HOUR_MS = 3_600_000;
// Kyiv's offset changes only on whole UTC hours, so one lookup per hour is exact and keeps formatting cheap.
const offsetByHour = new Map<number, number>();

function kyivOffsetMs(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const at = hour * HOUR_MS;
    const part = Object.fromEntries(KYIV.formatToParts(at).map(({ type, value }) => [type, Number(value)]));
    offset = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!) - at;
    if (offsetByHour.size > 10_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

export interface KyivTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function kyivTime(ms: number): KyivTime {
  const local = new Date(ms + kyivOffsetMs(ms));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** `DD.MM.YYYY`, as date_order and the dates inside document names. */
export function formatDate(ms: number): string {
  const t = kyivTime(ms);
  return `${pad(t.day)}.${pad(t.month)}.${pad(t.year, 4)}`;
}

/** `DD.MM.YYYY HH:MM:SS`, as 1C prints a moment: movement periods and status dates. */
export function formatMoment(ms: number): string {
  const t = kyivTime(ms);
  return `${formatDate(ms)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/** `YYYYMMDD`, comparable as text with the ListOrder period parameters. */
export function compactDate(ms: number): string {
  const t = kyivTime(ms);
  return `${pad(t.year, 4)}${pad(t.month)}${pad(t.day)}`;
}

/** `YYYYMMDDHHMMSS`, comparable as text with the ReportMoveProduct period parameters. */
export function compactDateTime(ms: number): string {
  const t = kyivTime(ms);
  return `${compactDate(ms)}${pad(t.hour)}${pad(t.minute)}${pad(t.second)}`;
}

/** True when year, month and day name a day that exists (31.02 matches the wire pattern but is no date). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

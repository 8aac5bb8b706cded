// Calendar days in a time zone as instants: where each of the last N days of the shop begins and ends,
// so orders are counted by the day the merchant lives them, a day being 23 or 25 hours long across a
// daylight-saving change.
import { wallClock } from "../warehouse/dates";

export interface ShopDay {
  /** "2026-03-29", the day's date in the shop's zone. */
  date: string;
  /** Its first instant and the next day's first (ms since the epoch). */
  start: number;
  end: number;
}

/** The wall-clock date and time in the zone, as if it were UTC (ms). */
function wallClockMs(instant: number, timeZone: string): number {
  const wall = wallClock(new Date(instant), timeZone);
  return Date.UTC(
    Number(wall.year),
    Number(wall.month) - 1,
    Number(wall.day),
    Number(wall.hour),
    Number(wall.minute),
    Number(wall.second),
  );
}

/** The instant the zone's clocks read midnight of this date (the first instant of the day). */
export function startOfDay(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  let guess = wall;
  // Twice: the offset at the first guess may differ from the offset at the answer by a DST change.
  for (let i = 0; i < 2; i++) guess = wall - (wallClockMs(guess, timeZone) - guess);
  return guess;
}

/** The last `count` days of the shop up to and including the one `now` falls in, oldest first. */
export function lastDays(now: Date, timeZone: string, count: number): ShopDay[] {
  const today = new Date(wallClockMs(now.getTime(), timeZone));
  const days: ShopDay[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - back));
    const next = new Date(date.getTime() + 86_400_000);
    days.push({
      date: date.toISOString().slice(0, 10),
      start: startOfDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), timeZone),
      end: startOfDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone),
    });
  }
  return days;
}

// The warehouse writes dates three ways, all in Kyiv's wall-clock time: DD.MM.YYYY (orders, inbound
// deliveries), YYYYMMDD (the registers) and YYYYMMDDHHMMSS (goods movement).

export const WAREHOUSE_TIME_ZONE = "Europe/Kyiv";

interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of an instant in a time zone (Kyiv by default), zero-padded. */
export function wallClock(instant: Date, timeZone: string = WAREHOUSE_TIME_ZONE): WallClock {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** The day in Kyiv (the warehouse's day), `YYYY-MM-DD`. */
export function kyivDay(instant: Date): string {
  const { year, month, day } = wallClock(instant);
  return `${year}-${month}-${day}`;
}

/** `DD.MM.YYYY`: 23:30 UTC on 31 December is already 01.01 in Kyiv. */
export function toDayMonthYear(instant: Date, timeZone?: string): string {
  const { day, month, year } = wallClock(instant, timeZone);
  return `${day}.${month}.${year}`;
}

/** `YYYYMMDD` */
export function toCompactDate(instant: Date, timeZone?: string): string {
  const { day, month, year } = wallClock(instant, timeZone);
  return `${year}${month}${day}`;
}

/** `YYYYMMDDHHMMSS` */
export function toCompactDateTime(instant: Date, timeZone?: string): string {
  const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
  return `${year}${month}${day}${hour}${minute}${second}`;
}

/** The instant of a Kyiv wall-clock time (the warehouse's dates are Kyiv's, with daylight saving). */
export function kyivInstant(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): Date {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Kyiv is ahead of UTC by two or three hours: guess, then correct by the offset at the guess.
  let instant = asUtc;
  for (let pass = 0; pass < 2; pass++) {
    const wall = wallClock(new Date(instant));
    const wallMs = Date.UTC(+wall.year, +wall.month - 1, +wall.day, +wall.hour, +wall.minute, +wall.second);
    instant += asUtc - wallMs;
  }
  return new Date(instant);
}

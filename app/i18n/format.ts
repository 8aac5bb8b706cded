// Dates, numbers and money as the merchant reads them in their language, and always in the shop's time
// zone: the server and the browser then render the same text, whatever the machines' own zones.
import { INTL_TAG, type Locale } from "./locales";

export interface Formatter {
  locale: Locale;
  /** "14 бер. 2026 р., 10:15" / "14 Mar 2026, 10:15". */
  dateTime(value: Date | string | number): string;
  /** "14 бер. 2026 р." / "14 Mar 2026". */
  date(value: Date | string | number): string;
  /** "10 000" / "10,000"; fractions as given, at most two digits. */
  number(value: number): string;
  /** "1 250,00 ₴" / "UAH 1,250.00". */
  money(amount: number | string, currencyCode: string): string;
  /** "45%", from a share between 0 and 1. */
  percent(share: number): string;
}

export function createFormatter(locale: Locale, timeZone: string): Formatter {
  const tag = INTL_TAG[locale];
  const dateTime = new Intl.DateTimeFormat(tag, {
    timeZone,
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  const date = new Intl.DateTimeFormat(tag, { timeZone, day: "numeric", month: "short", year: "numeric" });
  const number = new Intl.NumberFormat(tag, { maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 0 });
  const money = new Map<string, Intl.NumberFormat>();
  return {
    locale,
    dateTime: (value) => dateTime.format(new Date(value)),
    date: (value) => date.format(new Date(value)),
    number: (value) => number.format(value),
    money(amount, currencyCode) {
      let format = money.get(currencyCode);
      if (!format) {
        format = new Intl.NumberFormat(tag, { style: "currency", currency: currencyCode });
        money.set(currencyCode, format);
      }
      return format.format(Number(amount));
    },
    percent: (share) => percent.format(share),
  };
}

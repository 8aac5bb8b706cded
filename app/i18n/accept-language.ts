// The language of a page seen outside the admin (the public landing page), from the browser's
// Accept-Language header: the first language by the visitor's preference that we speak, else English.
import { z } from "zod";
import { DEFAULT_LOCALE, supportedLocale, type Locale } from "./locales";

/** A header is short; a longer one is not a browser's and is not read. */
const MAX_HEADER = 1_000;

/** One entry: a language tag (or "*") and an optional weight, "uk-UA;q=0.9". */
const entrySchema = z
  .string()
  .trim()
  .transform((entry) => {
    const [tag = "", ...params] = entry.split(";").map((part) => part.trim());
    const q = params.find((param) => /^q=/i.test(param))?.slice(2);
    return { tag, q: q === undefined ? 1 : Number(q) };
  })
  .pipe(
    z.object({
      tag: z.string().regex(/^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/),
      q: z.number().min(0).max(1),
    }),
  );

export interface LanguagePreference {
  tag: string;
  q: number;
}

/** The entries of the header by the visitor's preference (highest weight first, ties in order); bad ones dropped. */
export function parseAcceptLanguage(header: string | null | undefined): LanguagePreference[] {
  const parsed = z
    .string()
    .max(MAX_HEADER)
    .safeParse(header ?? "");
  if (!parsed.success) return [];
  const entries: LanguagePreference[] = [];
  for (const part of parsed.data.split(",")) {
    if (!part.trim()) continue;
    const entry = entrySchema.safeParse(part);
    if (entry.success) entries.push(entry.data);
  }
  // Array.prototype.sort is stable: equal weights keep the header's order.
  return entries.sort((a, b) => b.q - a.q);
}

/** The first language the visitor accepts (weight above 0) that we speak; English when none. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  for (const { tag, q } of parseAcceptLanguage(header)) {
    if (q <= 0) continue;
    const locale = supportedLocale(tag === "*" ? null : tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

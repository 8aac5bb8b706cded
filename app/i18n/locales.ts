// The admin's languages, and how one is chosen for a request. No React and no i18next here, so that the
// server's loaders and the tests can use it alone.

export const LOCALES = ["en", "uk"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** The BCP 47 tag Intl formats with: Ukrainian as written in Ukraine; English with day-month dates. */
export const INTL_TAG: Record<Locale, string> = { en: "en-GB", uk: "uk-UA" };

/** "uk", "uk-UA", "UK_ua" → "uk"; a language the admin does not speak here → null. */
export function supportedLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const language = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : null;
}

/**
 * The admin's own language when Shopify passes one we speak (the `locale` of the embedded URL), else the
 * shop's primary language, else English.
 */
export function chooseLocale(
  adminLocale: string | null | undefined,
  shopLocale: string | null | undefined,
): Locale {
  return supportedLocale(adminLocale) ?? supportedLocale(shopLocale) ?? DEFAULT_LOCALE;
}

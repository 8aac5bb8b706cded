// Polaris's own words (a badge's tone read to a screen reader, "More actions", pagination) in the admin's
// language. Polaris ships no Ukrainian: the words the app's pages can show are translated here, and
// Polaris's English fills in any other (a list of dictionaries: the first that has a key wins).
import englishTexts from "@shopify/polaris/locales/en.json";
import type { Locale } from "./locales";
import ukrainianTexts from "./polaris-uk.json";

export function polarisTexts(locale: Locale) {
  return locale === "uk" ? [ukrainianTexts, englishTexts] : englishTexts;
}

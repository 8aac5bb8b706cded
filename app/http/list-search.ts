// A list's search as its URL carries it (`?search=`), one rule for the Orders, Returns and Inbound
// deliveries lists: trimmed, at most MAX_SEARCH_LENGTH characters, and empty or unusable read as none.
import { z } from "zod";

export const MAX_SEARCH_LENGTH = 100;

export const listSearchSchema = z
  .string()
  .trim()
  .max(MAX_SEARCH_LENGTH)
  .optional()
  .catch(undefined)
  .transform((search) => search || undefined);

/**
 * The text as typed, in lower case and in upper case. `contains` minds case on PostgreSQL and not on SQLite
 * (for Latin letters), and PostgreSQL's `mode: "insensitive"` is refused by SQLite's client: searching for
 * the three finds "ua-1042" in "UA-1042" on both.
 */
export function caseVariants(text: string): string[] {
  return [...new Set([text, text.toLowerCase(), text.toUpperCase()])];
}

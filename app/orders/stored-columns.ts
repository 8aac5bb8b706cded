// The orders' stored JSON columns read back for the pages: hold reasons, the statuses the warehouse
// reported, a fulfillment problem, the items left unshipped. Each is parsed on its own, and a malformed one
// reads as empty (or as its plain words) rather than breaking the page.
import { z } from "zod";
import type { Message } from "../i18n/message";
import { StoredMessage } from "../i18n/texts";
import { CARRIER_REF_PATTERN } from "../warehouse/wire";
import { storedText } from "./words";

// A stored text's key and values; a malformed one is dropped, and its English words are shown instead.
const storedMessageSchema = StoredMessage.optional().catch(undefined);

const holdReasonSchema = z.object({
  code: z.string(),
  message: z.string(),
  fix: z.string().default(""),
  action: z.string().nullable().default(null),
  /** The message and the fix as keys (rows before them have only the English words). */
  text: storedMessageSchema,
  fixText: storedMessageSchema,
  /** A branch held for: the matcher's guesses (a malformed list is dropped, the search still works). */
  candidates: z
    .array(z.object({ ref: z.string(), label: z.string(), score: z.number() }))
    .max(3)
    .optional()
    .catch(undefined),
  /** A courier address held for: its city's carrier Ref (the order page searches its streets). */
  cityRef: z.string().regex(CARRIER_REF_PATTERN).optional().catch(undefined),
});
export type HoldReasonView = z.infer<typeof holdReasonSchema>;

export function parseJson(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

export function parseHoldReasons(text: string | null): HoldReasonView[] {
  const parsed = z.array(holdReasonSchema).safeParse(parseJson(text));
  return parsed.success ? parsed.data : [];
}

export function parseObject(text: string | null): Record<string, unknown> | null {
  const value = parseJson(text);
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** A status as the warehouse reported it (its own, or the carrier's), shown as it came. */
export interface ReportedStatus {
  id: string;
  name: string;
  /** As the warehouse wrote it ("02.03.2026 10:00:00"): its time zone is not said, so it is not converted. */
  date: string;
}

// Each field on its own, so one odd field does not lose the others; a status with neither id nor name (the
// carrier's before the parcel leaves) is no status.
const reportedStatusSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String).catch(""),
  name: z.string().catch(""),
  date: z.string().catch(""),
});

export function parseReportedStatus(text: string | null | undefined): ReportedStatus | null {
  const parsed = reportedStatusSchema.safeParse(parseJson(text));
  if (!parsed.success) return null;
  const status = { id: parsed.data.id.trim(), name: parsed.data.name.trim(), date: parsed.data.date.trim() };
  return status.id || status.name ? status : null;
}

/** A problem with the Shopify fulfillment that only the merchant can solve. */
export interface FulfillmentProblem {
  code: string | null;
  /** In English, for logs. */
  message: string;
  /** What the merchant reads; a problem stored before it had a key, as its English words. */
  text: Message;
}

const fulfillmentProblemSchema = z.object({
  code: z.string().nullable().catch(null).default(null),
  message: z.string().min(1),
  text: StoredMessage.optional().catch(undefined),
});

/** The stored problem: JSON `{code, message, text}`, or plain text kept as the message. */
export function parseFulfillmentProblem(text: string | null | undefined): FulfillmentProblem | null {
  if (!text?.trim()) return null;
  const parsed = fulfillmentProblemSchema.safeParse(parseJson(text));
  if (!parsed.success) return { code: null, message: text.trim(), text: storedText(text.trim()) };
  const { code, message } = parsed.data;
  return { code, message, text: parsed.data.text ?? storedText(message) };
}

/** An item the Shopify order still holds at the warehouse location that the warehouse did not ship. */
export interface UnshippedItem {
  sku: string | null;
  title: string;
  quantity: number;
}

const unshippedSchema = z.array(
  z.object({ sku: z.string().nullable(), title: z.string(), quantity: z.number().int().positive() }),
);

/** The stored list of what was left unshipped; empty when none is kept or it does not read. */
export function parseUnshipped(text: string | null | undefined): UnshippedItem[] {
  const parsed = unshippedSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : [];
}

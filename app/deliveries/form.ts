// The new delivery request form, read on the server: every field's problem as a sentence beside it, and
// nothing sent while any is left. The catalogue check of each SKU (known, its card at the warehouse) needs
// the database and is added by the service (deliveries.server.ts).
import { z } from "zod";
import { message, type Message } from "../i18n/message";
import { METHOD_LITERAL, type DeliveryMethod } from "./lines";

/**
 * The bounds of the form. The provider gives none for any field ([oa] shows plain strings); these keep out
 * what is plainly a mistake and keep one request's body small.
 */
export const DELIVERY_FORM_LIMITS = {
  /** Lines of one request: a pallet's worth of different SKUs, not a catalogue. */
  lines: 200,
  seats: 999,
  count: 100_000,
  /** The warehouse's staff read it: a few sentences. */
  comment: 500,
  /** How far ahead a delivery may be planned. */
  daysAhead: 365,
} as const;

/**
 * Nova Poshta's waybill (ЕН) is 14 digits (../shared/spec/shopify-notes.md: 11 seen only on old ones, and a
 * new delivery has a new waybill). Spaces, as the carrier prints it in groups, are taken out.
 */
export const NOVA_POSHTA_TTN = /^\d{14}$/;

/**
 * The request's number (`idRequest`), made when the form is shown and kept by it, so a second submit of the
 * same form names the same request. The provider gives no format ("Inbound delivery number", a string):
 * ours is IN- and ten letters and digits without look-alikes, short enough to read out on the phone.
 */
export const ID_REQUEST_PATTERN = /^IN-[0-9A-HJKMNP-TV-Z]{10}$/;
const ID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function newIdRequest(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `IN-${Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("")}`;
}

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The form as the page posts it (JSON); every value a string, so nothing is lost before it is read. */
export const deliveryFormInputSchema = z.object({
  idRequest: z.string().max(100),
  deliveryDate: z.string().max(100),
  method: z.string().max(100),
  seats: z.string().max(100),
  ttn: z.string().max(100),
  comment: z.string().max(10_000),
  lines: z.array(z.object({ sku: z.string().max(200), count: z.string().max(100) })).max(1_000),
});
export type DeliveryFormInput = z.infer<typeof deliveryFormInputSchema>;

export interface DeliveryForm {
  idRequest: string;
  deliveryDate: string;
  method: DeliveryMethod;
  methodLiteral: string;
  seats: number;
  ttn: string | null;
  comment: string | null;
  lines: { sku: string; count: number }[];
}

export type FieldErrors = Record<string, Message>;

const WHOLE = /^\d+$/;

/** A whole number from min to max, or undefined. */
function wholeNumber(text: string, min: number, max: number): number | undefined {
  const trimmed = text.trim();
  if (!WHOLE.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : undefined;
}

/**
 * The form, or each field's problem keyed by its name (`lines.2.count` for a line's). `today` is Kyiv's
 * date (kyivDay): a delivery is planned for today or later.
 */
export function readDeliveryForm(
  input: DeliveryFormInput,
  today: string,
): { ok: true; form: DeliveryForm } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const idRequest = input.idRequest.trim();
  if (!ID_REQUEST_PATTERN.test(idRequest)) errors.form = message("deliveries:form.error.stale");

  const deliveryDate = input.deliveryDate.trim();
  const latest = addDays(today, DELIVERY_FORM_LIMITS.daysAhead);
  if (!isCalendarDate(deliveryDate)) errors.deliveryDate = message("deliveries:form.error.date");
  else if (deliveryDate < today) errors.deliveryDate = message("deliveries:form.error.datePast");
  else if (deliveryDate > latest)
    errors.deliveryDate = message("deliveries:form.error.dateFar", { days: DELIVERY_FORM_LIMITS.daysAhead });

  const method = input.method in METHOD_LITERAL ? (input.method as DeliveryMethod) : undefined;
  if (!method) errors.method = message("deliveries:form.error.method");

  const seats = wholeNumber(input.seats, 1, DELIVERY_FORM_LIMITS.seats);
  if (seats === undefined)
    errors.seats = message("deliveries:form.error.seats", { max: DELIVERY_FORM_LIMITS.seats });

  const ttn = input.ttn.replace(/\s+/g, "");
  if (method === "novaPoshta") {
    if (!ttn) errors.ttn = message("deliveries:form.error.ttnRequired");
    else if (!NOVA_POSHTA_TTN.test(ttn)) errors.ttn = message("deliveries:form.error.ttn");
  }
  // Own transport has no waybill: the field is hidden then, and what it held is not sent.

  const comment = input.comment.trim();
  if (comment.length > DELIVERY_FORM_LIMITS.comment)
    errors.comment = message("deliveries:form.error.comment", { max: DELIVERY_FORM_LIMITS.comment });

  if (input.lines.length === 0) errors.lines = message("deliveries:form.error.noLines");
  else if (input.lines.length > DELIVERY_FORM_LIMITS.lines)
    errors.lines = message("deliveries:form.error.tooManyLines", { max: DELIVERY_FORM_LIMITS.lines });
  const lines: { sku: string; count: number }[] = [];
  const seen = new Set<string>();
  input.lines.slice(0, DELIVERY_FORM_LIMITS.lines).forEach((line, index) => {
    const sku = line.sku.trim();
    if (!sku) errors[`lines.${index}.sku`] = message("deliveries:form.error.skuMissing");
    else if (seen.has(sku)) errors[`lines.${index}.sku`] = message("deliveries:form.error.skuTwice", { sku });
    seen.add(sku);
    const count = wholeNumber(line.count, 1, DELIVERY_FORM_LIMITS.count);
    if (count === undefined)
      errors[`lines.${index}.count`] = message("deliveries:form.error.count", {
        max: DELIVERY_FORM_LIMITS.count,
      });
    if (sku && count !== undefined) lines.push({ sku, count });
  });

  if (Object.keys(errors).length > 0 || !method || seats === undefined) return { ok: false, errors };
  return {
    ok: true,
    form: {
      idRequest,
      deliveryDate,
      method,
      methodLiteral: METHOD_LITERAL[method],
      seats,
      ttn: method === "novaPoshta" ? ttn : null,
      comment: comment || null,
      lines,
    },
  };
}

// Ukrainian phone numbers as the warehouse wants them: `380` followed by nine digits.
// The full ("max") metadata is used because only it tells a mobile or fixed line from other number types.
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

const ACCEPTED_TYPES = new Set(["MOBILE", "FIXED_LINE", "FIXED_LINE_OR_MOBILE"]);

/**
 * `+380 67 123 45 67`, `067-123-45-67`, `(067)1234567`, `+38 (067) 123-45-67`, `80671234567`… →
 * `"380671234567"`; a foreign number, a Ukrainian number that is neither mobile nor fixed line, or
 * anything that is not a phone number → null.
 */
export function normaliseUkrainianPhone(raw: string): string | null {
  const text = raw.trim();
  if (!text) return null;
  const digits = text.replace(/\D/g, "");
  // The old trunk prefix: numbers were dialled 8-0XX-… inside the former USSR, and many people still
  // write `8 067 123 45 67` or `80671234567`. libphonenumber reads the leading 8 as part of the national
  // number (it gives the invalid +380 80671234567), so eleven digits `80` + nine are rewritten to the
  // international form first. Only without a leading `+`: `+80…` is an international number.
  const candidate = !text.startsWith("+") && /^80\d{9}$/.test(digits) ? `+3${digits}` : text;
  const phone = parsePhoneNumberFromString(candidate, "UA");
  if (!phone || phone.country !== "UA" || !phone.isValid()) return null;
  const type = phone.getType();
  if (type === undefined || !ACCEPTED_TYPES.has(type)) return null;
  const normalised = phone.number.slice(1);
  return /^380\d{9}$/.test(normalised) ? normalised : null;
}

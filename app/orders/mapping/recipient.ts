// The mapping's recipient: the phone (the first the order gives, or the merchant's), the name, and the note
// sent as the comment. What is missing or wrong becomes a hold reason.
import { type ShopifyAddress, type ShopifyOrder } from "../payload";
import { normaliseUkrainianPhone } from "../phone";
import { type OrderOverrides } from "../settings";
import { clean, reason, type HoldReason } from "./shared";

/** The order note is sent as the comment up to this many characters (an ellipsis marks a cut). */
export const COMMENT_MAX_LENGTH = 500;

export function recipientPhone(
  order: ShopifyOrder,
  overrides: OrderOverrides,
  hold: HoldReason[],
): string | null {
  const sources: [string, string | null | undefined][] = [
    ["override", overrides.phone],
    ["shipping", order.shipping_address?.phone],
    ["billing", order.billing_address?.phone],
    ["customer", order.customer?.phone],
    ["order", order.phone],
  ];
  // The first phone the order gives is the recipient's; a wrong one is held, not skipped for another
  // (a billing or customer phone may belong to someone else than the recipient).
  const found = sources.find(([, phone]) => clean(phone) !== "");
  if (!found) {
    hold.push(reason("phone_missing", "phone", "phone.missing", undefined, "phoneMissing"));
    return null;
  }
  const [source, raw] = found;
  const phone = normaliseUkrainianPhone(clean(raw));
  if (phone === null) {
    hold.push(
      reason("phone_invalid", "phone", `phone.invalid.${source}`, { phone: clean(raw) }, "phoneInvalid"),
    );
  }
  return phone;
}

function nameOf(address: ShopifyAddress | null | undefined): string {
  if (!address) return "";
  return clean(address.name) || clean(`${address.first_name ?? ""} ${address.last_name ?? ""}`);
}

export function recipientName(order: ShopifyOrder, hold: HoldReason[]): string | null {
  const name =
    nameOf(order.shipping_address) ||
    nameOf(order.billing_address) ||
    clean(`${order.customer?.first_name ?? ""} ${order.customer?.last_name ?? ""}`);
  if (name) return name;
  hold.push(reason("recipient_missing", "shopify", "recipientMissing", undefined, "recipient"));
  return null;
}

export function commentOf(note: string | null | undefined): string | undefined {
  const text = (note ?? "").trim();
  if (!text) return undefined;
  const chars = Array.from(text);
  return chars.length <= COMMENT_MAX_LENGTH ? text : `${chars.slice(0, COMMENT_MAX_LENGTH - 1).join("")}…`;
}

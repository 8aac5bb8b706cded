// The mapping's payment: cash on delivery or prepaid (the merchant's rules, else the gateway's name), the
// amount to collect or declare, and what a parcel carrying part of a split order collects.
import { type WarehouseOrder } from "../../warehouse/schemas";
import { PAYMENT_METHOD } from "../../warehouse/wire";
import { type ShopifyOrder } from "../payload";
import { type OrderOverrides, type OrderSettings, type PaymentMethodKey } from "../settings";
import {
  INCOMPLETE_FIX,
  amountOf,
  formatMinor,
  matchesAny,
  normaliseText,
  reason,
  toMinor,
  type HoldReason,
} from "./shared";
import { type Goods } from "./products";

/** Patterns over normalised text; `(?<!\p{L})` anchors a word start, `(?!\p{L})` a word end. */
const CASH_ON_DELIVERY: RegExp[] = [
  /cash on delivery/u,
  /(?<![\p{L}\p{N}])cod(?![\p{L}\p{N}])/u, // "Cash on Delivery (COD)", "COD"
  /(?<!\p{L})накладен/u, // накладений платіж, накладеним платежем
  /(?<!\p{L})наложен/u, // наложенный платёж
  /при (отриманн|получени)/u, // оплата при отриманні, оплата при получении
  /(?<!\p{L})писляплат/u, // післяплата
  /(?<!\p{L})послеоплат/u,
  /(?<!\p{L})наличн/u, // наличными
  /(?<!\p{L})готивк/u, // готівкою
];

/**
 * Cash on delivery (a merchant rule or a recognised gateway name) sends `Наличными` with the amount still
 * to pay (`total_outstanding`): what the carrier must collect, which is less than the total when part
 * was prepaid. Everything else is prepaid: `На карту` with the order's current total, as the notes ask.
 * A cash-on-delivery order with nothing outstanding (already paid) is sent as prepaid, because an empty
 * or zero `order_payment_sum` means "collect the order total" to the warehouse ([oa]).
 * Amounts are in the shop's currency (the only one held orders are not in is UAH).
 */
export function paymentFor(
  order: ShopifyOrder,
  settings: OrderSettings,
  hold: HoldReason[],
): { method: WarehouseOrder["payment_method"]; sum: string } | null {
  const gateways = order.payment_gateway_names.map(normaliseText);
  const ruled = settings.paymentRules.find((rule) => {
    const match = normaliseText(rule.match);
    return match !== "" && gateways.some((gateway) => gateway.includes(match));
  });
  const key: PaymentMethodKey =
    ruled?.method ??
    (gateways.some((gateway) => matchesAny(gateway, CASH_ON_DELIVERY)) ? "cashOnDelivery" : "prepaid");
  // Payloads before `current_*` (or from other tools) carry only the total as placed.
  const total =
    amountOf(order.current_total_price, order.current_total_price_set) ??
    amountOf(order.total_price, order.total_price_set);
  if (total === null) {
    hold.push(reason("order_incomplete", "shopify", "totalMissing", undefined, INCOMPLETE_FIX));
    return null;
  }
  if (key === "cashOnDelivery") {
    const outstanding = outstandingOf(order, total);
    if (outstanding === null) {
      hold.push(reason("order_incomplete", "shopify", "outstandingMissing", undefined, INCOMPLETE_FIX));
      return null;
    }
    if (toMinor(outstanding) > 0) {
      return { method: PAYMENT_METHOD.cashOnDelivery, sum: formatMinor(toMinor(outstanding)) };
    }
  }
  return { method: PAYMENT_METHOD.prepaid, sum: formatMinor(Math.max(0, toMinor(total))) };
}

/**
 * What the customer still owes: `total_outstanding`, else what the payment status says for certain
 * (nothing for a paid order, the total for one with nothing paid yet), else unknown.
 */
function outstandingOf(order: ShopifyOrder, total: string): string | null {
  if (order.total_outstanding != null) return order.total_outstanding;
  if (order.financial_status === "paid") return "0";
  if (order.financial_status === "pending") return total;
  return null;
}

/** The cash on delivery a split order's parcel may collect (OrderOverrides.splitCod), chosen on its page. */
export const SPLIT_COD_CHOICES = ["whole_order", "parcel_share", "no_cash"] as const;
export type SplitCodChoice = (typeof SPLIT_COD_CHOICES)[number];

/** The shipping the buyer pays, in kopecks: the order's total, else its shipping lines' prices. */
function shippingOf(order: ShopifyOrder): number {
  const total = amountOf(null, order.total_shipping_price_set);
  if (total !== null) return toMinor(total);
  return order.shipping_lines
    .filter((line) => line.is_removed !== true)
    .reduce((sum, line) => sum + toMinor(line.price ?? "0"), 0);
}

/**
 * The amounts of a parcel that carries part of the order. Paid on delivery, the cash it collects is the
 * merchant's decision (OrderSettings.splitCashOnDelivery, or the order's own choice): the whole order's
 * outstanding sum, the parcel's share (its goods plus the shipping, never more than is owed), or nothing; without
 * a decision the order is held with the three choices. A prepaid parcel declares its share.
 */
export function splitPayment(
  order: ShopifyOrder,
  settings: OrderSettings,
  overrides: OrderOverrides,
  payment: { method: WarehouseOrder["payment_method"]; sum: string },
  goods: Goods,
  hold: HoldReason[],
): { method: WarehouseOrder["payment_method"]; sum: string } | null {
  const share = (owed: string) => formatMinor(Math.min(toMinor(owed), goods.value + shippingOf(order)));
  if (payment.method !== PAYMENT_METHOD.cashOnDelivery) return { ...payment, sum: share(payment.sum) };
  const choice = overrides.splitCod ?? settings.splitCashOnDelivery;
  switch (choice) {
    case "whole_order":
      return payment;
    case "parcel_share":
      return { method: PAYMENT_METHOD.cashOnDelivery, sum: share(payment.sum) };
    case "no_cash":
      // Nothing to collect: declared as prepaid, for the parcel's own value.
      return { method: PAYMENT_METHOD.prepaid, sum: formatMinor(goods.value + shippingOf(order)) };
    case "ask": {
      const values = {
        order: order.name,
        sum: payment.sum,
        share: share(payment.sum),
      };
      hold.push(reason("split_cod_undecided", "splitCod", "splitCod", values, "splitCod"));
      return null;
    }
  }
}

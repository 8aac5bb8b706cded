// The mapping put together: mapOrder asks each part (recipient, payment, delivery, products) and checks the
// result against the warehouse's schema; ruleChoices answers the setup checklist's preview by the same rules.
import { z } from "zod";
import { toDayMonthYear } from "../../warehouse/dates";
import { warehouseOrderSchema, type WarehouseOrder } from "../../warehouse/schemas";
import { PAYMENT_METHOD } from "../../warehouse/wire";
import { type ShopifyOrder } from "../payload";
import { type WarehouseLine } from "../../routing/decide";
import {
  type DeliveryMethodKey,
  type OrderOverrides,
  type OrderSettings,
  type PaymentMethodKey,
} from "../settings";
import {
  INCOMPLETE_FIX,
  reason,
  type BranchMatcher,
  type CityMatcher,
  type FoundBranch,
  type FoundCity,
  type HoldReason,
  type MappingResult,
} from "./shared";
import { commentOf, recipientName, recipientPhone } from "./recipient";
import { paymentFor, splitPayment } from "./payment";
import { deliveryFor, deliveryMethodOf } from "./delivery";
import { productsOf } from "./products";

export interface MappingInput {
  order: ShopifyOrder;
  settings: OrderSettings;
  overrides?: OrderOverrides;
  /** The id_order fixed when the order was first taken in; defaults to idOrderFor(order, settings). */
  idOrder?: string;
  /**
   * Finds the branch of a Nova Poshta order that names none; without one (no reference data yet), such an
   * order is held for the merchant to choose.
   */
  branchMatcher?: BranchMatcher | null;
  /**
   * Finds the city of a courier order that gives no city Ref (neither the merchant nor the buyer chose
   * one); without one, or below the shop's threshold, the courier goes to Kyiv as before there was a matcher.
   */
  cityMatcher?: CityMatcher | null;
  /**
   * The warehouse's lines (WarehouseOrder.warehouseLines): only these line items, with these quantities, are
   * sent, and the amounts follow them. Null or absent: the whole order, as before routing.
   */
  warehouseLines?: readonly WarehouseLine[] | null;
}

/** `id_order`: the shop's prefix and the order number customers see ("#1001" → "1001", "UA-1001"). */
export function idOrderFor(order: ShopifyOrder, settings: OrderSettings): string {
  return `${settings.idOrderPrefix}${order.order_number}`;
}

export function mapOrder(input: MappingInput): MappingResult {
  const { order, settings } = input;
  const overrides = input.overrides ?? {};
  const hold: HoldReason[] = [];

  const recPhone = recipientPhone(order, overrides, hold);
  const recipient = recipientName(order, hold);

  const currency = currencyOf(order);
  if (currency === null) {
    hold.push(reason("order_incomplete", "shopify", "currency.missing", undefined, INCOMPLETE_FIX));
  } else if (currency.toUpperCase() !== "UAH") {
    hold.push(reason("currency_not_uah", "shopify", "currency.notUah", { currency }, "currency"));
  }

  const payment = paymentFor(order, settings, hold);
  const found: { branch?: FoundBranch; city?: FoundCity } = {};
  const delivery = deliveryFor(
    {
      order,
      settings,
      overrides,
      matcher: input.branchMatcher ?? null,
      cityMatcher: input.cityMatcher ?? null,
      found,
    },
    hold,
  );
  const goods = productsOf(order, hold, input.warehouseLines ?? null);
  const paid =
    goods && payment && goods.split
      ? splitPayment(order, settings, overrides, payment, goods, hold)
      : payment;

  if (
    hold.length > 0 ||
    recPhone === null ||
    recipient === null ||
    payment === null ||
    paid === null ||
    delivery === null ||
    goods === null
  ) {
    return { ok: false, hold };
  }

  const comment = settings.sendNoteAsComment ? commentOf(order.note) : undefined;
  const candidate: WarehouseOrder = {
    id_order: input.idOrder ?? idOrderFor(order, settings),
    external_id: order.id,
    date_order: toDayMonthYear(new Date(order.created_at)),
    recipient,
    rec_phone: recPhone,
    ...(comment ? { comment } : {}),
    Cost: goods.cost,
    ...(settings.payerType ? { PayerType: settings.payerType } : {}),
    payment_method: paid.method,
    order_payment_sum: paid.sum,
    delivery_method: settings.deliveryLiterals[delivery.method],
    ...(settings.deliverySenderId ? { delivery_sender_id: settings.deliverySenderId } : {}),
    delivery_address: delivery.address,
    products: goods.products,
  };
  const checked = warehouseOrderSchema.safeParse(candidate);
  if (!checked.success) {
    return {
      ok: false,
      hold: [
        reason(
          "mapping_invalid",
          null,
          "mappingInvalid",
          { order: order.name, detail: z.prettifyError(checked.error) },
          "appFault",
        ),
      ],
    };
  }
  return {
    ok: true,
    order: checked.data,
    ...(found.branch && { foundBranch: found.branch }),
    ...(found.city && { foundCity: found.city }),
  };
}

/** The shop's currency: `currency`, else the shop side of a money set (some tools send only those). */
function currencyOf(order: ShopifyOrder): string | null {
  return (
    order.currency ??
    order.current_total_price_set?.shop_money?.currency_code ??
    order.total_price_set?.shop_money?.currency_code ??
    null
  );
}

/**
 * The payment and delivery methods the rules choose for an order, by the same code as mapOrder, whatever
 * else would hold it: what the setup checklist's preview of the rules shows (app/onboarding/rules.server.ts).
 * Null: not decided (no total, or no delivery method recognised).
 */
export function ruleChoices(
  order: ShopifyOrder,
  settings: OrderSettings,
): { payment: PaymentMethodKey | null; delivery: DeliveryMethodKey | null } {
  const ignored: HoldReason[] = [];
  const payment = paymentFor(order, settings, ignored);
  return {
    payment:
      payment === null
        ? null
        : payment.method === PAYMENT_METHOD.cashOnDelivery
          ? "cashOnDelivery"
          : "prepaid",
    delivery: deliveryMethodOf(order, settings, {}, ignored),
  };
}

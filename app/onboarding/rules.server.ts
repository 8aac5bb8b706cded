// The payment and delivery rules step: the gateways and shipping methods the shop's recent orders really
// use (with how often), and a preview of how the last orders would map under the rules being edited, by
// the mapping code itself (ruleChoices and mapOrder), so the preview cannot disagree with what is sent.
import type { Db } from "../db.server";
import { mapOrder, ruleChoices } from "../orders/mapping";
import { shopifyOrderSchema, type ShopifyOrder } from "../orders/payload";
import type { DeliveryMethodKey, OrderSettings, PaymentMethodKey } from "../orders/settings";

/** How many of the latest orders the offer is read from (bounded: the [shop, updatedAt] index). */
export const RECENT_ORDERS = 50;
/** How many orders the preview shows. */
export const PREVIEW_ORDERS = 5;

export interface RecentOrder {
  name: string;
  order: ShopifyOrder;
}

/** The shop's latest orders as Shopify sent them (those the app has taken in). */
export async function recentOrders(db: Db, shop: string, take = RECENT_ORDERS): Promise<RecentOrder[]> {
  const rows = await db.warehouseOrder.findMany({
    where: { shop },
    orderBy: { updatedAt: "desc" },
    take,
    select: { orderName: true, shopifyOrder: { select: { payload: true } } },
  });
  const orders: RecentOrder[] = [];
  for (const row of rows) {
    if (!row.shopifyOrder) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(row.shopifyOrder.payload);
    } catch {
      continue;
    }
    const parsed = shopifyOrderSchema.safeParse(raw);
    if (parsed.success) orders.push({ name: row.orderName, order: parsed.data });
  }
  return orders;
}

export interface UsedName {
  name: string;
  orders: number;
}

export interface RulesOffer {
  gateways: UsedName[];
  shippingMethods: UsedName[];
}

const shippingNameOf = (line: ShopifyOrder["shipping_lines"][number]) =>
  (line.title ?? "").trim() || (line.code ?? "").trim();

/** The gateways and shipping methods of the orders, most used first. */
export function usedNames(orders: readonly RecentOrder[]): RulesOffer {
  const gateways = new Map<string, number>();
  const shipping = new Map<string, number>();
  for (const { order } of orders) {
    for (const name of new Set(order.payment_gateway_names.map((gateway) => gateway.trim()))) {
      if (name) gateways.set(name, (gateways.get(name) ?? 0) + 1);
    }
    const lines = order.shipping_lines.filter((line) => !line.is_removed);
    for (const name of new Set(lines.map(shippingNameOf))) {
      if (name) shipping.set(name, (shipping.get(name) ?? 0) + 1);
    }
  }
  const sorted = (counts: Map<string, number>) =>
    [...counts]
      .map(([name, orders]) => ({ name, orders }))
      .sort((a, b) => b.orders - a.orders || a.name.localeCompare(b.name));
  return { gateways: sorted(gateways), shippingMethods: sorted(shipping) };
}

export interface PreviewRow {
  name: string;
  gateways: string[];
  shippingMethods: string[];
  payment: PaymentMethodKey | null;
  delivery: DeliveryMethodKey | null;
  /** Whether the order would go to the warehouse as it is, or the codes it would be held for. */
  sendable: boolean;
  holdCodes: string[];
}

/** How each order would map under `settings`. */
export function previewRules(orders: readonly RecentOrder[], settings: OrderSettings): PreviewRow[] {
  return orders.map(({ name, order }) => {
    const choices = ruleChoices(order, settings);
    const mapped = mapOrder({ order, settings });
    return {
      name,
      gateways: order.payment_gateway_names,
      shippingMethods: order.shipping_lines.filter((line) => !line.is_removed).map(shippingNameOf),
      ...choices,
      sendable: mapped.ok,
      holdCodes: mapped.ok ? [] : [...new Set(mapped.hold.map((reason) => reason.code))],
    };
  });
}

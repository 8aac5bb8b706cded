// Orders seeded straight into the database as intake would have left them: a real Shopify order payload
// (the Nova Poshta cash-on-delivery fixture, renumbered), mapped by the app's own mapping.
import { readFileSync } from "node:fs";
import type { Db } from "../../app/db.server";
import { idOrderFor, mapOrder } from "../../app/orders/mapping";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { orderSettingsSchema } from "../../app/orders/settings";
import type { OrderState } from "../../app/orders/states";

/** A realistic Ukrainian order webhook payload: UAH, Nova Poshta branch, cash on delivery. */
export const FIXTURE_ORDER = JSON.parse(
  readFileSync("test/fixtures/orders/ua-cod-nova-poshta.json", "utf8"),
) as Record<string, unknown> & { shipping_address: Record<string, unknown> };

export interface SeededOrder {
  shop: string;
  number: number;
  state: OrderState;
  /** The shipping address phone; a foreign one holds the order. */
  phone?: string;
  idOrderFF?: string;
  lastError?: string;
  attention?: string;
  attentionMessage?: string;
  pending?: string;
  events?: { at: Date; kind: string; message: string; data?: unknown }[];
}

export async function seedOrder(db: Db, seed: SeededOrder) {
  const id = 6123456780000 + seed.number;
  const order = shopifyOrderSchema.parse({
    ...FIXTURE_ORDER,
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${seed.number}`,
    order_number: seed.number,
    created_at: new Date(Date.UTC(2026, 2, 1, 9, seed.number % 60)).toISOString(),
    shipping_address: { ...FIXTURE_ORDER.shipping_address, phone: seed.phone ?? "067 123 45 67" },
  });
  const settings = orderSettingsSchema.parse({});
  const idOrder = idOrderFor(order, settings);
  const result = mapOrder({ order, settings, idOrder });
  const mapped = result.ok ? JSON.stringify(result.order) : null;
  const accepted = seed.state === "accepted";
  return db.warehouseOrder.create({
    data: {
      shop: seed.shop,
      shopifyOrderId: order.id,
      orderName: order.name,
      customerId: order.customer?.id ?? null,
      idOrder,
      state: seed.state,
      shopifyOrder: { create: { shop: seed.shop, payload: JSON.stringify(order) } },
      orderCreatedAt: new Date(order.created_at),
      orderUpdatedAt: new Date(order.updated_at),
      mapped,
      holdReasons: result.ok ? null : JSON.stringify(result.hold),
      sentOrder: accepted ? mapped : null,
      idOrderFF: seed.idOrderFF ?? null,
      keyOrder: seed.idOrderFF ? `key-${seed.idOrderFF}` : null,
      acceptedAt: accepted ? new Date("2026-03-01T10:00:00Z") : null,
      lastError: seed.lastError ?? null,
      attention: seed.attention ?? null,
      attentionMessage: seed.attentionMessage ?? null,
      pending: seed.pending ?? null,
      events: {
        create: (seed.events ?? []).map((event) => ({
          shop: seed.shop,
          at: event.at,
          kind: event.kind,
          message: event.message,
          data: event.data === undefined ? null : JSON.stringify(event.data),
        })),
      },
    },
  });
}

// What the order rules' tests share: each order is taken in through intake, brought to its state by the
// rules themselves (drive), each patch going through the real commit path before the row is read back.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { appContext } from "../../../app/context.server";
import { applyToOrder } from "../../../app/orders/commit.server";
import { applyChange, storedShopifyOrder, takeInOrderWebhook } from "../../../app/orders/intake.server";
import { shopMapping } from "../../../app/settings/settings.server";
import { shopifyOrderSchema } from "../../../app/orders/payload";
import type { Failure, OrderInput } from "../../../app/orders/state-machine";
import { FIXTURE_ORDER } from "../../support/orders";

export const SHOP = "kyiv-goods.myshopify.com";
export const db = () => appContext().db;
export const deps = () => appContext();
export const at = new Date("2026-03-02T10:00:00Z");
export const later = new Date("2026-03-02T10:05:00Z");

let number = 3000;

function payload(changes: Record<string, unknown> = {}) {
  const n = ++number;
  const id = 6123456780000 + n;
  return {
    ...FIXTURE_ORDER,
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${n}`,
    order_number: n,
    created_at: "2026-03-01T09:00:00Z",
    updated_at: "2026-03-01T09:00:00Z",
    ...changes,
  };
}

/** An order taken in through intake, as orders/create would bring it. */
export async function takenIn(changes: Record<string, unknown> = {}): Promise<OrderRow> {
  const order = shopifyOrderSchema.parse(payload(changes));
  await takeInOrderWebhook(deps(), { shop: SHOP, topic: "orders/create", order, eventId: `e-${order.id}` });
  return db().warehouseOrder.findFirstOrThrow({ where: { shopifyOrderId: order.id } });
}

export const read = (row: Pick<OrderRow, "id">) =>
  db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });

/** Applies inputs one after another through the real commit path; answers the row as it is then. */
export async function drive(row: OrderRow, ...inputs: OrderInput[]): Promise<OrderRow> {
  let current = row;
  for (const input of inputs) {
    const refusal = await applyToOrder(deps(), current, input);
    if (refusal) throw new Error(`refused: ${refusal.refused}`);
    current = await read(current);
  }
  return current;
}

export async function kinds(row: Pick<OrderRow, "id">): Promise<string[]> {
  const events = await db().orderEvent.findMany({ where: { orderId: row.id }, orderBy: { id: "asc" } });
  return events.map((event) => event.kind);
}

export const claimed: OrderInput = { type: "claimed" };
export const acceptedAs = (ff: string): OrderInput => ({
  type: "accepted",
  idOrderFF: ff,
  keyOrder: `key-${ff}`,
});
export const failed = (failure: Failure): OrderInput => ({ type: "submission_failed", failure });
export const transient: Failure = { kind: "transient", reason: "HTTP 503", retryAt: later };
export const refused: Failure = { kind: "refused", reason: "HTTP 400: body not readable" };

export async function acceptedOrder(): Promise<OrderRow> {
  return drive(await takenIn(), claimed, acceptedAs("FF-1"));
}

/** The order as Shopify sends it again, with its shipping phone changed (a mapped field). */
export async function changePhone(row: OrderRow, phone: string) {
  const stored = await db().orderPayload.findUniqueOrThrow({ where: { orderId: row.id } });
  const changed = shopifyOrderSchema.parse({
    ...storedShopifyOrder(row.id, stored),
    shipping_address: { ...FIXTURE_ORDER.shipping_address, phone },
  });
  return applyChange(deps(), row, {
    order: changed,
    settings: await shopMapping(db(), SHOP),
    cancelled: false,
    payload: JSON.stringify(changed),
  });
}

// What the routing tests on the real database share: order payloads of the fixture with numbers of their own,
// fulfillment orders stored as the reading side stores them, and the mapped order's products in short.
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { appContext } from "../../app/context.server";
import { FIXTURE_ORDER } from "../support/orders";

/** The fixture order as Shopify's webhook carries it, numbered on from `first` (one range per test file). */
export function numberedPayloads(first: number, idBase: number) {
  let number = first;
  return (changes: Record<string, unknown> = {}) => {
    const n = ++number;
    const id = idBase + n;
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
  };
}

export interface FoSpec {
  /** The fulfillment order's number within its order. */
  n: number;
  /** The location it is assigned to. */
  at: string;
  status?: string;
  requestStatus?: string;
  fulfillAt?: Date | null;
  holds?: { id: string; reason: string; heldByRequestingApp: boolean }[];
  /** [line item, remaining, total (the remaining when left out)] */
  items: [lineItemId: string, remaining: number, total?: number][];
}

/**
 * Stores an order's fulfillment orders as the reading side does (storeFulfillmentOrders' rows), updated and
 * read at `at`.
 */
export async function storeFulfillmentOrders(
  row: Pick<OrderRow, "shop" | "shopifyOrderId">,
  fos: FoSpec[],
  at = new Date(),
): Promise<void> {
  const { db } = appContext();
  for (const fo of fos) {
    const id = `gid://shopify/FulfillmentOrder/${row.shopifyOrderId}${fo.n}`;
    const data = {
      shopifyOrderId: row.shopifyOrderId,
      locationId: fo.at,
      status: fo.status ?? "OPEN",
      requestStatus: fo.requestStatus ?? "UNSUBMITTED",
      deliveryMethod: "SHIPPING",
      fulfillAt: fo.fulfillAt ?? null,
      lines: JSON.stringify(
        fo.items.map(([lineItemId, remaining, total], i) => ({
          id: `${id}-line-${i}`,
          lineItemId,
          sku: null,
          totalQuantity: total ?? remaining,
          remainingQuantity: remaining,
        })),
      ),
      holds: JSON.stringify(fo.holds ?? []),
      shopifyUpdatedAt: at,
      readAt: at,
    };
    await db.shopifyFulfillmentOrder.upsert({
      where: { shop_id: { shop: row.shop, id } },
      create: { shop: row.shop, id, ...data },
      // As the reading side does on new facts: the version raised, so a decision from the old ones is seen.
      update: { ...data, version: { increment: 1 } },
    });
  }
}

/** The mapped order's products as `SKU×count`. */
export const mappedProducts = (row: OrderRow) =>
  (JSON.parse(row.mapped!) as { products: { sku: string; count: string }[] }).products.map(
    (p) => `${p.sku}×${p.count}`,
  );

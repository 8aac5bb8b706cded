// The address matcher for one order, over its shop's reference data: what the order mapping asks when a
// Nova Poshta order names no branch (app/orders/mapping.ts). Loaded only for such orders, and never in the
// way of taking an order in: without reference data, or when it cannot be read, the order is held for the
// merchant to choose, as before there was a matcher.
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import type { BranchMatcher } from "../orders/mapping";
import type { ShopifyOrder } from "../orders/payload";
import type { OrderOverrides } from "../orders/settings";
import { NP_WAREHOUSE_REF_ATTRIBUTE } from "./cart-attributes";
import { matchBranch } from "./matcher";
import { referenceSearchFor } from "./store.server";

/** Whether the order leaves its branch to the matcher: neither the merchant nor the buyer chose one. */
function choosesNoBranch(order: ShopifyOrder, overrides: OrderOverrides | undefined): boolean {
  if (overrides?.warehouseRef) return false;
  return !order.note_attributes.some(
    (attr) => attr.name === NP_WAREHOUSE_REF_ATTRIBUTE && attr.value?.trim(),
  );
}

export async function branchMatcherFor(
  deps: { db: Db; log: Log },
  shop: string,
  order: ShopifyOrder,
  overrides?: OrderOverrides,
): Promise<BranchMatcher | null> {
  if (!choosesNoBranch(order, overrides)) return null;
  try {
    const search = await referenceSearchFor(deps.db, shop);
    return search && ((each) => matchBranch(each, search));
  } catch (error) {
    deps.log.warn(
      { shop, event: "reference.search_unavailable", err: error },
      "reference data could not be read; an order without a branch is held for the merchant",
    );
    return null;
  }
}

// The address matcher for one order, over its shop's reference data: what the order mapping asks when a
// Nova Poshta order names no branch, or a courier order no city (app/orders/mapping/delivery.ts). Loaded only for
// such orders, the reference data read once for both, and never in the way of taking an order in: without
// reference data, or when it cannot be read, a branch is left for the merchant to choose and a courier
// goes to Kyiv, as before there was a matcher.
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import type { BranchMatcher, CityMatcher } from "../orders/mapping";
import type { ShopifyOrder } from "../orders/payload";
import type { OrderOverrides } from "../orders/settings";
import { NP_CITY_REF_ATTRIBUTE, NP_WAREHOUSE_REF_ATTRIBUTE } from "./cart-attributes";
import { matchBranch, matchCity } from "./matcher";
import { referenceSearchFor } from "./store.server";

export interface OrderMatchers {
  branchMatcher: BranchMatcher | null;
  cityMatcher: CityMatcher | null;
}

const NO_MATCHERS: OrderMatchers = { branchMatcher: null, cityMatcher: null };

const hasAttribute = (order: ShopifyOrder, name: string) =>
  order.note_attributes.some((attr) => attr.name === name && attr.value?.trim());

/** Whether the order leaves its branch to the matcher: neither the merchant nor the buyer chose one. */
function choosesNoBranch(order: ShopifyOrder, overrides: OrderOverrides | undefined): boolean {
  return !overrides?.warehouseRef && !hasAttribute(order, NP_WAREHOUSE_REF_ATTRIBUTE);
}

/** Whether a courier order would leave its city to the matcher: no correction, no city from the cart. */
function choosesNoCity(order: ShopifyOrder, overrides: OrderOverrides | undefined): boolean {
  return !overrides?.courier && !hasAttribute(order, NP_CITY_REF_ATTRIBUTE);
}

/**
 * The matchers the order's mapping may ask, over the shop's reference data read once; each null when the
 * order chose what it would find (the mapping asks the branch matcher only for Nova Poshta orders and the
 * city matcher only for courier orders, so an order that needs neither reads nothing only when it chose both).
 */
export async function orderMatchersFor(
  deps: { db: Db; log: Log },
  shop: string,
  order: ShopifyOrder,
  overrides?: OrderOverrides,
): Promise<OrderMatchers> {
  const branch = choosesNoBranch(order, overrides);
  const city = choosesNoCity(order, overrides);
  if (!branch && !city) return NO_MATCHERS;
  try {
    const search = await referenceSearchFor(deps.db, shop, { log: deps.log });
    if (!search) return NO_MATCHERS;
    return {
      branchMatcher: branch ? (each) => matchBranch(each, search) : null,
      cityMatcher: city ? (each) => matchCity(each, search) : null,
    };
  } catch (error) {
    deps.log.warn(
      { shop, event: "reference.search_unavailable", err: error },
      "reference data could not be read; an order without a branch is held for the merchant, a courier goes to Kyiv",
    );
    return NO_MATCHERS;
  }
}

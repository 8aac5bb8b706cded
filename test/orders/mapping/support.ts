// What the mapping's tests share: mapOrder run on an order with settings and corrections given as input
// (parsed as the app parses them), the warehouse order or the hold reasons it gives, and two carrier Refs.
import { expect } from "vitest";
import { mapOrder, type HoldCode, type HoldReason, type MappingInput } from "../../../app/orders/mapping";
import { type ShopifyOrder } from "../../../app/orders/payload";
import {
  orderOverridesSchema,
  orderSettingsSchema,
  type OrderOverridesInput,
  type OrderSettingsInput,
} from "../../../app/orders/settings";
import { type WarehouseOrder } from "../../../app/warehouse/schemas";
import { uaOrder } from "../support";

export const BRANCH_REF = "1ec09d88-e1c2-11e3-8c4a-0050568002cf";
export const OTHER_CITY_REF = "db5c88f5-391c-11dd-90d9-001a92567626";

export interface Options {
  settings?: OrderSettingsInput;
  overrides?: OrderOverridesInput;
  idOrder?: string;
  branchMatcher?: MappingInput["branchMatcher"];
  cityMatcher?: MappingInput["cityMatcher"];
}

export function map(order: ShopifyOrder, options: Options = {}) {
  const input: MappingInput = {
    order,
    settings: orderSettingsSchema.parse(options.settings ?? {}),
    overrides: options.overrides ? orderOverridesSchema.parse(options.overrides) : undefined,
    idOrder: options.idOrder,
    branchMatcher: options.branchMatcher,
    cityMatcher: options.cityMatcher,
  };
  return mapOrder(input);
}

/** The warehouse order, failing the test with the hold reasons when the order was held. */
export function mapped(order: ShopifyOrder, options?: Options): WarehouseOrder {
  const result = map(order, options);
  if (!result.ok) throw new Error(`expected a warehouse order, got holds: ${JSON.stringify(result.hold)}`);
  return result.order;
}

/** The hold reasons, failing the test when the order mapped. */
export function holds(order: ShopifyOrder, options?: Options): HoldReason[] {
  const result = map(order, options);
  if (result.ok) throw new Error(`expected holds, got ${JSON.stringify(result.order)}`);
  return result.hold;
}

export const codes = (reasons: HoldReason[]): HoldCode[] => reasons.map((reason) => reason.code);

export function only(reasons: HoldReason[], code: HoldCode): HoldReason {
  expect(codes(reasons)).toEqual([code]);
  return reasons[0]!;
}

/** The fixture with one shipping line. */
export const shippedBy = (title: string, code: string | null = null, source: string | null = "shopify") =>
  uaOrder((draft) => {
    draft.shipping_lines = [{ title, code, source }];
  });

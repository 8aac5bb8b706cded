// The demo's sample orders mean what they say: each goes through the app's own payload schema and mapping
// with the demo shop's settings, and is held for exactly the reasons it was written for, or maps to the
// payment and delivery it stands for, with a branch the warehouse's reference data knows. Shopify's routing (the
// fake's, in the demo's own store) sends each sample where it says: the pickup order wholly to the showroom, the
// split order's showroom lines there and the rest to the warehouse, every other sample wholly to the warehouse.
import { describe, expect, it } from "vitest";
import { mapOrder } from "../../app/orders/mapping";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { orderSettingsSchema } from "../../app/orders/settings";
import { PAYMENT_METHOD, DELIVERY_METHOD } from "../../app/warehouse/wire";
import {
  DEMO_MAPPING,
  DEMO_PRODUCTS,
  SHOWROOM_ONLY_SKUS,
  sampleOrders,
  samplePayload,
} from "../../scripts/demo/samples";
import { seedDemoStore } from "../../scripts/demo/store";
import { FakeState } from "../shopify-fake";
import { defaultReferenceData } from "../warehouse-sim/reference-data";

const reference = defaultReferenceData();
const settings = orderSettingsSchema.parse(DEMO_MAPPING);
const samples = sampleOrders(reference);

/** The sample mapped as the app maps it; a split order with the warehouse's lines only, as routing leaves them. */
function mapped(index: number) {
  const sample = samples[index]!;
  const id = 9_000_000 + index;
  const lineItemIds = sample.lines.map((_, line) => id * 10 + line);
  const payload = samplePayload(sample, {
    id,
    graphqlId: `gid://shopify/Order/${id}`,
    number: 1001 + index,
    lineItemIds,
    createdAt: new Date(Date.UTC(2026, 10, 25, 10, index)),
  });
  const warehouseLines =
    sample.routed === "split"
      ? sample.lines.flatMap((line, at) =>
          SHOWROOM_ONLY_SKUS.has(line.sku)
            ? []
            : [
                {
                  lineItemId: `gid://shopify/LineItem/${lineItemIds[at]}`,
                  fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1",
                  quantity: line.quantity,
                },
              ],
        )
      : null;
  return mapOrder({ order: shopifyOrderSchema.parse(payload), settings, warehouseLines });
}

/** Where the fake's routing sends each of a sample's units in the demo's store: location name → SKU → units. */
function routed(index: number) {
  const { store, showroom } = seedDemoStore(new FakeState(), "shpat_test");
  const sample = samples[index]!;
  const { order, fulfillmentOrders } = store.addOrder({
    lineItems: sample.lines.map((line) => ({ sku: line.sku, quantity: line.quantity })),
    ...(sample.pickup && { locationId: showroom.id, deliveryMethod: "PICK_UP" as const }),
  });
  const where: Record<string, Record<string, number>> = {};
  for (const fo of fulfillmentOrders) {
    const name = store.locations.get(fo.assignedLocationId)!.name;
    for (const line of fo.lineItems) {
      const sku = order.lineItems.find((item) => item.id === line.lineItemId)!.sku!;
      where[name] = { ...where[name], [sku]: (where[name]?.[sku] ?? 0) + line.totalQuantity };
    }
  }
  return where;
}

const units = (lines: Array<{ sku: string; quantity: number }>) =>
  Object.fromEntries(lines.map((line) => [line.sku, line.quantity]));

describe("the demo's sample orders", () => {
  it("cover every flow the demo promises", () => {
    const kinds = samples.map((sample) => sample.expected ?? sample.held);
    expect(kinds).toEqual(
      expect.arrayContaining([
        { payment: "cashOnDelivery", delivery: "novaPoshta" },
        { payment: "prepaid", delivery: "novaPoshta" },
        { payment: "cashOnDelivery", delivery: "ukrposhta" },
        { payment: "prepaid", delivery: "kyivCourier" },
        ["phone_invalid"],
        ["branch_missing"],
      ]),
    );
    // A pickup order wholly the showroom's, and a split order.
    expect(samples.filter((sample) => sample.routed === "elsewhere" && sample.pickup)).toHaveLength(1);
    // Its items are the warehouse's too: an app that sent it would have them taken, and the check would count them.
    const pickup = samples.find((sample) => sample.pickup)!;
    expect(pickup.lines.filter((line) => SHOWROOM_ONLY_SKUS.has(line.sku))).toEqual([]);
    expect(samples.filter((sample) => sample.routed === "split")).toHaveLength(1);
    // One of the Nova Poshta samples goes to a parcel locker.
    const refs = samples.flatMap((s) => s.noteAttributes.filter((a) => a.name === "_np_warehouse_ref"));
    expect(refs.some((ref) => reference.branchByRef(ref.value)?.CategoryOfWarehouse === "Postomat")).toBe(
      true,
    );
    // Every SKU ordered is in the demo catalogue, and every SKU there is unique.
    const skus = DEMO_PRODUCTS.flatMap((product) => product.variants.map((variant) => variant.sku));
    expect(new Set(skus).size).toBe(skus.length);
    expect(skus.length).toBeGreaterThanOrEqual(8);
    for (const sample of samples) for (const line of sample.lines) expect(skus).toContain(line.sku);
  });

  it.each(samples.map((sample, index) => [sample.key, index] as const))(
    "%s is routed as intended",
    (_key, index) => {
      const sample = samples[index]!;
      // A pickup order is the showroom's whole; otherwise the items only the showroom stocks go there.
      const atShowroom = (sku: string) => sample.pickup === true || SHOWROOM_ONLY_SKUS.has(sku);
      const warehouse = sample.lines.filter((line) => !atShowroom(line.sku));
      const showroom = sample.lines.filter((line) => atShowroom(line.sku));
      expect(routed(index)).toEqual({
        ...(warehouse.length && { "Склад фулфілменту (Київ)": units(warehouse) }),
        ...(showroom.length && { "Шоурум, Київ": units(showroom) }),
      });
      expect(sample.routed ?? "warehouse").toBe(
        showroom.length === 0 ? "warehouse" : warehouse.length === 0 ? "elsewhere" : "split",
      );
    },
  );

  it.each(
    samples.flatMap((sample, index) => (sample.routed === "elsewhere" ? [] : [[sample.key, index] as const])),
  )("%s maps as intended", (_key, index) => {
    const sample = samples[index]!;
    const sent = sample.lines.filter((line) => !SHOWROOM_ONLY_SKUS.has(line.sku));
    const result = mapped(index);
    if (sample.held) {
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.hold.map((reason) => reason.code)).toEqual(sample.held);
      return;
    }
    if (!result.ok) throw new Error(`${sample.key} was held: ${JSON.stringify(result.hold)}`);
    const { order } = result;
    expect(order.id_order).toBe(`DEMO-${1001 + index}`);
    expect(order.rec_phone).toMatch(/^380\d{9}$/);
    expect(order.recipient).toBe(`${sample.firstName} ${sample.lastName}`);
    expect(order.payment_method).toBe(
      sample.expected!.payment === "cashOnDelivery" ? PAYMENT_METHOD.cashOnDelivery : PAYMENT_METHOD.prepaid,
    );
    expect(order.delivery_method).toBe(DELIVERY_METHOD[sample.expected!.delivery]);
    expect(order.products.map((line) => [line.sku, Number(line.count)])).toEqual(
      sent.map((line) => [line.sku, line.quantity]),
    );
    const address = order.delivery_address as Record<string, string>;
    if (sample.expected!.delivery === "novaPoshta")
      expect(reference.branchByRef(address.WarehouseRef!)).toBeDefined();
    if (sample.expected!.delivery === "ukrposhta") expect(address.postcode).toBe(sample.address.zip);
    if (sample.expected!.delivery === "kyivCourier")
      expect(address).toMatchObject({ Street: expect.any(String), House: "100", Flat: "12" });
    // Cash on delivery collects the whole total; prepaid collects nothing more.
    if (sample.expected!.payment === "cashOnDelivery")
      expect(Number(order.order_payment_sum)).toBeGreaterThan(0);
  });
});

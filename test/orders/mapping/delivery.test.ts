// The mapping's delivery: delivery_method from the shipping lines, the merchant's rules and the buyer's pick,
// and delivery_address for a Nova Poshta branch (named or matched), a courier, Ukrposhta and pickup.
import { describe, expect, it } from "vitest";
import {
  NP_CITY_REF_ATTRIBUTE,
  NP_WAREHOUSE_LABEL_ATTRIBUTE,
  NP_WAREHOUSE_REF_ATTRIBUTE,
} from "../../../app/orders/mapping";
import { type ShopifyOrder } from "../../../app/orders/payload";
import { KYIV_CITY_REF, orderSettingsSchema } from "../../../app/orders/settings";
import type { BranchMatch, CityMatch } from "../../../app/reference/types";
import { DELIVERY_METHOD } from "../../../app/warehouse/wire";
import { uaOrder } from "../support";
import { BRANCH_REF, OTHER_CITY_REF, codes, holds, map, mapped, only, shippedBy } from "./support";

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

import { describe, expect, it } from "vitest";
import {
  CARD_PROBLEM_MESSAGES,
  CARD_PROBLEMS,
  cardName,
  catalogueCards,
  type CatalogueVariant,
} from "../../app/catalogue/card";
import { mapOrder } from "../../app/orders/mapping";
import { orderSettingsSchema } from "../../app/orders/settings";
import { addProductSchema } from "../../app/warehouse/schemas";
import { PRODUCT_FIELD_MAX_LENGTH } from "../../app/warehouse/wire";
import { uaOrder } from "../orders/support";

let nextId = 100;
function variant(changes: Partial<CatalogueVariant> = {}): CatalogueVariant {
  const id = nextId++;
  return {
    productId: "gid://shopify/Product/7001",
    variantId: `gid://shopify/ProductVariant/${id}`,
    inventoryItemId: `gid://shopify/InventoryItem/${id}`,
    tracked: true,
    productTitle: "Чашка керамічна «Карпати»",
    variantTitle: "Синя",
    sku: `CUP-${id}`,
    barcode: null,
    ...changes,
  };
}

const problemCodes = (variants: CatalogueVariant[]) =>
  catalogueCards(variants).problems.map((problem) => problem.code);

describe("cardName", () => {
  it("is the product's title alone for the only variant of a product without options", () => {
    expect(cardName("Рушник вишитий", "Default Title")).toBe("Рушник вишитий");
    expect(cardName("Рушник вишитий", "")).toBe("Рушник вишитий");
  });

  it("adds the variant's title as Shopify names an order line", () => {
    expect(cardName("Вишиванка", "M / Біла")).toBe("Вишиванка - M / Біла");
  });

  it("collapses whitespace and drops control characters, keeping the words apart", () => {
    expect(cardName("  Чай\n\tтрав'яний\u0000  ", " 100\u00a0г ")).toBe("Чай трав'яний - 100 г");
  });

  it("shortens a long product title at a word, keeping the variant's title whole", () => {
    const title =
      "Шапка в'язана зимова з натуральної вовни мериноса ручної роботи з помпоном і підкладкою з флісу";
    const name = cardName(title, "Червона / XL");
    expect(name.length).toBeLessThanOrEqual(PRODUCT_FIELD_MAX_LENGTH.name);
    expect(name).toMatch(/^Шапка в'язана зимова .*\p{L}… - Червона \/ XL$/u);
    // Cut between words: every word before the ellipsis is one of the title's.
    const kept = name.slice(0, name.indexOf("…")).split(" ");
    expect(title.split(" ").slice(0, kept.length)).toEqual(kept);
    // The client's schema would refuse the whole name: the warehouse's limit (a guess) is in one place.
    expect(() => addProductSchema.parse({ sku: "HAT-1", name })).not.toThrow();
    expect(() => addProductSchema.parse({ sku: "HAT-1", name: `${title} - Червона / XL` })).toThrow(
      /name must be at most 100 characters/,
    );
  });

  it("shortens the whole name when the variant's title alone leaves the product too little", () => {
    const name = cardName("Набір подарунковий", "x".repeat(95));
    expect(name.length).toBe(PRODUCT_FIELD_MAX_LENGTH.name);
    expect(name).toMatch(/^Набір подарунковий - x+…$/);
  });

  it("never splits a character written as two UTF-16 units", () => {
    const name = cardName("🎁".repeat(60), "Default Title");
    expect(name.length).toBeLessThanOrEqual(PRODUCT_FIELD_MAX_LENGTH.name);
    expect(name).toBe(`${"🎁".repeat(49)}…`);
  });
});

describe("catalogueCards", () => {
  it("makes a card AddProduct's schema takes, with the barcode when there is one", () => {
    const plain = variant({ sku: "CUP-KARP-BLUE", barcode: "4820000000017" });
    const blank = variant({ sku: "CUP-KARP-RED", variantTitle: "Червона", barcode: "" });
    const { cards, problems } = catalogueCards([plain, blank]);
    expect(problems).toEqual([]);
    expect(cards).toEqual([
      {
        productId: plain.productId,
        variantId: plain.variantId,
        card: { sku: "CUP-KARP-BLUE", name: "Чашка керамічна «Карпати» - Синя", barcode: "4820000000017" },
      },
      {
        productId: blank.productId,
        variantId: blank.variantId,
        card: { sku: "CUP-KARP-RED", name: "Чашка керамічна «Карпати» - Червона" },
      },
    ]);
    for (const { card } of cards) expect(() => addProductSchema.parse(card)).not.toThrow();
  });

  it("writes a SKU and names the goods as the order mapping does, so orders name goods the warehouse knows", () => {
    const rawSku = " TEA-POL\u00a0 100\n";
    const order = uaOrder((draft) => {
      draft.line_items[1]!.sku = rawSku;
    });
    const result = mapOrder({ order, settings: orderSettingsSchema.parse({}) });
    if (!result.ok) throw new Error(JSON.stringify(result.hold));
    const cup = result.order.products[0]!;
    const tea = result.order.products[1]!;
    const { cards } = catalogueCards([
      variant({ productTitle: "Чашка керамічна «Карпати»", variantTitle: "Синя", sku: cup.sku }),
      variant({ productTitle: "Чай трав'яний «Полонина» 100 г", variantTitle: "Default Title", sku: rawSku }),
    ]);
    expect(cards.map(({ card }) => [card.sku, card.name])).toEqual([
      [cup.sku, cup.name],
      [tea.sku, tea.name],
    ]);
  });

  it("holds back a variant without a SKU, with a link to its page in the Shopify admin", () => {
    const missing = variant({
      productId: "gid://shopify/Product/7002",
      variantId: "gid://shopify/ProductVariant/8002",
      sku: " ",
    });
    const { cards, problems } = catalogueCards([missing, variant({ sku: null })]);
    expect(cards).toEqual([]);
    expect(problems[0]).toEqual({
      code: "sku_missing",
      message: CARD_PROBLEM_MESSAGES.sku_missing,
      productId: "gid://shopify/Product/7002",
      variantId: "gid://shopify/ProductVariant/8002",
      fixUrl: "shopify://admin/products/7002/variants/8002",
    });
    expect(problems.map((problem) => problem.code)).toEqual(["sku_missing", "sku_missing"]);
  });

  it("holds back every variant of a shared SKU, each naming the others, and still makes the other cards", () => {
    const first = variant({ sku: "MUG-1" });
    const second = variant({ sku: " MUG-1 ", productId: "gid://shopify/Product/7003" });
    const third = variant({ sku: "MUG-1\u00a0" });
    const other = variant({ sku: "MUG-2" });
    const { cards, problems } = catalogueCards([first, second, third, other]);
    expect(cards.map(({ card }) => card.sku)).toEqual(["MUG-2"]);
    expect(problems).toEqual([
      expect.objectContaining({
        code: "sku_duplicate",
        sku: "MUG-1",
        variantId: first.variantId,
        sharedWith: [second.variantId, third.variantId],
      }),
      expect.objectContaining({
        variantId: second.variantId,
        sharedWith: [first.variantId, third.variantId],
      }),
      expect.objectContaining({
        variantId: third.variantId,
        sharedWith: [first.variantId, second.variantId],
      }),
    ]);
  });

  it("tells SKUs apart by letter case, as Shopify and the warehouse's catalogue do", () => {
    expect(catalogueCards([variant({ sku: "mug-1" }), variant({ sku: "MUG-1" })]).problems).toEqual([]);
  });

  it("counts whitespace that only the writing differs in as the same SKU", () => {
    expect(problemCodes([variant({ sku: "MUG 1" }), variant({ sku: "MUG\t\u00a01" })])).toEqual([
      "sku_duplicate",
      "sku_duplicate",
    ]);
  });

  it("holds back a SKU the warehouse would refuse: too long, or with invisible characters", () => {
    const longest = "S".repeat(PRODUCT_FIELD_MAX_LENGTH.sku);
    expect(catalogueCards([variant({ sku: longest })]).cards).toHaveLength(1);
    expect(problemCodes([variant({ sku: `${longest}S` })])).toEqual(["sku_too_long"]);
    expect(problemCodes([variant({ sku: "MUG\u200b-1" })])).toEqual(["sku_invisible_characters"]);
    expect(problemCodes([variant({ sku: "MUG\u0000-1" })])).toEqual(["sku_invisible_characters"]);
  });

  it("holds back a barcode the warehouse would refuse, and a product without a title", () => {
    const longest = "4".repeat(PRODUCT_FIELD_MAX_LENGTH.barcode);
    expect(catalogueCards([variant({ barcode: longest })]).cards).toHaveLength(1);
    expect(problemCodes([variant({ barcode: `${longest}4` })])).toEqual(["barcode_invalid"]);
    expect(problemCodes([variant({ barcode: "482\u200b0000000017" })])).toEqual(["barcode_invalid"]);
    expect(problemCodes([variant({ productTitle: " \n " })])).toEqual(["title_missing"]);
  });

  it("reports every problem of a variant", () => {
    expect(problemCodes([variant({ sku: null, productTitle: "" })])).toEqual([
      "sku_missing",
      "title_missing",
    ]);
  });

  it("says each problem in one whole sentence", () => {
    for (const code of CARD_PROBLEMS) {
      const message = CARD_PROBLEM_MESSAGES[code];
      expect(message).toMatch(/^[A-Z][^.]*\.$/);
      expect(message).toMatch(/Shopify/);
    }
  });
});

// The SKU page's card from the catalogue: a SKU that many variants have had (most since deleted in Shopify)
// shows the live ones, which the page links to, before the deleted ones, within its bound.
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { skuCard } from "../../app/stock/movements.server";

const SHOP = "kyiv-goods.myshopify.com";

describe("a SKU's card", () => {
  it("lists the live variants first, even when older deleted ones alone would fill the list", async () => {
    const { db } = appContext();
    const start = Date.parse("2026-01-01T00:00:00Z");
    await db.catalogueItem.createMany({
      data: Array.from({ length: 12 }, (_, index) => ({
        shop: SHOP,
        variantId: `gid://shopify/ProductVariant/${9000 + index}`,
        productId: `gid://shopify/Product/${8000 + index}`,
        sku: "VSH-S",
        name: index === 11 ? "Світшот - S" : `Світшот (старий ${index})`,
        createdAt: new Date(start + index * 60_000),
        deletedAt: index === 11 ? null : new Date(start + 86_400_000),
      })),
    });
    const card = await skuCard(db, SHOP, "VSH-S");
    expect(card.variants).toHaveLength(10);
    expect(card.variants[0]).toEqual({
      name: "Світшот - S",
      adminUrl: "shopify://admin/products/8011/variants/9011",
    });
    expect(card.variants.slice(1).every((variant) => variant.adminUrl === null)).toBe(true);
    expect(card.name).toBe("Світшот - S");
  });
});

// The demo's Shopify store in the fake: the shop, its two locations (the warehouse's first on the routing list,
// then the Kyiv showroom) and the catalogue stocked at them. Shared by the demo (world.ts) and its tests, so that
// a test that routes the samples routes them in the very store the demo shows.
import type { FakeState, LocationRecord, ShopStore } from "../../test/shopify-fake";
import { DEMO_PRODUCTS, DEMO_SHOP, DEMO_SHOP_NAME, DEMO_SHOWROOM } from "./samples";

export interface DemoVariantIds {
  variantId: string;
  productId: string;
  inventoryItemId: string;
  name: string;
}

export interface DemoStore {
  store: ShopStore;
  /** The warehouse's location (location mode's choice on Settings). */
  location: LocationRecord;
  showroom: LocationRecord;
  /** The warehouse's items by SKU (the showroom-only ones are neither in its catalogue nor in the simulator). */
  variantsBySku: Map<string, DemoVariantIds>;
}

export function seedDemoStore(state: FakeState, accessToken: string): DemoStore {
  const store = state.addShop({
    domain: DEMO_SHOP,
    accessToken,
    name: DEMO_SHOP_NAME,
    email: "owner@demo-magazyn.example",
    currencyCode: "UAH",
    ianaTimezone: "Europe/Kyiv",
    locales: [{ locale: "uk", primary: true }, { locale: "en" }],
  });
  const location = store.addLocation({
    name: "Склад фулфілменту (Київ)",
    address1: "вул. Складська, 1",
    city: "Київ",
    zip: "02000",
  });
  // The second location: a Kyiv showroom, after the warehouse on the shop's routing list. It stocks a few of
  // the warehouse's items (routing still sends their lines to the warehouse, first on the list) and the items
  // sold only there, whose lines Shopify routes to it (an order of those and the warehouse's items is split);
  // a pickup order is assigned to it whole.
  const showroom = store.addLocation(DEMO_SHOWROOM);
  store.setRouting([location.id, showroom.id]);
  const variantsBySku = new Map<string, DemoVariantIds>();
  for (const product of DEMO_PRODUCTS) {
    const { product: made, variants } = store.addProduct({
      title: product.title,
      vendor: product.vendor,
      variants: product.variants.map((variant) => ({
        ...(variant.title ? { title: variant.title } : {}),
        sku: variant.sku,
        price: variant.price,
        inventory: [
          ...(product.showroomOnly ? [] : [{ locationId: location.id, available: variant.shopQuantity }]),
          ...(variant.showroomQuantity === undefined
            ? []
            : [{ locationId: showroom.id, available: variant.showroomQuantity }]),
        ],
      })),
    });
    if (product.showroomOnly) continue;
    variants.forEach((variant, index) => {
      const demo = product.variants[index]!;
      variantsBySku.set(demo.sku, {
        variantId: variant.id,
        productId: made.id,
        inventoryItemId: variant.inventoryItemId,
        name: demo.title ? `${product.title} (${demo.title})` : product.title,
      });
    });
  }
  return { store, location, showroom, variantsBySku };
}

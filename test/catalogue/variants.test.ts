// The catalogue's reads of Shopify, over real HTTP to the Shopify fake through the app's own Admin client: the
// whole shop page by page, resumed after a restart from a stored cursor, and one product read again.
import { getOperationAST, parse } from "graphql";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { CatalogueVariant } from "../../app/catalogue/card";
import {
  CATALOGUE_PRODUCT_VARIANTS_QUERY,
  CATALOGUE_VARIANTS_COUNT_QUERY,
  CATALOGUE_VARIANTS_PAGE_QUERY,
  countShopVariants,
  readProductVariants,
  readVariantPage,
  type VariantPage,
} from "../../app/catalogue/variants.server";
import { appContext } from "../../app/context.server";
import { createShopAdmin, type ShopAdmin } from "../../app/shopify/admin-graphql.server";
import { unauthenticated } from "../../app/shopify.server";
import {
  adminSchema,
  operationCost,
  SINGLE_QUERY_MAX_COST,
  startShopifyFake,
  type ShopifyFake,
  type ShopStore,
} from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const { db } = appContext();

let clock = Date.UTC(2026, 9, 1, 9);
let fake: ShopifyFake;
let store: ShopStore;
let waits: number[];

beforeAll(async () => {
  // The bucket runs on this clock, which only the client's waits move: throttling is exact, and instant.
  fake = await startShopifyFake({ now: () => clock });
  routeShopifyTo(fake.url);
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
});

let shopCount = 0;
beforeEach(async () => {
  const domain = `catalogue-shop-${++shopCount}.myshopify.com`;
  store = fake.state.addShop({ domain, accessToken: `shpat_catalogue_${shopCount}` });
  waits = [];
  await db.session.create({
    data: {
      id: `offline_${domain}`,
      shop: domain,
      state: "",
      accessToken: store.shop.accessToken,
      scope: "",
    },
  });
});

async function shopAdmin(): Promise<ShopAdmin> {
  const { admin } = await unauthenticated.admin(store.shop.myshopifyDomain);
  return createShopAdmin(admin.graphql, {
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
  });
}

/** `count` products of four sizes each, SKUs TSH-<product>-<size>. */
function seedProducts(count: number) {
  return Array.from({ length: count }, (_, index) =>
    store.addProduct({
      title: `Футболка ${index + 1}`,
      variants: ["S", "M", "L", "XL"].map((size) => ({ title: size, sku: `TSH-${index + 1}-${size}` })),
    }),
  );
}

const pageRequests = () =>
  fake.requests.filter(
    (request) =>
      request.shop === store.shop.myshopifyDomain && request.operationName === "CatalogueVariantsPage",
  );

const idsOf = (variants: CatalogueVariant[]) => variants.map((variant) => variant.variantId);

/** Every page from `after` to the last, read as the full sync reads them: one page after another. */
async function readPagesFrom(admin: ShopAdmin, after: string | null = null): Promise<VariantPage[]> {
  const pages = [await readVariantPage(admin, after)];
  while (!pages.at(-1)!.last) pages.push(await readVariantPage(admin, pages.at(-1)!.cursor));
  return pages;
}

describe("readVariantPage", () => {
  it("reads a variant as the card needs it: titles, SKU, barcode and inventory item", async () => {
    const { product, variants } = store.addProduct({
      title: "Вишиванка",
      variants: [{ title: "M", sku: "VSH-M", barcode: "4820000000017" }, { title: "L" }],
    });
    store.inventoryItems.get(variants[1]!.inventoryItemId)!.tracked = false;

    const pages = await readPagesFrom(await shopAdmin());

    expect(pages).toEqual([
      {
        variants: [
          {
            productId: product.id,
            variantId: variants[0]!.id,
            inventoryItemId: variants[0]!.inventoryItemId,
            tracked: true,
            productTitle: "Вишиванка",
            variantTitle: "M",
            sku: "VSH-M",
            barcode: "4820000000017",
          },
          expect.objectContaining({ variantId: variants[1]!.id, tracked: false, sku: null, barcode: null }),
        ],
        cursor: expect.any(String),
        last: true,
      },
    ]);
  });

  it("reads each of 600 variants once when resumed after a restart from the cursor stored after a page", async () => {
    const seeded = seedProducts(150).flatMap(({ variants }) => variants.map((variant) => variant.id));
    const read: string[] = [];

    // The first run does one page, stores where the next starts, and dies.
    const first = await readVariantPage(await shopAdmin(), null);
    read.push(...idsOf(first.variants));
    const stored = first.cursor;

    // The next run starts from the stored cursor in a new client, as a restarted process would.
    const sizes: number[] = [];
    for (const page of await readPagesFrom(await shopAdmin(), stored)) {
      sizes.push(page.variants.length);
      read.push(...idsOf(page.variants));
    }

    expect(first).toMatchObject({ last: false });
    expect([first.variants.length, ...sizes]).toEqual([250, 250, 100]);
    expect(read).toEqual(seeded);
    // 752 points a page against a bucket of 2,000 restoring 100 a second: the third page waits 2.56 s for
    // the 256 points it lacks (decision 010), and no page is read twice.
    expect(waits).toEqual([2560]);
    expect(pageRequests().map((request) => request.actualCost)).toEqual([752, 752, null, 302]);
  });

  it("resumes from a cursor whose variant was deleted meanwhile, as Shopify's keyset cursors allow", async () => {
    const products = seedProducts(70);
    const first = await readVariantPage(await shopAdmin(), null);
    // The page ended on a variant of product 63 (62 × 4 = 248 before it): the product goes, cursor and all.
    const ending = products[62]!;
    expect(first.variants.at(-1)!.variantId).toBe(ending.variants[1]!.id);
    store.deleteProduct(ending.product.id);

    const rest = (await readPagesFrom(await shopAdmin(), first.cursor)).flatMap((page) => page.variants);

    expect(idsOf(rest)).toEqual(products.slice(63).flatMap(({ variants }) => variants.map((v) => v.id)));
  });

  it("gives a shop without variants one empty last page that keeps the cursor it was read from", async () => {
    expect(await readPagesFrom(await shopAdmin())).toEqual([{ variants: [], cursor: null, last: true }]);

    seedProducts(1);
    const all = await readVariantPage(await shopAdmin(), null);
    const after = await readPagesFrom(await shopAdmin(), all.cursor);
    expect(after).toEqual([{ variants: [], cursor: all.cursor, last: true }]);
  });
});

describe("readProductVariants", () => {
  it("reads every variant of a product, over pages, in the product's order and with its current title", async () => {
    const sizes = Array.from({ length: 300 }, (_, index) => ({
      title: `Розмір ${index}`,
      sku: `BIG-${index}`,
    }));
    const { product, variants } = store.addProduct({ title: "Великий товар", variants: sizes });
    seedProducts(1);
    store.products.get(product.id)!.title = "Великий товар (новий)";

    const read = await readProductVariants(await shopAdmin(), product.id);

    expect(read).toHaveLength(300);
    expect(idsOf(read!)).toEqual(variants.map((variant) => variant.id));
    expect(read!.every((variant) => variant.productTitle === "Великий товар (новий)")).toBe(true);
    expect(read![299]).toMatchObject({ variantTitle: "Розмір 299", sku: "BIG-299", productId: product.id });
    const operations = fake.requests.filter((request) => request.shop === store.shop.myshopifyDomain);
    expect(operations.map((request) => request.operationName)).toEqual([
      "CatalogueProductVariants",
      "CatalogueProductVariants",
    ]);
  });

  it("answers null for a product Shopify no longer has", async () => {
    const [{ product }] = seedProducts(1) as [ReturnType<ShopStore["addProduct"]>];
    store.deleteProduct(product.id);
    expect(await readProductVariants(await shopAdmin(), product.id)).toBeNull();
  });
});

describe("countShopVariants", () => {
  it("counts every variant of the shop, each product's own included", async () => {
    seedProducts(3);
    store.addProduct({ title: "Подарунок" });
    expect(await countShopVariants(await shopAdmin())).toBe(13);
  });
});

describe("the catalogue's queries", () => {
  it.each([
    ["CatalogueVariantsPage", CATALOGUE_VARIANTS_PAGE_QUERY, 752],
    ["CatalogueProductVariants", CATALOGUE_PRODUCT_VARIANTS_QUERY, 503],
    ["CatalogueVariantsCount", CATALOGUE_VARIANTS_COUNT_QUERY, 1],
  ])("%s asks for %s points, within Shopify's limit for one query", (_, query, cost) => {
    const document = parse(query);
    const requested = operationCost(adminSchema(), document, getOperationAST(document)!, { id: "gid://x/1" });
    expect(requested).toBe(cost);
    expect(requested).toBeLessThanOrEqual(SINGLE_QUERY_MAX_COST);
  });
});

// The SKU page's loader and its CSV (app/routes/app.stock_.sku.tsx, app.stock_.sku[.]csv.tsx) over loopback
// HTTP as the admin's page calls them (a session token in Authorization), answered from the warehouse
// simulator through the shop's key: a SKU seeded, an order shipped and a return booked come back as the
// simulator booked them, with their balances; a period without movements is empty; a SKU with "/", a space
// and Cyrillic travels whole; a bad period is refused without asking the warehouse; a warehouse failing or
// a shop without a key still gives the card, with the problem said.
import { API_KEY, API_SECRET_KEY, getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { saveSettings } from "../../app/settings/settings.server";
import { OPERATIONS } from "../../app/warehouse/wire";
import { startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";
import { serveOnLoopback, type RouteServer } from "../support/route-server";
import { bookWarehouseDay } from "../support/warehouse-day";
import { DEFAULT_ACCOUNT, startWarehouseSimulator } from "../warehouse-sim/server";

const SHOP_NAME = "kyiv-goods";
const SHOP = `${SHOP_NAME}.myshopify.com`;
const NO_KEY_NAME = "new-goods";
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
const TEA = "ЧАЙ/зелений 100 г";
const DAY = { from: "2026-03-14", to: "2026-03-14" };

// 10:15 in Kyiv on 14 March 2026; each step below moves the warehouse's clock on.
const sim = await startWarehouseSimulator({
  accounts: [DEFAULT_ACCOUNT],
  clockFrozenAt: "2026-03-14T08:15:00Z",
});
process.env.WAREHOUSE_API_URL = sim.url;
process.env.WAREHOUSE_API_V2_URL = sim.urlV2;

let fake: ShopifyFake;
let server: RouteServer;

beforeAll(async () => {
  fake = await startShopifyFake({
    app: { apiKey: API_KEY, apiSecretKey: API_SECRET_KEY, scopes: "read_orders" },
  });
  routeShopifyTo(fake.url);
  const page = await import("../../app/routes/app.stock_.sku");
  const csv = await import("../../app/routes/app.stock_.sku[.]csv");
  server = await serveOnLoopback((request) => {
    const args = { request, params: {}, context: {} };
    return (
      new URL(request.url).pathname === "/app/stock/sku.csv"
        ? csv.loader(args)
        : page.loader(args).then((body) => Response.json(body))
    ).catch((thrown: unknown) => {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    });
  });
});

afterAll(async () => {
  await server.close();
  routeShopifyTo(undefined);
  await fake.close();
  await sim.close();
});

beforeEach(async () => {
  for (const name of [SHOP_NAME, NO_KEY_NAME]) {
    const domain = `${name}.myshopify.com`;
    if (fake.state.shop(domain)) continue;
    fake.state.addShop({
      domain,
      accessToken: `shpat_${name}`,
      name,
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      locales: [{ locale: "uk", primary: true }],
    });
  }
  const saved = await saveSettings(appContext(), SHOP, {
    apiKey: sim.apiKey,
    environment: "production",
    batchAddOrder: false,
    mapping: {},
  });
  if (!saved.ok) throw new Error(`settings refused: ${JSON.stringify(saved.errors)}`);
  sim.reset();
  sim.clock.set("2026-03-14T08:15:00Z");
});

async function get(path: string, params: Record<string, string>, shopName = SHOP_NAME) {
  const { token } = await getJwt(shopName, API_KEY, API_SECRET_KEY);
  return fetch(`${server.url}${path}?${new URLSearchParams(params)}`, {
    headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER },
  });
}

interface PageData {
  sku: string | null;
  card: { name: string | null; variants: { name: string; adminUrl: string | null }[]; warehouse: unknown };
  period: { from: string; to: string };
  errors: Record<string, { key: string; values?: Record<string, unknown> }>;
  movements:
    | null
    | { ok: false; reason: string; problem: { key: string } }
    | {
        ok: true;
        total: number;
        hidden: number;
        openingBalance: number | null;
        closingBalance: number | null;
        lines: { when: string; document: string; received: number; issued: number; balance: number }[];
      };
}

async function page(params: Record<string, string>, shopName = SHOP_NAME): Promise<PageData> {
  const response = await get("/app/stock/sku", params, shopName);
  expect(response.status).toBe(200);
  return (await response.json()) as PageData;
}

const moveRequests = () => sim.stats().requests[OPERATIONS.reportMoveProduct] ?? 0;

describe("the SKU page's movements", () => {
  it("gives the seeding, the shipment and the return with the balance after each, as the warehouse booked them", async () => {
    await appContext().db.catalogueItem.create({
      data: {
        shop: SHOP,
        variantId: "gid://shopify/ProductVariant/8101",
        productId: "gid://shopify/Product/7101",
        sku: TEA,
        name: "Чай зелений - 100 г",
        warehouseQuantity: 8,
        warehouseAvailable: 8,
        reportedAt: new Date("2026-03-14T11:00:00Z"),
      },
    });
    const shipped = await bookWarehouseDay(sim, TEA);

    // The SKU with "/", a space and Cyrillic travels whole, as the page's links encode it.
    const data = await page({ sku: TEA, ...DAY });
    expect(data.sku).toBe(TEA);
    expect(data.card).toMatchObject({
      name: "Чай зелений - 100 г",
      variants: [{ name: "Чай зелений - 100 г", adminUrl: "shopify://admin/products/7101/variants/8101" }],
      warehouse: { quantity: 8, available: 8, reportedAt: "2026-03-14T11:00:00.000Z" },
    });
    expect(data.movements).toEqual({
      ok: true,
      total: 3,
      hidden: 0,
      openingBalance: 0,
      closingBalance: 8,
      totalIn: 11,
      totalOut: 3,
      lines: [
        {
          when: "14.03.2026 10:15",
          document: expect.stringMatching(/^Оприходование товаров .+ от 14\.03\.2026$/),
          received: 10,
          issued: 0,
          balance: 10,
        },
        {
          when: "14.03.2026 11:00",
          document: `Реализация товаров ${shipped.id_order_FF} от 14.03.2026`,
          received: 0,
          issued: 3,
          balance: 7,
        },
        {
          when: "14.03.2026 12:00",
          document: expect.stringMatching(/^Возврат товаров от покупателя .+ от 14\.03\.2026$/),
          received: 1,
          issued: 0,
          balance: 8,
        },
      ],
    });

    // The same period as CSV: a quantity out is a negative number, not text.
    const csv = await get("/app/stock/sku.csv", { sku: TEA, ...DAY });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(
      'attachment; filename="movements-2026-03-14-2026-03-14.csv"',
    );
    const lines = (await csv.text()).split("\r\n");
    expect(lines[0]).toBe('"sku","date","document","quantity","balance"');
    expect(lines[2]).toBe(
      `"${TEA}","2026-03-14 11:00:00","Реализация товаров ${shipped.id_order_FF} от 14.03.2026","-3","7"`,
    );
    expect(lines).toHaveLength(5);
  });

  it("asks the warehouse for the whole Kyiv days of the period, and shows none from another day", async () => {
    await bookWarehouseDay(sim, TEA);
    const before = await page({ sku: TEA, from: "2026-03-01", to: "2026-03-13" });
    expect(before.movements).toMatchObject({ ok: true, total: 0, lines: [], openingBalance: null });
    // A SKU the store does not have is still asked about; its card says there is no variant.
    expect(before.card).toMatchObject({ name: null, variants: [], warehouse: null });
    const csv = await get("/app/stock/sku.csv", { sku: TEA, from: "2026-03-01", to: "2026-03-13" });
    expect(await csv.text()).toBe('"sku","date","document","quantity","balance"\r\n');
  });

  it("refuses a bad period beside its field, asking the warehouse nothing", async () => {
    const backwards = await page({ sku: TEA, from: "2026-03-14", to: "2026-03-01" });
    expect(backwards.errors).toEqual({ to: { key: "stock:sku.period.reversed" } });
    expect(backwards.movements).toBeNull();
    const long = await page({ sku: TEA, from: "2025-01-01", to: "2026-03-14" });
    expect(long.errors).toEqual({ to: { key: "stock:sku.period.tooLong", values: { max: 366 } } });
    const garbage = await page({ sku: TEA, from: "14/03/2026", to: "" });
    expect(garbage.errors).toEqual({ from: { key: "stock:sku.period.notDate" } });
    expect((await get("/app/stock/sku.csv", { sku: TEA, from: "2026-03-14", to: "2026-03-01" })).status).toBe(
      400,
    );
    // No SKU at all: the page asks for one.
    expect(await page({ sku: "  " })).toEqual({ sku: null, problem: { key: "stock:sku.noSku" } });
    expect(moveRequests()).toBe(0);
  });

  it("still shows the card when the warehouse fails or there is no key, with the problem said", async () => {
    await bookWarehouseDay(sim, TEA);
    sim.faults.failNext({ count: 5, status: 500, operations: [OPERATIONS.reportMoveProduct] });
    const failing = await page({ sku: TEA, ...DAY });
    expect(failing.movements).toEqual({
      ok: false,
      reason: "failed",
      problem: { key: "warehouse:error.serverError", values: { status: 500 } },
    });
    expect((await get("/app/stock/sku.csv", { sku: TEA, ...DAY })).status).toBe(503);
    sim.faults.clear();

    // The warehouse refuses a SKU it does not know, in its own words.
    const unknown = await page({ sku: "НЕМАЄ/1", ...DAY });
    expect(unknown.movements).toMatchObject({
      ok: false,
      problem: {
        key: "warehouse:error.refused",
        said: expect.stringContaining("НЕМАЄ/1"),
      },
    });

    // Another shop without a key: nothing asked with this shop's key, nothing of this shop's card.
    const requests = moveRequests();
    const other = await page({ sku: TEA, ...DAY }, NO_KEY_NAME);
    expect(other.movements).toEqual({ ok: false, reason: "noKey", problem: { key: "stock:sku.noKey" } });
    expect(moveRequests()).toBe(requests);
  });
});

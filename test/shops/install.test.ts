// Install as Shopify performs it for an embedded app: a session token from the admin, token exchange with
// Shopify (the fake), then our afterAuth hook reads the shop's facts over Admin GraphQL and keeps them.
import { API_KEY, API_SECRET_KEY, APP_URL, BASE64_HOST, getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import {
  runAdminOperation,
  ShopifyGraphqlError,
  ShopifyThrottled,
} from "../../app/shopify/admin-graphql.server";
import { authenticate } from "../../app/shopify.server";
import { decryptSecret, encryptionKey } from "../../app/settings/secret-box.server";
import { SHOP_FACTS_QUERY } from "../../app/shops/install.server";
import { recordShopUninstall } from "../../app/shops/lifecycle.server";
import { notifyTokenDigest } from "../../app/statuses/notify-token.server";
import { getOperationAST, parse } from "graphql";
import { adminSchema, operationCost, startShopifyFake, type ShopifyFake } from "../shopify-fake";
import { routeShopifyTo } from "../support/network";

const SHOP_NAME = "kyiv-goods";
const shop = `${SHOP_NAME}.myshopify.com`;
const GRANTED = "read_orders,write_inventory,read_locations";
// The library answers 410 to clients it takes for bots; the admin's iframe is a browser.
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";
let fake: ShopifyFake;
/** Set while a test needs the fake's throttle bucket to stand still. */
let frozenAt: number | undefined;

beforeAll(async () => {
  fake = await startShopifyFake({
    app: { apiKey: API_KEY, apiSecretKey: API_SECRET_KEY, scopes: GRANTED },
    now: () => frozenAt ?? Date.now(),
  });
  routeShopifyTo(fake.url);
});
afterAll(async () => {
  routeShopifyTo(undefined);
  await fake.close();
});
beforeEach(() => {
  if (fake.state.shop(shop)) return;
  fake.state.addShop({
    domain: shop,
    accessToken: "shpat_before_install",
    name: "Київські товари",
    currencyCode: "UAH",
    ianaTimezone: "Europe/Kyiv",
    locales: [{ locale: "en" }, { locale: "uk", primary: true }],
  });
});

async function openAppFromAdmin() {
  const { token } = await getJwt(SHOP_NAME, API_KEY, API_SECRET_KEY);
  const url = `${APP_URL}/app?embedded=1&shop=${shop}&host=${BASE64_HOST}&id_token=${token}`;
  return authenticate.admin(new Request(url, { headers: { "User-Agent": BROWSER } }));
}

describe("install", () => {
  it("records the shop's name, currency, IANA time zone, primary locale and scopes", async () => {
    const { session } = await openAppFromAdmin();

    const { db } = appContext();
    const record = await db.shop.findUniqueOrThrow({ where: { shop } });
    expect(record).toMatchObject({
      name: "Київські товари",
      currencyCode: "UAH",
      ianaTimezone: "Europe/Kyiv",
      primaryLocale: "uk",
      scopes: GRANTED,
      uninstalledAt: null,
    });
    // The offline token from the exchange is what the app stored and what the fake now accepts.
    expect(session.accessToken).toBe(fake.state.shop(shop)!.shop.accessToken);
    const stored = await db.session.findFirstOrThrow({ where: { shop, isOnline: false } });
    expect(stored.accessToken).toBe(session.accessToken);
    expect(fake.requests.filter((request) => request.operationName === "ShopFacts")).toHaveLength(1);
  });

  it("a reinstall after uninstall makes the shop active again and refreshes its facts", async () => {
    const { db } = appContext();
    await db.shop.create({
      data: {
        shop,
        name: "Old name",
        currencyCode: "USD",
        ianaTimezone: "UTC",
        primaryLocale: "en",
        scopes: "read_orders",
        installedAt: new Date("2026-01-01T00:00:00Z"),
        uninstalledAt: new Date("2026-02-01T00:00:00Z"),
      },
    });

    await openAppFromAdmin();

    const record = await db.shop.findUniqueOrThrow({ where: { shop } });
    expect(record.uninstalledAt).toBeNull();
    expect(record.name).toBe("Київські товари");
    expect(record.installedAt.getTime()).toBeGreaterThan(new Date("2026-02-01T00:00:00Z").getTime());
  });

  it("a re-authentication refreshes the facts but keeps the install date", async () => {
    const { db } = appContext();
    const installedAt = new Date("2026-01-01T00:00:00Z");
    await db.shop.create({
      data: {
        shop,
        name: "Old name",
        currencyCode: "UAH",
        ianaTimezone: "Europe/Kyiv",
        primaryLocale: "uk",
        scopes: "read_orders",
        installedAt,
      },
    });

    await openAppFromAdmin();

    const record = await db.shop.findUniqueOrThrow({ where: { shop } });
    expect(fake.requests.filter((request) => request.operationName === "ShopFacts")).not.toHaveLength(0);
    expect(record.name).toBe("Київські товари");
    expect(record.scopes).toBe(GRANTED);
    expect(record.installedAt).toEqual(installedAt);
    expect(record.uninstalledAt).toBeNull();
  });
});

describe("the warehouse notification address", () => {
  it("is made on install, and kept by a re-authentication and a reinstall", async () => {
    const { db } = appContext();
    await openAppFromAdmin();
    const made = await db.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(made.notifyTokenDigest).toMatch(/^[0-9a-f]{64}$/);
    const token = decryptSecret(made.notifyTokenCiphertext!, encryptionKey(undefined), shop);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(notifyTokenDigest(token)).toBe(made.notifyTokenDigest);

    await recordShopUninstall(appContext(), shop);
    await openAppFromAdmin();
    const kept = await db.shopSettings.findUniqueOrThrow({ where: { shop } });
    expect(kept.notifyTokenDigest).toBe(made.notifyTokenDigest);
    expect(kept.notifyTokenCiphertext).toBe(made.notifyTokenCiphertext);
  });
});

describe("Admin GraphQL failures", () => {
  async function admin() {
    const { admin } = await openAppFromAdmin();
    return admin;
  }

  it("a THROTTLED answer becomes ShopifyThrottled with the wait the cost extension implies", async () => {
    const client = await admin();
    // An empty bucket refilling 10 points a second: the wait is the query's cost divided by that rate. The
    // fake's clock stands still meanwhile, or a slow machine would see the bucket partly refilled.
    frozenAt = Date.now();
    fake.setThrottle({ shop, currentlyAvailable: 0, restoreRate: 10 });
    const document = parse(SHOP_FACTS_QUERY);
    const cost = operationCost(adminSchema(), document, getOperationAST(document)!, {});
    try {
      const failure = await runAdminOperation(client.graphql, SHOP_FACTS_QUERY).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ShopifyThrottled);
      expect(cost).toBeGreaterThan(0);
      expect((failure as ShopifyThrottled).retryAfterMs).toBe(Math.ceil((cost / 10) * 1000));
    } finally {
      fake.setThrottle({ shop, currentlyAvailable: 2000, restoreRate: 100 });
      frozenAt = undefined;
    }
  });

  it("an operation Shopify refuses becomes ShopifyGraphqlError carrying Shopify's message", async () => {
    const client = await admin();
    const failure = await runAdminOperation(client.graphql, "query Bad { shop { nope } }").catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ShopifyGraphqlError);
    expect((failure as Error).message).toMatch(/Bad.*nope/);
  });
});

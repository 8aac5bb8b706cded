// One app server, one Chromium and the Shopify fake per test file; a fresh signed-in browser context per
// test, which fails the test on any page error, browser console error or request to an unexpected host.
import { API_KEY, API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import type { Browser, Locator } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startShopifyFake, type ShopifyFake } from "../../shopify-fake";
import { startAppServer, type AppServer } from "../../support/app-server";
import { launchChromium, openAdmin, type AdminSession } from "../../support/browser";
import { routeShopifyTo } from "../../support/network";

export const SHOP_NAME = "kyiv-goods";
export const SHOP = `${SHOP_NAME}.myshopify.com`;

export interface AdminPages {
  server: AppServer;
  fake: ShopifyFake;
  admin: AdminSession;
  /** Another signed-in admin, in the given language (the default one is in English); closed after the test. */
  adminIn(locale: string): Promise<AdminSession>;
}

export function useAdminPages(): AdminPages {
  const pages = {} as AdminPages;
  let browser: Browser | undefined;
  const extra: AdminSession[] = [];
  pages.adminIn = async (locale) => {
    const session = await openAdmin(browser!, pages.server, SHOP_NAME, { locale });
    extra.push(session);
    return session;
  };

  beforeAll(async () => {
    pages.fake = await startShopifyFake({
      app: { apiKey: API_KEY, apiSecretKey: API_SECRET_KEY, scopes: "read_orders,write_fulfillments" },
    });
    routeShopifyTo(pages.fake.url);
    [pages.server, browser] = await Promise.all([startAppServer(), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await pages.server?.close();
    routeShopifyTo(undefined);
    await pages.fake?.close();
  });

  beforeEach(async () => {
    if (!pages.fake.state.shop(SHOP)) {
      pages.fake.state.addShop({
        domain: SHOP,
        accessToken: "shpat_before_install",
        name: "Київські товари",
        currencyCode: "UAH",
        ianaTimezone: "Europe/Kyiv",
        locales: [{ locale: "uk", primary: true }],
      });
    }
    pages.admin = await openAdmin(browser!, pages.server, SHOP_NAME);
  });

  afterEach(async () => {
    const sessions = [pages.admin, ...extra.splice(0)];
    const problems = sessions.flatMap((session) => session.takeProblems());
    await Promise.all(sessions.map((session) => session.close()));
    await pages.server.settled();
    if (problems.length) throw new Error(problems.join("\n"));
  });

  return pages;
}

/** The text of an element with its whitespace collapsed. */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? "").replace(/\s+/g, " ").trim();
}

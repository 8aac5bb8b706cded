// What the app keeps about a store: read from Admin GraphQL when the store installs (or re-installs) the
// app, so every later capability knows the shop's name, currency, time zone and language; and gives the shop
// its warehouse notification address.
import type { Clock } from "../context.server";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import { ensureNotifyToken } from "../statuses/notify-token.server";
import { runAdminOperation, type AdminGraphql } from "../shopify/admin-graphql.server";
import type { ShopFactsQuery } from "../types/admin.generated";

export const SHOP_FACTS_QUERY = `#graphql
  query ShopFacts {
    shop {
      name
      currencyCode
      ianaTimezone
    }
    shopLocales(published: true) {
      locale
      primary
    }
  }
`;

export interface ShopInstallDeps {
  db: Db;
  log: Log;
  clock: Clock;
  encryptionKey?: Buffer;
  admin: { graphql: AdminGraphql };
}

/**
 * Records an install or a re-authentication: the shop's facts and granted scopes, and, on the first
 * install or a reinstall after uninstall, that it is installed from now on.
 */
export async function recordShopInstall(
  { db, log, clock, admin, encryptionKey }: ShopInstallDeps,
  { shop, scopes }: { shop: string; scopes: string },
): Promise<void> {
  const facts = await runAdminOperation<ShopFactsQuery>(admin.graphql, SHOP_FACTS_QUERY);
  const primaryLocale = facts.shopLocales.find((locale) => locale.primary)?.locale ?? "en";
  const details = {
    name: facts.shop.name,
    currencyCode: facts.shop.currencyCode,
    ianaTimezone: facts.shop.ianaTimezone,
    primaryLocale,
    scopes,
  };
  const now = clock();
  // installedAt is when the app began to receive the shop's orders: the first install, or a reinstall
  // after an uninstall, never a re-authentication (intake tells orders placed before it by this date).
  const [reinstalled, record] = await db.$transaction([
    db.shop.updateMany({
      where: { shop, uninstalledAt: { not: null } },
      data: { installedAt: now, uninstalledAt: null },
    }),
    db.shop.upsert({
      where: { shop },
      create: { shop, ...details, installedAt: now },
      update: details,
      select: { installedAt: true },
    }),
  ]);
  // The warehouse notification address exists from the start; a reinstall keeps the one the warehouse has.
  await ensureNotifyToken(db, shop, { encryptionKey });
  const fresh = reinstalled.count > 0 || record.installedAt.getTime() === now.getTime();
  log.info(
    {
      shop,
      event: fresh ? "shop.installed" : "shop.reauthenticated",
      currencyCode: details.currencyCode,
      installedAt: record.installedAt.toISOString(),
    },
    fresh ? "shop installed" : "shop authenticated again; install date kept",
  );
}

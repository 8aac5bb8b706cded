// A store's life after install: uninstalling stops everything for it, a scope change is remembered.
import type { Clock } from "../context.server";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";

interface Deps {
  db: Db;
  log: Log;
  clock: Clock;
}

/**
 * Marks the shop uninstalled and deletes its sessions, so no background work can act for it any more
 * (workers only take shops whose `uninstalledAt` is empty). Its data stays until shop/redact.
 */
export async function recordShopUninstall({ db, log, clock }: Deps, shop: string): Promise<void> {
  await db.$transaction([
    db.shop.updateMany({ where: { shop, uninstalledAt: null }, data: { uninstalledAt: clock() } }),
    db.session.deleteMany({ where: { shop } }),
  ]);
  log.info({ shop, event: "shop.uninstalled" }, "shop uninstalled; sessions deleted");
}

/** Whether background work may run for the shop: installed, and not uninstalled since. */
export async function shopIsActive(db: Db, shop: string): Promise<boolean> {
  const record = await db.shop.findUnique({ where: { shop }, select: { uninstalledAt: true } });
  return record !== null && record.uninstalledAt === null;
}

/** Keeps the granted scopes of the shop's sessions and shop record in step with Shopify. */
export async function recordScopesUpdate(
  { db, log }: Omit<Deps, "clock">,
  shop: string,
  scopes: string[],
): Promise<void> {
  const scope = scopes.join(",");
  await db.$transaction([
    db.session.updateMany({ where: { shop }, data: { scope } }),
    db.shop.updateMany({ where: { shop }, data: { scopes: scope } }),
  ]);
  log.info({ shop, event: "shop.scopes_updated", scopes }, "granted scopes changed");
}

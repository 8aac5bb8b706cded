// The process-wide dependencies, built once from the environment: the database, the logger, the clock and the
// key secrets are encrypted with. Services take these as arguments; only route modules and entry points reach
// for this module.
import { createDb, type Db } from "./db.server";
import { env } from "./env.server";
import { createLogger, type Log } from "./logger.server";
import { configuredEncryptionKey } from "./settings/secret-box.server";

export type Clock = () => Date;

export interface AppContext {
  db: Db;
  log: Log;
  clock: Clock;
  /**
   * The key the shops' secrets (warehouse ApiKeys, notification tokens) are encrypted with, decoded once.
   * Dependencies a test builds without it get the configured one (keyOf, app/settings/secret-box.server.ts).
   */
  encryptionKey?: Buffer;
}

declare global {
  // Kept on globalThis so that Remix's development reloads do not open a new pool on every change.
  var skladSyncContext: AppContext | undefined;
}

export function appContext(): AppContext {
  globalThis.skladSyncContext ??= {
    db: createDb(env().DATABASE_URL),
    log: createLogger({ level: env().LOG_LEVEL }),
    clock: () => new Date(),
    encryptionKey: configuredEncryptionKey(),
  };
  return globalThis.skladSyncContext;
}

/** What a service needs: the context, and ways to tell the local worker about a shop (none in a job). */
export interface ServiceDeps extends AppContext {
  /** Work became due for the shop. */
  wake?: (shop: string, reason?: WakeReason) => void;
  /** The shop's standing changed (a new key, uninstalled): its loop must stop before its next step. */
  shopChanged?: (shop: string) => void;
}

/** Closes what the context opened; the server calls it during graceful shutdown. */
export async function closeAppContext(): Promise<void> {
  const context = globalThis.skladSyncContext;
  globalThis.skladSyncContext = undefined;
  if (context) {
    await context.db.$disconnect();
    context.log.flush();
  }
}

/**
 * Why a shop's worker is woken: new orders to send (which wait for the rate limits anyway, so a loop held
 * by them is not interrupted for each), or anything else, which is due now.
 */
export type WakeReason = "new_orders" | "due_now";

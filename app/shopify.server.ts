// The Shopify app: authentication, sessions in our database, the Admin API version and the install hook.
// Built once per process from the parsed environment.
import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, LogSeverity, shopifyApp } from "@shopify/shopify-app-remix/server";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import { ADMIN_API_VERSION } from "./api-version";
import { appContext } from "./context.server";
import { env } from "./env.server";
import { recordShopInstall } from "./shops/install.server";

/** The library's enum member for ADMIN_API_VERSION; fails loudly if the library does not know it. */
export const apiVersion = (() => {
  const version = Object.values(ApiVersion).find((value) => value === ADMIN_API_VERSION);
  if (!version) throw new Error(`@shopify/shopify-app-remix does not support Admin API ${ADMIN_API_VERSION}`);
  return version;
})();

const severities: Record<LogSeverity, "error" | "warn" | "info" | "debug"> = {
  [LogSeverity.Error]: "error",
  [LogSeverity.Warning]: "warn",
  [LogSeverity.Info]: "info",
  [LogSeverity.Debug]: "debug",
};

const { db, log } = appContext();
const config = env();

// The library's own messages go through our structured logger, under a `source` that says whose they are.
const logLibraryMessage = (severity: LogSeverity, message: string) => {
  log[severities[severity]]({ source: "shopify-app-remix" }, message);
};

const shopify = shopifyApp({
  apiKey: config.SHOPIFY_API_KEY,
  apiSecretKey: config.SHOPIFY_API_SECRET,
  apiVersion,
  scopes: config.SCOPES,
  appUrl: config.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: new PrismaSessionStorage(db),
  distribution: AppDistribution.AppStore,
  future: { unstable_newEmbeddedAuthStrategy: true, expiringOfflineAccessTokens: true },
  logger: { level: LogSeverity.Info, log: logLibraryMessage },
  hooks: {
    afterAuth: async ({ session, admin }) => {
      await recordShopInstall(
        { ...appContext(), admin },
        { shop: session.shop, scopes: session.scope ?? "" },
      );
    },
  },
  ...(config.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [config.SHOP_CUSTOM_DOMAIN] } : {}),
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;

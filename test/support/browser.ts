// Debian's Chromium driven by playwright-core, opening the app the way the Shopify admin does: an embedded
// URL carrying `shop`, `host` and a session token (`id_token`), then every request the page makes to the
// app carrying a fresh session token in `Authorization: Bearer`.
//
// How the page gets its session tokens: the real App Bridge script (cdn.shopify.com, unreachable here)
// defines `window.shopify.idToken()` and patches `window.fetch` so that requests to the app's own origin
// carry `Authorization: Bearer <session token>`; Remix's data requests and form submissions go through
// that fetch. A small shim stands in for the script and does the same, with tokens signed in the test
// process by getJwt (the app's secret, the shop as `dest`). authenticate.admin then takes the header
// path: it validates the token, loads the offline session (made by token exchange with the Shopify fake
// on the first request) and never needs the document's query parameters again.
import { existsSync } from "node:fs";
import { API_KEY, API_SECRET_KEY, BASE64_HOST, getJwt } from "@shopify/shopify-api/test-helpers";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { authenticate } from "../../app/shopify.server";
import type { AppServer } from "./app-server";

export const CHROMIUM_PATH = "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// The library answers 410 to user agents it takes for bots, and "HeadlessChrome" is one.
const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

// Stands in for App Bridge: the `shopify` global App Bridge React expects, and the fetch patch.
const APP_BRIDGE_SHIM = `
(() => {
  const idToken = () => window.__skladSyncSessionToken();
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url, location.href).origin !== location.origin) return realFetch(request);
    const headers = new Headers(request.headers);
    headers.set("Authorization", "Bearer " + (await idToken()));
    return realFetch(new Request(request, { headers }));
  };
  window.shopify = {
    config: { apiKey: ${JSON.stringify(API_KEY)} },
    idToken,
    toast: { show: (message) => document.body.setAttribute("data-toast", message), hide: () => {} },
    loading: () => {},
  };
})();
`;

declare global {
  interface Window {
    __skladSyncSessionToken(): Promise<string>;
  }
}

/** Launches Chromium, or fails with what to install. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}; the browser tests need Debian's package: ` +
        "run `apt-get install -y chromium` (as root) and run the tests again.",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface AdminSession {
  page: Page;
  /** Opens an admin path (e.g. `/app/orders`) as the Shopify admin would embed it, and waits for hydration. */
  open(path: string): Promise<void>;
  /** Page errors, console errors and requests to unexpected hosts seen since the last call, emptied. */
  takeProblems(): string[];
  close(): Promise<void>;
}

/** A browser context signed in to the app as the given shop (its *name*, as getJwt takes it). */
export async function openAdmin(
  browser: Browser,
  server: AppServer,
  shopName: string,
  /** The admin's language, as Shopify passes it on the embedded URL. */
  options: { locale?: string } = {},
): Promise<AdminSession> {
  const locale = options.locale ?? "en";
  const appUrl = server.url;
  const shop = `${shopName}.myshopify.com`;
  const sessionToken = async () => (await getJwt(shopName, API_KEY, API_SECRET_KEY)).token;
  const problems: string[] = [];
  const context: BrowserContext = await browser.newContext({ userAgent: USER_AGENT });
  context.setDefaultTimeout(10_000);
  // A file's first page is compiled on request by vite's dev server; in a fresh checkout, with two test
  // files compiling at once on two cores, that first navigation took 16 s.
  context.setDefaultNavigationTimeout(45_000);
  await context.exposeFunction("__skladSyncSessionToken", sessionToken);

  const appOrigin = new URL(appUrl).origin;
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    // A request a test held with its own page.route and then let go of (unroute) falls back here though the
    // page gave it up meanwhile: nothing is left to answer, and Playwright says so by throwing.
    if (url.origin === appOrigin)
      return route.continue().catch((error: unknown) => {
        if (!String(error).includes("Route is already handled")) throw error;
      });
    if (url.href === APP_BRIDGE_URL) {
      return route.fulfill({ contentType: "text/javascript", body: APP_BRIDGE_SHIM });
    }
    // Polaris' font stylesheet: the page works with the fallback fonts.
    if (url.hostname === "cdn.shopify.com" && url.pathname.startsWith("/static/fonts/")) {
      return route.fulfill({ contentType: "text/css", body: "" });
    }
    problems.push(`unexpected request from the page: ${route.request().method()} ${url.href}`);
    return route.abort();
  });

  // Vite's client module opens an HMR socket; the test server has none, so the page gets a socket
  // that never connects instead of an error in its console.
  await context.addInitScript(() => {
    window.WebSocket = class {
      readyState = 0;
      addEventListener() {}
      removeEventListener() {}
      send() {}
      close() {}
    } as unknown as typeof WebSocket;
  });

  const page = await context.newPage();
  page.on("pageerror", (error) => {
    let problem = `page error: ${error.name}: ${error.message}\n${error.stack ?? ""}`;
    if (/does not provide an export named/.test(error.message)) {
      problem +=
        "\n(a browser dependency was not pre-bundled by vite: see optimizeDeps in test/support/app-server.ts)";
    }
    problems.push(problem);
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`browser console error: ${message.text()}`);
  });

  return {
    page,
    async open(path) {
      const embedded = async (at: string) => {
        const url = new URL(at, appUrl);
        url.searchParams.set("embedded", "1");
        url.searchParams.set("shop", shop);
        url.searchParams.set("host", BASE64_HOST);
        url.searchParams.set("locale", locale);
        url.searchParams.set("id_token", await sessionToken());
        return url.href;
      };
      // A page's document request runs the layout's and the page's loaders side by side, and without a
      // stored session each would exchange the token; the Shopify fake, stricter than Shopify, revokes
      // the first token at the second exchange. So the app is installed first, through the app's own
      // authenticate.admin (token exchange with the fake, then the afterAuth hook); once a session is
      // stored this only checks the token.
      const app = await server.appModule<{ authenticate: typeof authenticate }>("/app/shopify.server.ts");
      await app.authenticate.admin(
        new Request(await embedded("/app"), { headers: { "User-Agent": USER_AGENT } }),
      );
      await page.goto(await embedded(path));
      await waitForHydration(page);
    },
    takeProblems: () => problems.splice(0),
    close: () => context.close(),
  };
}

/**
 * The page is interactive once Remix's router has initialised and React has hydrated every control
 * (React keeps its props on each element it hydrated): clicking before that would do nothing. React puts
 * those props on an element while it renders, before it commits the hydration (and it renders in slices,
 * letting the browser run in between), so the root's own mark is waited for too: it says the server's
 * HTML is React's from then on.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const router = (window as unknown as { __remixRouter?: { state: { initialized: boolean } } })
      .__remixRouter;
    if (router?.state.initialized !== true) return false;
    // Remix hydrates the whole document: the root's fiber hangs on it, and its state says whether the
    // server's HTML is still waiting for the commit.
    type HostRoot = { stateNode?: { current?: { memoizedState?: { isDehydrated?: boolean } } } };
    const rootKey = Object.keys(document).find((key) => key.startsWith("__reactContainer$"));
    const root = rootKey ? (document as unknown as Record<string, HostRoot>)[rootKey] : undefined;
    if (root?.stateNode?.current?.memoizedState?.isDehydrated !== false) return false;
    const controls = [...document.body.querySelectorAll("a, button, input, select, textarea")];
    return controls.every((control) => Object.keys(control).some((key) => key.startsWith("__reactProps$")));
  });
}

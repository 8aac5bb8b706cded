// The demo's one address: the stand-in for the Shopify admin (frame.ts) and the store view in front of the app,
// Shopify's webhooks and the warehouse's notifications sent straight to the app's route modules, and the app's
// pages compiled by vite in middleware mode once the app's environment is complete.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { createServer as createViteServer, type Plugin, type ViteDevServer } from "vite";
import { sendResponse, toRequest } from "../../test/support/app-server";
import { callRoute } from "../../test/support/route-modules";
import { subscriptionFor } from "../../test/support/webhooks";
import { DEMO_API_KEY, DEMO_API_SECRET } from "./environment";
import {
  adminFramePage,
  APP_BRIDGE_STAND_IN_PATH,
  APP_BRIDGE_URL,
  appBridgeStandIn,
  mintSessionToken,
  SESSION_TOKEN_PATH,
  STORE_VIEW_PATH,
} from "./frame";
import type { DemoOptions } from "./options";
import { DEMO_SHOP, DEMO_SHOP_NAME } from "./samples";

export interface DemoServer {
  server: Server;
  origin: string;
  /** The app's pages: the app's own Remix routes compiled by vite (not in --check). */
  startPages(): Promise<void>;
  /** Stops the pages' compiler, if it was started. */
  closePages(): Promise<void>;
}

/** The app's pages load App Bridge from Shopify's CDN; in the demo, server and browser load the stand-in. */
function appBridgeStandInPlugin(): Plugin {
  return {
    name: "sklad-sync-demo-app-bridge",
    transform(code) {
      return code.includes(APP_BRIDGE_URL)
        ? { code: code.replaceAll(APP_BRIDGE_URL, APP_BRIDGE_STAND_IN_PATH), map: null }
        : null;
    },
  };
}

/** Listens on the demo's port; the store view's page is `storeView()`'s, made when asked for. */
export async function startDemoServer(options: DemoOptions, storeView: () => string): Promise<DemoServer> {
  const { check, port } = options;
  let origin = "";
  let vite: ViteDevServer | undefined;
  let pages: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;

  // Shopify's webhooks and the warehouse's notifications go straight to their route modules (through
  // test/support/route-modules.ts, as the tests' route server does), so orders flow before, and without, the
  // pages' compiler.
  async function answerRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let response: Response;
    try {
      const request = toRequest(req, res, origin);
      const pathname = webhookPath(new URL(request.url).pathname, request.headers.get("x-shopify-topic"));
      if (pathname === null) return void res.writeHead(200).end();
      response = await callRoute(request, pathname);
    } catch (thrown) {
      if (!(thrown instanceof Response)) console.error(thrown);
      response =
        thrown instanceof Response
          ? thrown
          : new Response("The demo failed on this request.", { status: 500 });
    }
    await sendResponse(response, res);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://demo.invalid");
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" });
      res.end(body);
    };
    // The app's own "/" is the login form a merchant outside Shopify sees; the demo's address is the admin.
    if (req.method === "GET" && url.pathname === "/" && !url.searchParams.has("shop"))
      return send(200, "text/html", adminFramePage({ shop: DEMO_SHOP, shopName: DEMO_SHOP_NAME }));
    if (req.method === "GET" && url.pathname === APP_BRIDGE_STAND_IN_PATH)
      return send(200, "text/javascript", appBridgeStandIn(DEMO_API_KEY));
    if (req.method === "GET" && url.pathname === SESSION_TOKEN_PATH)
      return send(
        200,
        "text/plain",
        mintSessionToken({ shop: DEMO_SHOP, apiKey: DEMO_API_KEY, apiSecret: DEMO_API_SECRET }),
      );
    if (req.method === "GET" && url.pathname === STORE_VIEW_PATH) return send(200, "text/html", storeView());
    if (req.method === "POST" && /^\/(webhooks|warehouse\/notify|fulfillment-service)\//.test(url.pathname))
      return void answerRoute(req, res);
    if (check) return send(404, "text/plain", "Headless demo: no pages.");
    if (!vite || !pages) return send(503, "text/plain", "The demo is starting; try again in a moment.");
    vite.middlewares(req, res, () => void pages!(req, res));
  });
  // Longer than a client's idle keep-alive, so a pooled connection is never closed under a request.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE" ? new Error(`port ${port} is taken: choose another with --port`) : error,
      ),
    );
    server.listen(port, "127.0.0.1", resolve);
  }).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SHOPIFY_APP_URL = origin;

  // The pages: the app's own Remix routes compiled by vite. They share this process's app context and worker
  // (both kept on globalThis), so a page's Retry wakes the same worker the webhooks do.
  async function startPages(): Promise<void> {
    if (!check) {
      vite = await createViteServer({
        configFile: path.resolve("vite.config.ts"),
        mode: "development",
        logLevel: options.verbose ? "info" : "error",
        cacheDir: path.resolve(".cache/vite-demo"),
        plugins: [appBridgeStandInPlugin()],
        // The pages' development client opens vite's socket: it is served on the demo's own server (no other
        // port), and, with no file watching, never reloads a page under the visitor. Said in full: the project's
        // config (merged under this one) sends the client to the Shopify CLI's tunnel on 443 for any host but
        // localhost, and the demo's is 127.0.0.1.
        server: {
          middlewareMode: true,
          hmr: { server, protocol: "ws", host: "127.0.0.1", clientPort: Number(new URL(origin).port) },
          watch: null,
        },
        // Every route up front, so the first page does not find new dependencies and ask for a reload
        // (see test/support/app-server.ts).
        optimizeDeps: { entries: ["app/root.tsx", "app/routes/**/*.tsx"] },
        appType: "custom",
      });
      const loadBuild = () => vite!.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
      const handleRequest = createRequestHandler(loadBuild, "development");
      pages = async (req, res) => {
        try {
          const response = await handleRequest(toRequest(req, res, origin));
          await sendResponse(inFrame(await withStandIn(response)), res);
        } catch (error) {
          vite!.ssrFixStacktrace(error as Error);
          console.error(error);
          if (!res.headersSent) res.writeHead(500);
          res.end();
        }
      };
      // Compiled now, in the background, so that the first page opened does not wait for it.
      void loadBuild().catch((error: unknown) => console.error("the app's pages failed to compile:", error));
    }
  }

  return {
    server,
    origin,
    startPages,
    closePages: async () => {
      await vite?.close();
    },
  };
}

/**
 * The fake delivers its webhooks to `/webhooks/<topic>`; Shopify sends each topic to the address its
 * subscription in shopify.app.toml names (all fulfillment_orders/* topics to one route), so that is where it
 * goes. A topic the app does not subscribe to Shopify would not send: null (answered 200 and dropped).
 */
function webhookPath(pathname: string, topic: string | null): string | null {
  if (!topic || pathname !== `/webhooks/${topic}`) return pathname;
  try {
    return subscriptionFor(topic).uri;
  } catch {
    return null;
  }
}

/** The server-rendered page names the stand-in too, as the browser's modules do (the plugin above). */
async function withStandIn(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("text/html")) return response;
  const html = (await response.text()).replaceAll(APP_BRIDGE_URL, APP_BRIDGE_STAND_IN_PATH);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  // The preload hint the library adds for the script would fetch it from the CDN all the same.
  const hints = headers
    .get("link")
    ?.split(/,\s*(?=<)/)
    .filter((hint) => !hint.includes(APP_BRIDGE_URL));
  if (hints?.length) headers.set("link", hints.join(", "));
  else headers.delete("link");
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}

/** The app allows only the Shopify admin to frame it; here the admin is the stand-in on this origin. */
function inFrame(response: Response): Response {
  const policy = response.headers.get("content-security-policy");
  if (policy?.includes("frame-ancestors"))
    response.headers.set(
      "content-security-policy",
      policy.replace(/frame-ancestors[^;]*/, "frame-ancestors 'self'"),
    );
  return response;
}

// Shopify's app proxy as the tests play it: a storefront request to /apps/sklad-sync/<path>?<query> reaches
// the app's /proxy/<path> with the shop's parameters added and the whole query signed, as Shopify does it:
// every `key=value` (a repeated key's values joined with commas), sorted, concatenated with no separator,
// HMAC-SHA256 with the app's API secret, in hex, as `signature`.
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { sendResponse, toRequest } from "./app-server";

export const PROXY_PREFIX = "/apps/sklad-sync";

export interface ProxyVisit {
  shop: string;
  /** Empty for a visitor who is not logged in, as Shopify sends it. */
  customerId?: string;
  /** Seconds since the epoch; now by default. */
  timestamp?: number;
}

/** The query Shopify forwards: the storefront's own parameters, the proxy's, and the signature. */
export function signedProxyQuery(
  storefront: URLSearchParams,
  visit: ProxyVisit,
  secret: string,
): URLSearchParams {
  const values = new Map<string, string[]>();
  for (const [key, value] of storefront) values.set(key, [...(values.get(key) ?? []), value]);
  values.set("shop", [visit.shop]);
  values.set("logged_in_customer_id", [visit.customerId ?? ""]);
  values.set("path_prefix", [PROXY_PREFIX]);
  values.set("timestamp", [String(visit.timestamp ?? Math.trunc(Date.now() / 1000))]);
  const message = [...values]
    .map(([key, list]) => `${key}=${list.join(",")}`)
    .sort()
    .join("");
  const signature = createHmac("sha256", secret).update(message).digest("hex");
  const query = new URLSearchParams();
  for (const [key, list] of values) for (const value of list) query.append(key, value);
  query.set("signature", signature);
  return query;
}

type Loader = (args: {
  request: Request;
  params: Record<string, string>;
  context: object;
}) => Promise<Response>;

export interface ProxyRouteServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The app's proxy routes (app/routes/proxy.<name>.ts) behind a loopback HTTP server, each request going to
 * the route's loader as Remix would send it: /proxy/cities → proxy.cities.ts.
 */
export async function startProxyRouteServer(): Promise<ProxyRouteServer> {
  const routes = new Map<string, Promise<{ loader: Loader }>>();
  const answer = async (request: Request): Promise<Response> => {
    const name = /^\/proxy\/(\w+)$/.exec(new URL(request.url).pathname)?.[1];
    if (!name) return new Response("no such route", { status: 404 });
    const file = path.resolve(`app/routes/proxy.${name}.ts`);
    let route = routes.get(file);
    if (!route) {
      route = import(/* @vite-ignore */ file) as Promise<{ loader: Loader }>;
      routes.set(file, route);
    }
    try {
      return await (await route).loader({ request, params: {}, context: {} });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  let origin = "";
  const server: Server = createServer((req, res) => {
    void answer(toRequest(req, res, origin))
      .catch((error: unknown) => new Response(String(error), { status: 500 }))
      .then((response) => sendResponse(response, res));
  });
  // Longer than the client's idle keep-alive, so a pooled connection is never closed under a request
  // about to reuse it (which the client sees as ECONNRESET).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

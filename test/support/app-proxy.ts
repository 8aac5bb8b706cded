// Shopify's app proxy as the tests play it: a storefront request to /apps/sklad-sync/<path>?<query> reaches
// the app's /proxy/<path> with the shop's parameters added and the whole query signed, as Shopify does it:
// every `key=value` (a repeated key's values joined with commas), sorted, concatenated with no separator,
// HMAC-SHA256 with the app's API secret, in hex, as `signature`.
import { createHmac } from "node:crypto";
import path from "node:path";
import { serveOnLoopback, type RouteServer } from "./route-server";

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

export type ProxyRouteServer = RouteServer;

/**
 * The app's proxy routes (app/routes/proxy.<name>.ts) behind a loopback HTTP server, each request going to
 * the route's loader as Remix would send it: /proxy/cities → proxy.cities.ts.
 */
export async function startProxyRouteServer(): Promise<ProxyRouteServer> {
  const routes = new Map<string, Promise<{ loader: Loader }>>();
  const answer = async (request: Request, connection: { socketAddress?: string }): Promise<Response> => {
    const name = /^\/proxy\/(\w+)$/.exec(new URL(request.url).pathname)?.[1];
    if (!name) return new Response("no such route", { status: 404 });
    const file = path.resolve(`app/routes/proxy.${name}.ts`);
    let route = routes.get(file);
    if (!route) {
      route = import(/* @vite-ignore */ file) as Promise<{ loader: Loader }>;
      routes.set(file, route);
    }
    try {
      // As server.js gives it: the connection's address, for the visitor's rate limit.
      return await (await route).loader({ request, params: {}, context: connection });
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };
  return serveOnLoopback(answer);
}

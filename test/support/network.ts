// No test reaches beyond this machine. Requests to loopback pass; requests to a shop's myshopify.com
// address go to the Shopify fake when a test has started one; anything else fails the request AND the
// test (even if the code under test swallowed the error), and is listed in the failure.
import net from "node:net";

const realFetch = globalThis.fetch;
const unexpected: string[] = [];
let shopifyFakeUrl: string | undefined;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const isLoopback = (host: string) => LOOPBACK.has(host) || host.startsWith("127.");

/** Sends Admin API traffic for every *.myshopify.com shop to the fake at `url` (undefined: stop). */
export function routeShopifyTo(url: string | undefined): void {
  shopifyFakeUrl = url;
}

/** The outbound requests nobody expected since the last call, emptied. */
export function takeUnexpectedRequests(): string[] {
  return unexpected.splice(0);
}

function refuse(description: string): never {
  unexpected.push(description);
  throw new TypeError(`Unexpected outbound request in a test: ${description}`);
}

async function guardedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (isLoopback(url.hostname)) return realFetch(request);
  if (url.hostname.endsWith(".myshopify.com") && shopifyFakeUrl) {
    const headers = new Headers(request.headers);
    headers.set("x-fake-shop", url.hostname);
    const body =
      request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return realFetch(new URL(url.pathname + url.search, shopifyFakeUrl), {
      method: request.method,
      headers,
      body,
      signal: request.signal,
    });
  }
  return refuse(`${request.method} ${request.url}`);
}

/** Installed before any module under test is imported, since the Shopify library captures fetch at import. */
export function installNetworkGuard(): void {
  globalThis.fetch = guardedFetch;
  const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const [first, second] = args;
    const options = Array.isArray(first) ? (first[0] as net.NetConnectOpts) : first;
    const host =
      typeof options === "object" && options !== null
        ? "path" in options && options.path
          ? undefined
          : ((options as net.TcpNetConnectOpts).host ?? "localhost")
        : typeof second === "string"
          ? second
          : typeof first === "number"
            ? "localhost"
            : undefined;
    if (host !== undefined && !isLoopback(host)) refuse(`TCP connection to ${host}`);
    return connect.apply(this, args);
  } as typeof net.Socket.prototype.connect;
}

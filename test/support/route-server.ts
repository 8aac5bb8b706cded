// The app's webhook routes (and the warehouse notification route) behind a real HTTP server on loopback:
// requests arrive as bytes over a socket, are turned into Fetch requests as Remix's adapter does, and go to
// the route file that serves the URI, with the params its path gives.
// Lighter than the whole app (test/support/app-server.ts), whose request conversion it shares; the route
// modules are loaded by route-modules.ts, shared with the demo.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveOrderWebhook } from "../../app/webhooks/order-edge.server";
import { sendResponse, toRequest } from "./app-server";
import { callRoute } from "./route-modules";

export interface RouteServer {
  url: string;
  close(): Promise<void>;
}

async function answer(request: Request): Promise<Response> {
  try {
    return await callRoute(request);
  } catch (thrown) {
    return thrown instanceof Response ? thrown : new Response(String(thrown), { status: 500 });
  }
}

/**
 * The routes behind a loopback server. The order webhooks go to their bare edge first, as server.js
 * mounts it (`orderEdge: "fetch"` sends them through the Remix routes instead, to compare the two).
 */
export function startRouteServer(options: { orderEdge?: "bare" | "fetch" } = {}): Promise<RouteServer> {
  return serveOnLoopback(answer, options.orderEdge === "fetch" ? undefined : serveOrderWebhook);
}

/** `answer` behind a loopback HTTP server, requests converted as Remix's adapter converts them. */
export async function serveOnLoopback(
  answer: (request: Request, connection: { socketAddress?: string }) => Promise<Response>,
  /** Serves what it takes (answering true) before any request is converted, as server.js's bare edge. */
  bare?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<RouteServer> {
  let origin = "";
  const server: Server = createServer((req, res) => {
    if (bare?.(req, res)) return;
    void answer(toRequest(req, res, origin), { socketAddress: req.socket.remoteAddress })
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

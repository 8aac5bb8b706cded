// The app's webhook routes behind a real HTTP server on loopback: requests arrive as bytes over a socket,
// are turned into Fetch requests as Remix's adapter does, and go to the route file that serves the URI.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { routeFileFor } from "./webhooks";

type Action = (args: { request: Request; params: object; context: object }) => Promise<Response>;

async function toRequest(incoming: IncomingMessage, base: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(new URL(incoming.url ?? "/", base), {
    method: incoming.method,
    headers,
    body: incoming.method === "GET" ? undefined : Buffer.concat(chunks),
  });
}

export interface RouteServer {
  url: string;
  close(): Promise<void>;
}

export async function startRouteServer(): Promise<RouteServer> {
  let base = "";
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      let response: Response;
      try {
        const request = await toRequest(incoming, base);
        const route = (await import(
          /* @vite-ignore */ path.resolve(routeFileFor(new URL(request.url).pathname))
        )) as {
          action: Action;
        };
        response = await route.action({ request, params: {}, context: {} });
      } catch (thrown) {
        response = thrown instanceof Response ? thrown : new Response(String(thrown), { status: 500 });
      }
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

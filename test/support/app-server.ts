// The real Remix app served over loopback HTTP inside the test process, for browser tests: vite's dev
// server in middleware mode compiles the app on demand and serves its browser modules, and Remix's
// request handler answers everything else. Being the same process, the app sees the test's database
// (DATABASE_URL), environment, network guard and console guard.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  type ServerBuild,
  writeReadableStreamToWritable,
} from "@remix-run/node";
import { createServer as createViteServer } from "vite";

export interface AppServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Imports a module of the app as the app itself has it (`/app/shopify.server.ts`): the same instance. */
  appModule<T>(file: string): Promise<T>;
  /**
   * Resolves once no request to the app is being answered. A page closed at a test's end can leave a
   * request running in the server (a fetcher's loader, which may find no session and install the shop
   * again); the next test's database wipe must come after its writes, not before.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startAppServer(): Promise<AppServer> {
  const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? "0";
  // The background worker would call the warehouse; page tests exercise the pages and the services only.
  process.env.WORKER = "off";
  const vite = await createViteServer({
    configFile: path.resolve("vite.config.ts"),
    mode: "development",
    logLevel: process.env.PAGES_VITE_LOG === "1" ? "info" : "error",
    // One dependency cache per test worker: two servers optimizing into the same folder would collide.
    cacheDir: path.resolve(`.cache/vite-pages-${worker}`),
    // No HMR socket (the project's config pins its port, which parallel test files would fight over)
    // and no file watching: edits made while the tests run must not reload the app under test.
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    // Vite discovers dependencies while the first page loads (Remix loads route modules lazily), then
    // optimizes again and asks the page to reload, which this server cannot ask: the page would run two
    // copies of React. Scanning every route up front (what Remix's `unstable_optimizeDeps` does) finds
    // them all before the first page is served.
    optimizeDeps: { entries: ["app/root.tsx", "app/routes/**/*.tsx"] },
    appType: "custom",
  });
  const handleRequest = createRequestHandler(
    () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>,
    "development",
  );

  let origin = "";
  const remix = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      // Never aborted: Remix answers an aborted request at once but leaves its loaders running, and
      // settled() must see the end of their writes, not of the answer.
      const response = await handleRequest(toRequest(req, res, origin, { abortWhenClientLeaves: false }), {
        socketAddress: req.socket.remoteAddress,
      });
      await sendResponse(response, res);
    } catch (error) {
      vite.ssrFixStacktrace(error as Error);
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
  // Every request from its arrival until it is answered; one the app answers, until its loaders or action
  // have finished, even when the page went away first.
  const answering = new Set<Promise<void>>();
  const server = createHttpServer((req, res) => {
    const answer = new Promise<void>((resolve) => {
      let app = false;
      res.on("close", () => app || resolve());
      vite.middlewares(req, res, () => {
        app = true;
        void remix(req, res).finally(resolve);
      });
    }).finally(() => answering.delete(answer));
    answering.add(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    appModule: async <T>(file: string) => (await vite.ssrLoadModule(file)) as T,
    async settled() {
      while (answering.size) await Promise.all(answering);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await vite.close();
    },
  };
}

/**
 * A Node request as a Fetch request, the way Remix's adapters make one (aborted when the client leaves,
 * unless told not to).
 */
export function toRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  { abortWhenClientLeaves = true } = {},
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  if (abortWhenClientLeaves) res.on("close", () => controller.abort());
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody && { body: createReadableStreamFromReadable(req), duplex: "half" }),
  } as RequestInit);
}

/** Writes a Fetch response to a Node response, keeping each Set-Cookie header separate. */
export async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: [string, string][] = [];
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") headers.push([name, value]);
  }
  for (const cookie of response.headers.getSetCookie()) headers.push(["set-cookie", cookie]);
  res.writeHead(response.status, response.statusText, headers.flat());
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

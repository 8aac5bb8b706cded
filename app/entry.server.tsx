// Server rendering with streaming, plus the hook the production server calls to shut down cleanly.
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { appContext, closeAppContext } from "./context.server";
import { env } from "./env.server";
import { addDocumentResponseHeaders } from "./shopify.server";
import { webShutdownGraceMs } from "./warehouse/config.server";
import { closeWarehouseConnections } from "./warehouse/transport.server";
import { createEngine } from "./assembly/engine.server";
import { databaseFlavour } from "./db/flavour";
import { createWakeNotifier } from "./work/wake-channel.server";
import { installWakeNotifier, startProcessWorker, stopProcessWorker } from "./work/worker.server";

// The work engine runs inside the web process unless WORKER=off (separate `npm run worker` processes).
// Without one, on PostgreSQL, the webhooks taken in here wake those processes by NOTIFY (decision 022).
if (env().WORKER === "on" && env().NODE_ENV !== "test")
  startProcessWorker(() => createEngine(appContext(), env()));
else if (databaseFlavour(env().DATABASE_URL) === "postgresql")
  installWakeNotifier(createWakeNotifier(appContext()));

export const streamTimeout = 5000;

// Mounted by server.js before Express: the order webhooks' bare edge.
export { serveOrderWebhook } from "./webhooks/order-edge.server";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  const callbackName = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [callbackName]: () => {
        const body = new PassThrough();
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError(error) {
        reject(error);
      },
      onError(error) {
        responseStatusCode = 500;
        console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * Called by server.js after the HTTP server has stopped taking requests: waits for the worker's requests
 * to the warehouse still out and records their answers, then closes the connections and the database.
 */
export async function shutdown(): Promise<void> {
  await stopProcessWorker();
  // The last wake-ups out before the database closes.
  await globalThis.skladSyncWakeNotifier?.settled();
  await closeWarehouseConnections();
  await closeAppContext();
}

/** How long server.js lets a shutdown take before it exits anyway (from the warehouse's timeout). */
export function shutdownGraceMs(): number {
  return webShutdownGraceMs();
}

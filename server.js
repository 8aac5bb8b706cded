// The production server (`npm start`, after `npm run build`): serves the built assets and the Remix app,
// and shuts down gracefully: on SIGTERM or SIGINT it stops taking connections, lets requests in flight
// finish (up to the grace the build derives from WAREHOUSE_TIMEOUT_MS), then closes the database and exits.
import { createServer } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import express from "express";
import { capRequestBodies, ignoreCappedRequests } from "./body-cap.js";

// `npm start` is production unless NODE_ENV says otherwise, and for the whole process: Remix's mode below
// and the environment's check (app/env.server.ts, which then demands SKLAD_ENCRYPTION_KEY) read the same
// variable. Set before the build is imported, since importing it parses the environment.
if (!process.env.NODE_ENV) process.env.NODE_ENV = "production";

// Importing the build parses the environment (app/env.server.ts); a bad one stops here with its list.
let build;
try {
  build = await import("./build/server/index.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("build/server")) {
    console.error("No build found: run `npm run build` before `npm start`.");
  } else {
    console.error(error?.name === "InvalidEnvironmentError" ? error.message : error);
  }
  process.exit(1);
}
// Longer than a warehouse request may take, so the worker's last answers are recorded, not left in doubt.
const SHUTDOWN_GRACE_MS = build.entry.module.shutdownGraceMs?.() ?? 35_000;

const app = express();
app.disable("x-powered-by");
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
app.use(express.static("build/client", { maxAge: "1h" }));
// The connection's address reaches the loaders as `context.socketAddress` (app/http/connection.ts): the
// storefront's rate limit keys on it rather than on headers a visitor can write.
app.all(
  "*",
  capRequestBodies(),
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV ?? "production",
    getLoadContext: (req) => ({ socketAddress: req.socket.remoteAddress }),
  }),
);
app.use(ignoreCappedRequests);

// The order webhooks are answered by their bare edge before Express and Remix (app/webhooks/order-edge.server.ts:
// the same checks and intake as their routes, without the Fetch conversion); everything else goes to Express.
const serveOrderWebhook = build.entry.module.serveOrderWebhook;
if (typeof serveOrderWebhook !== "function") {
  console.error("The build has no serveOrderWebhook (app/entry.server.tsx): run `npm run build` again.");
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);
const server = createServer((req, res) => {
  if (!serveOrderWebhook(req, res)) app(req, res);
});
server.listen(port, () => {
  console.log(
    JSON.stringify({ level: "info", app: "sklad-sync", msg: "listening", port: server.address().port }),
  );
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ level: "info", app: "sklad-sync", msg: "shutting down", signal }));
  const forced = setTimeout(() => {
    console.error(
      JSON.stringify({ level: "error", app: "sklad-sync", msg: "requests still running; exiting" }),
    );
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  forced.unref();
  server.close(async () => {
    await build.entry.module.shutdown?.();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.once("SIGTERM", () => void stop("SIGTERM"));
process.once("SIGINT", () => void stop("SIGINT"));

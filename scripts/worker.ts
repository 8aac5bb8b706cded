// `npm run worker`: the work engine alone, beside web instances started with WORKER=off. Any number may
// run against one PostgreSQL database. SIGTERM or SIGINT lets the requests in flight finish, then exits.
import { appContext, closeAppContext } from "../app/context.server";
import { env, InvalidEnvironmentError } from "../app/env.server";
import { workerShutdownGraceMs } from "../app/warehouse/config.server";
import { closeWarehouseConnections } from "../app/warehouse/transport.server";
import { createEngine } from "../app/assembly/engine.server";

// A worker process is a deployment, like `npm start`: production unless NODE_ENV says otherwise, so it
// refuses to start without SKLAD_ENCRYPTION_KEY instead of failing to read every shop's key with the
// development key and pausing them all.
if (!process.env.NODE_ENV) process.env.NODE_ENV = "production";

let settings;
try {
  settings = env();
} catch (error) {
  console.error(error instanceof InvalidEnvironmentError ? error.message : error);
  process.exit(1);
}
const context = appContext();
const worker = createEngine(context, settings);
worker.start();
context.log.info({ event: "worker.started", holder: worker.holder }, "worker started");

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  context.log.info({ event: "worker.stopping", signal }, "worker stopping after the requests in flight");
  // Every request has its timeout, so this fires only if something hangs past them all.
  setTimeout(() => {
    context.log.error({ event: "worker.stop_timed_out" }, "requests still running; exiting");
    context.log.flush();
    process.exit(1);
  }, workerShutdownGraceMs()).unref();
  await worker.stop();
  await closeWarehouseConnections();
  await closeAppContext();
  process.exit(0);
}
process.once("SIGTERM", () => void stop("SIGTERM"));
process.once("SIGINT", () => void stop("SIGINT"));

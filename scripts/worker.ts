// `npm run worker`: the work engine alone, beside web instances started with WORKER=off. Any number may
// run against one PostgreSQL database. SIGTERM or SIGINT lets the requests in flight finish, then exits.
import { appContext, closeAppContext } from "../app/context.server";
import { env, InvalidEnvironmentError } from "../app/env.server";
import { warehouseEndpoints, workerShutdownGraceMs } from "../app/warehouse/config.server";
import { closeWarehouseConnections } from "../app/warehouse/transport.server";
import { createWorker } from "../app/work/worker.server";

let settings;
try {
  settings = env();
} catch (error) {
  console.error(error instanceof InvalidEnvironmentError ? error.message : error);
  process.exit(1);
}
const context = appContext();
const worker = createWorker({
  ...context,
  endpoints: warehouseEndpoints(settings),
  rateLimits: { windowMs: settings.WAREHOUSE_RATE_WINDOW_MS },
  ...(process.env.WORKER_SWEEP_MS && { sweepIntervalMs: Number(process.env.WORKER_SWEEP_MS) }),
  ...(process.env.WORKER_LEASE_TTL_MS && { leaseTtlMs: Number(process.env.WORKER_LEASE_TTL_MS) }),
});
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

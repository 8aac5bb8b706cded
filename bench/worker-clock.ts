// Loaded with `--import` into a worker process bench:shops starts (bench/support.ts, startWorkerProcess):
// the app's context with the benchmark's clock, which its warm-up ran ahead of real time, running at real
// time from there (BENCH_CLOCK_OFFSET_MS: the benchmark's clock minus real time when the worker started), so
// the worker reads the same time as the orders, schedules and rate-limit rows the benchmark wrote.
import { appContext } from "../app/context.server";

const offsetMs = Number(process.env.BENCH_CLOCK_OFFSET_MS ?? 0);
globalThis.skladSyncContext = { ...appContext(), clock: () => new Date(Date.now() + offsetMs) };

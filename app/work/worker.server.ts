// The process's worker: what an engine offers (Worker), the one engine a process runs (kept on globalThis
// across development reloads), and the wake-ups pages, webhooks and scripts send it when work became due or
// a shop's standing changed; on PostgreSQL a process without an engine reaches the others' by NOTIFY. The
// engine itself is app/work/machinery.server.ts, built by app/assembly/assembly.server.ts.
import type { WakeReason } from "../context.server";
import type { WakeNotifier } from "./wake-channel.server";

export interface Worker {
  start(): void;
  /** Stops taking work; resolves once the requests in flight have finished and leases are released. */
  stop(): Promise<void>;
  /**
   * Work became due for the shop: look now instead of at the next sweep. `heard`: a wake-up every engine
   * on the database heard (NOTIFY, decision 022), which the shop's lease holder acts on, so an engine that
   * found the lease held elsewhere lately leaves it to that holder.
   */
  wake(shop: string, reason?: WakeReason, heard?: "heard"): void;
  /**
   * The shop's standing changed (uninstalled, a new key, paused): its loop stops before its next step,
   * and starts again with what is saved now if work is due.
   */
  shopChanged(shop: string, heard?: "heard"): void;
  /** One sweep, resolved when every shop it found has run out of work due soon (for tests and benches). */
  sweep(): Promise<void>;
  readonly holder: string;
}

declare global {
  var skladSyncWorker: Worker | undefined;
  /** A process without its own engine on PostgreSQL (web with WORKER=off): how it wakes the others. */
  var skladSyncWakeNotifier: WakeNotifier | undefined;
}

/**
 * Wakes the worker for a shop: this process's own engine if it runs one; else, on PostgreSQL, every
 * engine on the database by NOTIFY (app/work/wake-channel.server.ts; decision 022). Called after the work
 * became due has been committed. Without either (SQLite without an engine, a script), the sweep finds it.
 */
export function wakeWorker(shop: string, reason?: WakeReason): void {
  const worker = globalThis.skladSyncWorker;
  if (worker) {
    if (reason) worker.wake(shop, reason);
    else worker.wake(shop);
    return;
  }
  globalThis.skladSyncWakeNotifier?.send({ shop, reason: reason ?? "due_now" });
}

/** Tells the worker the shop's standing changed (uninstalled, new key): see Worker.shopChanged. */
export function shopChanged(shop: string): void {
  const worker = globalThis.skladSyncWorker;
  if (worker) worker.shopChanged(shop);
  else globalThis.skladSyncWakeNotifier?.send({ shop, reason: "shop_changed" });
}

/** Makes a process without an engine wake the engines of other processes (PostgreSQL only). */
export function installWakeNotifier(notifier: WakeNotifier | undefined): void {
  globalThis.skladSyncWakeNotifier = notifier;
}

/** Starts this process's worker once (kept on globalThis across development reloads). */
export function startProcessWorker(build: () => Worker): Worker {
  globalThis.skladSyncWorker ??= build();
  globalThis.skladSyncWorker.start();
  return globalThis.skladSyncWorker;
}

export async function stopProcessWorker(): Promise<void> {
  const worker = globalThis.skladSyncWorker;
  globalThis.skladSyncWorker = undefined;
  await worker?.stop();
}

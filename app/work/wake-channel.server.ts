// Waking workers in other processes (decision 022). On PostgreSQL with separate workers (compose.yaml: web
// with WORKER=off, `npm run worker` beside it), the process that takes a webhook in has no engine to wake:
// it sends NOTIFY on one channel instead, after the transaction that made the work due has committed, and
// every engine on the database LISTENs on that channel through one dedicated connection and wakes itself.
// A NOTIFY is only a hint: one lost (a listener reconnecting, a notify that failed) costs latency up to the
// next sweep, never work, since the sweep still finds everything due. SQLite runs one process: none of this.
import pg from "pg";
import { z } from "zod";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";

/** The one channel; NOTIFY is per database, so two deployments on one server never hear each other. */
export const WAKE_CHANNEL = "sklad_sync_wake";

/**
 * What a notification carries: the shop and why, never anything secret (every session on the database
 * may LISTEN). A shop domain is at most 255 characters: the payload stays far below NOTIFY's 8,000 bytes.
 */
const wakeMessageSchema = z.object({
  shop: z.string().min(1).max(255),
  reason: z.enum(["new_orders", "due_now", "shop_changed"]),
});
export type WakeMessage = z.infer<typeof wakeMessageSchema>;

/** A notification's payload, or null when it is not one of ours (never throws). */
export function parseWakeMessage(payload: string | undefined): WakeMessage | null {
  if (payload === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = wakeMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export interface WakeNotifier {
  /** Tells every listening engine; returns at once (the NOTIFY goes out in the background). */
  send(message: WakeMessage): void;
  /** Resolves once every NOTIFY started has been answered (tests, shutdown). */
  settled(): Promise<void>;
}

/**
 * Sends wake-ups as NOTIFY through the app's database pool. A burst (a sale: a hundred webhooks a second
 * for one shop) sends at most one NOTIFY per shop and reason at a time, plus one more after it for what
 * came in meanwhile: that last one is issued after every commit that asked for it, so none is missed.
 */
export function createWakeNotifier(deps: { db: Db; log: Log }): WakeNotifier {
  const inFlight = new Map<string, Promise<void>>();
  const again = new Set<string>();
  let failing = false;

  function notify(key: string, message: WakeMessage) {
    const payload = JSON.stringify(message);
    const sent = deps.db.$executeRaw`SELECT pg_notify(${WAKE_CHANNEL}, ${payload})`
      .then(
        () => {
          if (failing)
            deps.log.info({ event: "worker.wake_notify_recovered" }, "wake-ups reach the workers again");
          failing = false;
        },
        (error: unknown) => {
          // Once per outage: the sweep finds the work meanwhile.
          if (!failing) {
            deps.log.warn(
              { event: "worker.wake_notify_failed", err: error },
              "could not notify the workers; they find the work at their next sweep",
            );
          }
          failing = true;
        },
      )
      .finally(() => {
        inFlight.delete(key);
        if (again.delete(key)) notify(key, message);
      });
    inFlight.set(key, sent);
  }

  return {
    send(message) {
      const key = `${message.reason}\n${message.shop}`;
      if (inFlight.has(key)) again.add(key);
      else notify(key, message);
    },
    async settled() {
      while (inFlight.size) await Promise.allSettled([...inFlight.values()]);
    },
  };
}

export interface WakeListenerOptions {
  connectionString: string;
  log: Log;
  onMessage: (message: WakeMessage) => void;
  /** Waits between attempts to connect again: doubling from the first to the most. */
  retry?: { firstMs: number; maxMs: number };
}

export interface WakeListener {
  start(): void;
  /** Closes the connection; no reconnect after. */
  stop(): Promise<void>;
  /** The listening connection's backend pid while connected (tests kill it), else null. */
  readonly backendPid: number | null;
}

/**
 * One dedicated connection (outside Prisma's pool: a pooled connection cannot hold a LISTEN) that hears the
 * channel and hands each well-formed message to `onMessage`. Connects again after any error, with a
 * doubling wait, and logs an outage once when it begins and once when it ends, not each attempt.
 */
export function createWakeListener(options: WakeListenerOptions): WakeListener {
  const { log } = options;
  const retry = options.retry ?? { firstMs: 250, maxMs: 30_000 };
  let client: pg.Client | undefined;
  let backendPid: number | null = null;
  let stopped = true;
  let retryMs = retry.firstMs;
  let retryTimer: NodeJS.Timeout | undefined;
  let outageSince: number | null = null;

  function lost(error: unknown) {
    backendPid = null;
    const old = client;
    client = undefined;
    old?.removeAllListeners();
    // An error after the connection broke is of no interest; nothing may throw from here.
    old?.on("error", () => {});
    void old?.end().catch(() => {});
    if (stopped) return;
    if (outageSince === null) {
      outageSince = Date.now();
      log.warn(
        { event: "worker.wake_listener_lost", err: error },
        "lost the connection that hears wake-ups; connecting again (work is found by the sweep meanwhile)",
      );
    }
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, retry.maxMs);
  }

  async function connect() {
    if (stopped) return;
    const next = new pg.Client({ connectionString: options.connectionString });
    client = next;
    next.on("error", (error) => {
      if (client === next) lost(error);
    });
    next.on("end", () => {
      if (client === next) lost(new Error("the connection ended"));
    });
    next.on("notification", (note) => {
      if (note.channel !== WAKE_CHANNEL) return;
      const message = parseWakeMessage(note.payload);
      if (!message) {
        log.warn(
          { event: "worker.wake_malformed", bytes: note.payload?.length ?? 0 },
          "ignored a wake-up notification that is not one of ours",
        );
        return;
      }
      try {
        options.onMessage(message);
      } catch (error) {
        log.error({ event: "worker.wake_failed", err: error }, "waking the worker failed");
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${WAKE_CHANNEL}`);
      const { rows } = await next.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      if (client !== next) return;
      backendPid = rows[0]!.pid;
      retryMs = retry.firstMs;
      if (outageSince !== null) {
        log.info(
          { event: "worker.wake_listener_back", outageMs: Date.now() - outageSince },
          "hearing wake-ups again",
        );
        outageSince = null;
      } else {
        log.debug({ event: "worker.wake_listener_ready", pid: backendPid }, "listening for wake-ups");
      }
    } catch (error) {
      if (client === next) lost(error);
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void connect();
    },
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      const old = client;
      client = undefined;
      backendPid = null;
      if (old) {
        old.removeAllListeners();
        old.on("error", () => {});
        await old.end().catch(() => {});
      }
    },
    get backendPid() {
      return backendPid;
    },
  };
}

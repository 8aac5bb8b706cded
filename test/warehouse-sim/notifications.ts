// Outbound status-change notifications: a JSON POST to the URL registered for the key, 2xx counts as
// delivered, otherwise three retries with exponential backoff on real timers. Every attempt is recorded.
import http, { type ClientRequest } from "node:http";
import https from "node:https";

export interface StatusNotification {
  id_order: string;
  id_order_FF: string;
  key_order: string;
  status_mtp: string;
  status_mtp_id: string;
  status_mtp_date: string;
  TTN: string;
}

export interface NotificationAttempt {
  /** One delivery is one notification (or one repeated copy of it) with up to 1 + retries attempts. */
  deliveryId: number;
  attempt: number;
  apiKey: string;
  url: string;
  body: StatusNotification;
  /** The receiver's HTTP status; absent when the request failed. */
  status?: number;
  error?: string;
  delivered: boolean;
  /** Simulator-clock and real moments the attempt was made. */
  at: number;
  realAt: number;
  /** True on the last attempt of a delivery that never got a 2xx. */
  gaveUp: boolean;
}

export interface NotifierOptions {
  baseDelayMs: number;
  retries: number;
  timeoutMs: number;
  now: () => number;
}

interface Delivery {
  id: number;
  apiKey: string;
  url: string;
  body: StatusNotification;
  payload: string;
}

export class Notifier {
  readonly attempts: NotificationAttempt[] = [];
  private nextDeliveryId = 1;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly requests = new Set<ClientRequest>();
  private outstanding = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: NotifierOptions) {}

  /** Sends `body` to `url`, `1 + extraCopies` times over (the repeated-notification fault). */
  notify(apiKey: string, url: string, body: StatusNotification, extraCopies = 0): void {
    if (this.closed) return;
    const payload = JSON.stringify(body);
    for (let copy = 0; copy <= extraCopies; copy++) {
      this.outstanding++;
      this.attempt({ id: this.nextDeliveryId++, apiKey, url, body, payload }, 1);
    }
  }

  /** Resolves once every notification has been delivered or given up, retries included. */
  idle(): Promise<void> {
    if (this.outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  clearRecords(): void {
    this.attempts.length = 0;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const request of this.requests) request.destroy();
    this.requests.clear();
    this.outstanding = 0;
    this.settle();
  }

  private attempt(delivery: Delivery, attempt: number): void {
    const record = (outcome: { status?: number; error?: string }) => {
      if (this.closed) return;
      const delivered = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
      const gaveUp = !delivered && attempt > this.options.retries;
      this.attempts.push({
        deliveryId: delivery.id,
        attempt,
        apiKey: delivery.apiKey,
        url: delivery.url,
        body: delivery.body,
        ...outcome,
        delivered,
        at: this.options.now(),
        realAt: Date.now(),
        gaveUp,
      });
      if (delivered || gaveUp) {
        this.outstanding--;
        this.settle();
        return;
      }
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          this.attempt(delivery, attempt + 1);
        },
        this.options.baseDelayMs * 2 ** (attempt - 1),
      );
      this.timers.add(timer);
    };
    this.post(delivery, record);
  }

  private post(delivery: Delivery, done: (outcome: { status?: number; error?: string }) => void): void {
    let target: URL;
    try {
      target = new URL(delivery.url);
    } catch {
      setImmediate(() => done({ error: `invalid URL ${delivery.url}` }));
      return;
    }
    let finished = false;
    const finish = (outcome: { status?: number; error?: string }) => {
      if (finished) return;
      finished = true;
      this.requests.delete(request);
      done(outcome);
    };
    const transport = target.protocol === "https:" ? https : http;
    const request = transport.request(
      target,
      {
        method: "POST",
        agent: false,
        timeout: this.options.timeoutMs,
        headers: {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(delivery.payload),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => finish({ status: response.statusCode }));
        response.on("error", (error) => finish({ error: error.message }));
      },
    );
    this.requests.add(request);
    request.on("timeout", () => request.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)));
    request.on("error", (error) => finish({ error: error.message }));
    request.end(delivery.payload);
  }

  private settle(): void {
    if (this.outstanding > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

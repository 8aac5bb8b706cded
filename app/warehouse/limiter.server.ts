// The warehouse's rate limits, kept on our side so that a 429 is never needed: 60 requests in any
// rolling minute per ApiKey, and one a minute for each report operation. The state lives behind a
// store interface so the work engine can keep it in the database and share it between processes.
import { createHash } from "node:crypto";
import {
  RATE_LIMIT_WINDOW_MS,
  REPORT_OPERATIONS,
  REPORT_REQUESTS_PER_WINDOW,
  REQUESTS_PER_WINDOW,
  type OperationName,
  type ReportOperation,
} from "./wire";

export interface RateLimitState {
  /** When each request of the current window was sent (ms since the epoch), oldest first. */
  sent: number[];
  /** When each report operation was last sent. */
  lastReport: Partial<Record<ReportOperation, number>>;
  /** After a 429 the warehouse is not called for this key before this instant. */
  blockedUntil?: number;
  /** After a 429 to a report operation, only that operation waits. */
  reportBlockedUntil?: Partial<Record<ReportOperation, number>>;
}

export interface RateLimitStore {
  /** Applies `change` to the key's state atomically for that key, stores the new state, returns the result. */
  update<R>(key: string, change: (state: RateLimitState) => { state: RateLimitState; result: R }): Promise<R>;
}

const emptyRateLimitState = (): RateLimitState => ({ sent: [], lastReport: {} });

/** State in this process only: right for one process, and for tests. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly states = new Map<string, RateLimitState>();

  update<R>(
    key: string,
    change: (state: RateLimitState) => { state: RateLimitState; result: R },
  ): Promise<R> {
    const { state, result } = change(this.states.get(key) ?? emptyRateLimitState());
    this.states.set(key, state);
    return Promise.resolve(result);
  }
}

export interface RateLimits {
  windowMs: number;
  requestsPerWindow: number;
  reportRequestsPerWindow: number;
  /**
   * Added to every computed wait. Our clock stamps a request when it leaves, the warehouse's when it
   * arrives; without a margin, a request delayed in transit can land inside the previous window.
   */
  marginMs: number;
}

export const WAREHOUSE_RATE_LIMITS: RateLimits = {
  windowMs: RATE_LIMIT_WINDOW_MS,
  requestsPerWindow: REQUESTS_PER_WINDOW,
  reportRequestsPerWindow: REPORT_REQUESTS_PER_WINDOW,
  marginMs: 200,
};

const REPORTS = new Set<string>(REPORT_OPERATIONS);
const isReport = (operation: OperationName): operation is ReportOperation => REPORTS.has(operation);

/** State is keyed by a digest of the ApiKey, so a persisted limiter never stores the key itself. */
export function rateLimitKey(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 32);
}

export interface Headroom {
  at: number;
  paceMs: number;
  /** The window's length and the requests it allows (the key's limit, scaled in tests). */
  windowMs: number;
  requestsPerWindow: number;
  /** The latest request in the window (ms since the epoch), if any. */
  lastAt: number | null;
}

/** `sentAt` names the send in the window, for `settle` once its answer is in. */
export type RateLimitDecision = { granted: true; sentAt: number } | { granted: false; retryAfterMs: number };

export class WarehouseRateLimiter {
  private readonly limits: RateLimits;
  private readonly now: () => number;

  constructor(
    private readonly store: RateLimitStore = new MemoryRateLimitStore(),
    options: { limits?: Partial<RateLimits>; now?: () => number } = {},
  ) {
    this.limits = { ...WAREHOUSE_RATE_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
  }

  /** When `operation` may next be called with this key (ms since the epoch; ≤ now means at once). */
  async nextAllowedAt(apiKey: string, operation: OperationName): Promise<number> {
    return (await this.headroom(apiKey, operation)).at;
  }

  /**
   * Where the key stands in its window: when `operation` may next be called, the latest request in the
   * window, and the window's even pace (the interval that spends it evenly).
   */
  async headroom(apiKey: string, operation: OperationName): Promise<Headroom> {
    const now = this.now();
    const { requestsPerWindow, windowMs } = this.limits;
    return this.store.update(rateLimitKey(apiKey), (state) => {
      const sent = this.inWindow(state.sent, now);
      return {
        state,
        result: {
          at: this.earliest(state, operation, now),
          paceMs: windowMs / requestsPerWindow,
          windowMs,
          requestsPerWindow,
          lastAt: sent.length ? Math.max(...sent) : null,
        },
      };
    });
  }

  /** Records a send if the limits allow it now; otherwise says how long to wait. */
  async tryAcquire(apiKey: string, operation: OperationName): Promise<RateLimitDecision> {
    const now = this.now();
    return this.store.update<RateLimitDecision>(rateLimitKey(apiKey), (state) => {
      const earliest = this.earliest(state, operation, now);
      if (earliest > now) return { state, result: { granted: false, retryAfterMs: earliest - now } };
      const sent = this.inWindow(state.sent, now);
      sent.push(now);
      const lastReport = isReport(operation) ? { ...state.lastReport, [operation]: now } : state.lastReport;
      return { state: { ...state, sent, lastReport }, result: { granted: true, sentAt: now } };
    });
  }

  /**
   * The request stamped `sentAt` has been answered (or failed): it counts from now instead. The warehouse
   * stamps a request when it arrives, at some moment between our send and its answer, so counting from
   * the answer keeps our window behind the warehouse's whatever the latency (a fixed margin alone did not:
   * a busy moment delayed requests past it and drew 429s).
   */
  async settle(apiKey: string, operation: OperationName, sentAt: number): Promise<void> {
    const now = this.now();
    await this.store.update(rateLimitKey(apiKey), (state) => {
      const index = state.sent.indexOf(sentAt);
      if (index < 0) return { state, result: undefined };
      const sent = [...state.sent];
      sent.splice(index, 1);
      sent.push(now);
      sent.sort((a, b) => a - b);
      const lastReport =
        isReport(operation) && state.lastReport[operation] === sentAt
          ? { ...state.lastReport, [operation]: now }
          : state.lastReport;
      return { state: { ...state, sent, lastReport }, result: undefined };
    });
  }

  /**
   * The warehouse answered 429 to `operation`: hold it until `until`. A report operation most likely
   * hit its own once-a-minute limit, so only it waits (should it have been the overall limit, the next
   * other call meets its own 429 and holds everything); any other operation holds the whole key.
   */
  async blockUntil(apiKey: string, operation: OperationName, until: number): Promise<void> {
    await this.store.update(rateLimitKey(apiKey), (state) => {
      if (isReport(operation)) {
        const reportBlockedUntil = { ...state.reportBlockedUntil };
        reportBlockedUntil[operation] = Math.max(reportBlockedUntil[operation] ?? 0, until);
        return { state: { ...state, reportBlockedUntil }, result: undefined };
      }
      return {
        state: { ...state, blockedUntil: Math.max(state.blockedUntil ?? 0, until) },
        result: undefined,
      };
    });
  }

  private inWindow(sent: number[], now: number): number[] {
    const { windowMs, marginMs } = this.limits;
    return sent.filter((at) => at + windowMs + marginMs > now);
  }

  private earliest(state: RateLimitState, operation: OperationName, now: number): number {
    const { windowMs, marginMs, requestsPerWindow, reportRequestsPerWindow } = this.limits;
    let earliest = Math.max(now, state.blockedUntil ?? 0);
    const sent = this.inWindow(state.sent, now);
    if (sent.length >= requestsPerWindow) {
      // The oldest request that must leave the window before one more fits.
      earliest = Math.max(earliest, sent[sent.length - requestsPerWindow]! + windowMs + marginMs);
    }
    if (isReport(operation) && reportRequestsPerWindow > 0) {
      const last = state.lastReport[operation];
      if (last !== undefined) earliest = Math.max(earliest, last + windowMs + marginMs);
    }
    if (isReport(operation)) earliest = Math.max(earliest, state.reportBlockedUntil?.[operation] ?? 0);
    return earliest;
  }
}

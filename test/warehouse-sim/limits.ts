// The provider's rate limits per ApiKey on the simulator clock: a rolling window for all operations together
// and a stricter one per report operation. Only requests that reach an operation are counted.
import {
  RATE_LIMIT_WINDOW_MS,
  REPORT_OPERATIONS,
  REPORT_REQUESTS_PER_WINDOW,
  REQUESTS_PER_WINDOW,
} from "./spec-literals";
import type { RateWindows } from "./state";

export interface RateLimitSettings {
  requestsPerWindow: number;
  reportRequestsPerWindow: number;
  windowMs: number;
}

/** `false` switches limits off (the benchmark); a partial object changes some of the provider's values. */
export type RateLimitOption = false | Partial<RateLimitSettings>;

/**
 * The provider's limits scaled from a minute to a second, so that flows built on them take seconds: the
 * end-to-end tests (test/e2e/harness.ts) and the demo (scripts/demo) both run the simulator and the app's
 * limiter (WAREHOUSE_RATE_WINDOW_MS) on these.
 */
export const SCALED_LIMITS = { windowMs: 1_000, requestsPerWindow: 60, reportRequestsPerWindow: 1 };

export type RateDecision =
  { allowed: true } | { allowed: false; reason: "overall" | "report"; retryAfterSeconds: number };

const REPORTS = new Set<string>(REPORT_OPERATIONS);

export function rateLimitSettings(option: RateLimitOption | undefined): RateLimitSettings | null {
  if (option === false) return null;
  return {
    requestsPerWindow: option?.requestsPerWindow ?? REQUESTS_PER_WINDOW,
    reportRequestsPerWindow: option?.reportRequestsPerWindow ?? REPORT_REQUESTS_PER_WINDOW,
    windowMs: option?.windowMs ?? RATE_LIMIT_WINDOW_MS,
  };
}

export class RateLimiter {
  constructor(public settings: RateLimitSettings | null) {}

  /** Admits the request and counts it, or says which window is full and when a slot frees up. */
  admit(windows: RateWindows, operation: string, now: number): RateDecision {
    const settings = this.settings;
    if (!settings) return { allowed: true };
    const since = now - settings.windowMs;
    const all = prune(windows.all, since);
    let reports: number[] | undefined;
    if (REPORTS.has(operation)) {
      reports = prune(windows.reports.get(operation) ?? [], since);
      windows.reports.set(operation, reports);
      if (reports.length >= settings.reportRequestsPerWindow)
        return { allowed: false, reason: "report", retryAfterSeconds: retryAfter(reports, settings, now) };
    }
    if (all.length >= settings.requestsPerWindow)
      return { allowed: false, reason: "overall", retryAfterSeconds: retryAfter(all, settings, now) };
    all.push(now);
    reports?.push(now);
    return { allowed: true };
  }
}

/** Drops the moments that left the window (kept in arrival order, so they are at the front). */
function prune(moments: number[], since: number): number[] {
  let expired = 0;
  while (expired < moments.length && moments[expired]! <= since) expired++;
  if (expired > 0) moments.splice(0, expired);
  return moments;
}

/** Whole seconds until the oldest counted request leaves the window (at least one). */
function retryAfter(moments: readonly number[], settings: RateLimitSettings, now: number): number {
  const oldest = moments[0] ?? now;
  return Math.max(1, Math.ceil((oldest + settings.windowMs - now) / 1000));
}

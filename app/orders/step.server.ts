// What the order steps of a shop's work share: their dependencies, what a step answers the engine, how a
// warehouse error reads to the order rules, and the request log kept on the timeline.
import type { ServiceDeps } from "../context.server";
import type { WarehouseClient, WarehouseExchange } from "../warehouse/client.server";
import {
  WarehouseBusinessError,
  WarehouseRateLimited,
  WarehouseUnauthorized,
  type WarehouseError,
} from "../warehouse/errors";
import type { OperationName } from "../warehouse/wire";
import { backoffMs, type BACKOFF } from "../work/backoff";
import type { Failure } from "./state-machine";

export interface ShopWorkDeps extends ServiceDeps {
  warehouse: WarehouseClient;
  random?: () => number;
  /** Retry timing; scaled down in tests together with the simulator's limits. */
  backoff?: typeof BACKOFF;
  /** How long after an ambiguous failure the order is looked up (the warehouse may still be working on it). */
  inDoubtSettleMs?: number;
}

// What a step answers the engine is the engine's own type (app/work/steps.server.ts).
export { KEY_REFUSED, NOTHING, STOP, WORK, type StepResult } from "../work/steps.server";

export const IN_DOUBT_SETTLE_MS = 5_000;

export const UNAUTHORIZED_REASON =
  "The warehouse refused the ApiKey (HTTP 401). Nothing was lost: orders wait until a valid key is saved in Settings.";

/**
 * Lets whatever is waiting on the event loop (webhooks above all) run before the next piece of a batch.
 * SQLite runs on this thread and Prisma's steps resolve without returning to the loop, so a batch's claim,
 * request and settle would otherwise hold it for tens of milliseconds at a stretch, every webhook behind.
 */
export const yieldToIntake = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether the limits let `operation` go now; else when. */
export async function limiterWait(deps: ShopWorkDeps, operation: OperationName): Promise<Date | null> {
  const at = await deps.warehouse.nextAllowedAt(operation);
  return at > deps.clock().getTime() ? new Date(at) : null;
}

/** One call's exchanges (key masked), for the timeline; calls overlap, so each keeps its own. */
export function exchangeLog() {
  const exchanges: WarehouseExchange[] = [];
  return {
    onExchange: (exchange: WarehouseExchange) => void exchanges.push(exchange),
    last: () => exchanges.at(-1),
  };
}

/** Longest answer text an event keeps: enough for any error page the warehouse sends. */
const ANSWER_EXCERPT_CHARS = 2_000;

/**
 * A request and its answer as an order's timeline keeps them. A successful AddOrder batch answers for
 * up to a hundred orders at once, and each order's event already holds its own part of that answer, so
 * the whole text is kept only when it explains a failure (copied into a hundred events, it was most of
 * the worker's time and of the table).
 */
export function exchangeSummary(exchange: WarehouseExchange | undefined, options: { batch?: boolean } = {}) {
  if (!exchange) return undefined;
  const keepAnswer = !options.batch || exchange.error !== undefined;
  return {
    operation: exchange.operation,
    url: exchange.url,
    status: exchange.status,
    durationMs: Math.round(exchange.durationMs),
    answer: keepAnswer ? exchange.answer?.slice(0, ANSWER_EXCERPT_CHARS) : undefined,
    error: exchange.error?.message,
  };
}

/** When to try again after a transient failure: the warehouse's Retry-After if it gave one, else backoff. */
export function retryAt(deps: ShopWorkDeps, error: WarehouseError, attempts: number, at: Date): Date {
  const waitMs =
    error instanceof WarehouseRateLimited && error.retryAfterMs !== undefined
      ? Math.max(error.retryAfterMs, 1_000)
      : backoffMs(attempts, deps.random, deps.backoff);
  return new Date(at.getTime() + waitMs);
}

/**
 * A warehouse error as the order rules read it. An AddOrder that may have been carried out is in doubt
 * (looked up, never resent blind); an edit or cancellation may simply go again. An error that the same
 * request will always meet (400, 404, our own schema, the warehouse's refusal) stops with its reason.
 */
export function failureOf(
  deps: ShopWorkDeps,
  error: WarehouseError,
  request: { attempts: number; at: Date; addOrder: boolean },
): Failure {
  // The warehouse's own words when it gave them (shown to the merchant as they are).
  const reason = error instanceof WarehouseBusinessError ? error.messages.join(" ") : error.message;
  if (error instanceof WarehouseUnauthorized) return { kind: "key_refused", reason: UNAUTHORIZED_REASON };
  if (request.addOrder && error.inDoubt) {
    const settle = deps.inDoubtSettleMs ?? IN_DOUBT_SETTLE_MS;
    return {
      kind: "in_doubt",
      reason: `No clear answer: ${reason}.`,
      lookAt: new Date(request.at.getTime() + settle),
    };
  }
  if (!error.retryable) return { kind: "refused", reason };
  return { kind: "transient", reason, retryAt: retryAt(deps, error, request.attempts + 1, request.at) };
}

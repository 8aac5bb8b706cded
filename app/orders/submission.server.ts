// Sending orders to the warehouse, for one shop, by the worker holding that shop's lease: ready orders
// in AddOrder batches, in-doubt orders looked up before anything is sent again, then edits and
// cancellations. Each step does one request's worth of work and says when it can do more.
import { Prisma, type WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { sqlFragments } from "../db.server";
import type { WarehouseClient, WarehouseExchange, OrderSubmissionOutcome } from "../warehouse/client.server";
import {
  WarehouseBusinessError,
  WarehouseError,
  WarehouseRateLimited,
  WarehouseRequestInvalid,
  WarehouseUnauthorized,
} from "../warehouse/errors";
import type { WarehouseOrder } from "../warehouse/schemas";
import { MAX_ORDERS_PER_BATCH, OPERATIONS, type OperationName } from "../warehouse/wire";
import { backoffMs, type BACKOFF } from "../work/backoff";
import { KEY_REFUSED, NOTHING, WORK, type StepResult } from "../work/steps";
import { ATTENTION, ORDER_STATE, PENDING } from "./states";
import { EVENT, recordEvents, type OrderEventInput } from "./timeline.server";

export interface ShopWorkDeps extends ServiceDeps {
  warehouse: WarehouseClient;
  random?: () => number;
  /** Retry timing; scaled down in tests together with the simulator's limits. */
  backoff?: typeof BACKOFF;
  /** How long after an ambiguous failure the order is looked up (the warehouse may still be working on it). */
  inDoubtSettleMs?: number;
}

export type { StepResult } from "../work/steps";

export const IN_DOUBT_SETTLE_MS = 5_000;

export const UNAUTHORIZED_REASON =
  "The warehouse refused the ApiKey (HTTP 401). Nothing was lost: orders wait until a valid key is saved in Settings.";

type Change = { row: OrderRow; data: Partial<OrderRow> };

/** The warehouse's own ids for an order, which differ from row to row. */
type WarehouseIds = Pick<OrderRow, "idOrderFF" | "keyOrder">;

/** An order was changed by someone else after the worker read it; nothing of the commit was written. */
class ChangedMeanwhile extends Error {}

/**
 * Applies changes conditionally on each order still being in the state read, with their events, in one
 * transaction of a few statements however many orders change: orders given the same columns share one
 * update, and the warehouse's ids (the one thing that differs per order) go in one more. The cost of a
 * statement, not of a row, is what counts here; a batch of 100 orders row by row was most of a batch's time.
 *
 * With `asClaimed`, each order must also still be as the AddOrder claim left it (no update or
 * cancellation came in since); if any is not, nothing is written and ChangedMeanwhile is thrown.
 */
async function commit(
  deps: ServiceDeps,
  changes: Change[],
  events: OrderEventInput[],
  options: { asClaimed?: boolean } = {},
): Promise<void> {
  const { db } = deps;
  const groups = new Map<string, { state: string; data: Partial<OrderRow>; ids: string[] }>();
  const warehouseIds: { id: string; ids: WarehouseIds }[] = [];
  for (const { row, data } of changes) {
    const { idOrderFF, keyOrder, ...rest } = data;
    const perRow = typeof idOrderFF === "string" && typeof keyOrder === "string";
    if (perRow) warehouseIds.push({ id: row.id, ids: { idOrderFF, keyOrder } });
    const shared = perRow ? rest : data;
    // Dates become their ISO strings here, so equal data groups together whatever the Date objects.
    const key = JSON.stringify([row.state, shared]);
    const group = groups.get(key) ?? { state: row.state, data: shared, ids: [] as string[] };
    group.ids.push(row.id);
    groups.set(key, group);
  }
  const asClaimed = options.asClaimed
    ? { pending: null, mapped: { equals: db.warehouseOrder.fields.sentOrder } }
    : {};
  await db.$transaction(async (tx) => {
    for (const { state, data, ids } of groups.values()) {
      const where = { id: { in: ids }, state, ...asClaimed };
      const { count } = await tx.warehouseOrder.updateMany({ where, data });
      if (options.asClaimed && count !== ids.length) throw new ChangedMeanwhile();
    }
    if (warehouseIds.length) {
      const { join, sql } = sqlFragments(db);
      const caseOf = (column: keyof WarehouseIds) =>
        join(
          warehouseIds.map(({ id, ids }) => sql`WHEN ${id} THEN ${ids[column]}`),
          " ",
        );
      await tx.$executeRaw`
        UPDATE "WarehouseOrder"
        SET "idOrderFF" = CASE "id" ${caseOf("idOrderFF")} END, "keyOrder" = CASE "id" ${caseOf("keyOrder")} END
        WHERE "id" IN (${join(warehouseIds.map(({ id }) => id))}) AND "state" = ${ORDER_STATE.accepted}`;
    }
    await recordEvents(tx, events);
  });
}

/**
 * Lets whatever is waiting on the event loop (webhooks above all) run before the next piece of a batch.
 * SQLite runs on this thread and Prisma's steps resolve without returning to the loop, so a batch's claim,
 * request and settle would otherwise hold it for tens of milliseconds at a stretch, every webhook behind.
 */
const yieldToIntake = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether the limits let `operation` go now; else when. */
async function limiterWait(deps: ShopWorkDeps, operation: OperationName): Promise<Date | null> {
  const at = await deps.warehouse.nextAllowedAt(operation);
  return at > deps.clock().getTime() ? new Date(at) : null;
}

/** One call's exchanges (key masked), for the timeline; calls overlap, so each keeps its own. */
function exchangeLog() {
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
function exchangeSummary(exchange: WarehouseExchange | undefined, options: { batch?: boolean } = {}) {
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

/** The columns of an order row, for SQL that answers one (the names come from the schema, not from input). */
const ORDER_COLUMNS = Object.values(Prisma.WarehouseOrderScalarFieldEnum)
  .map((column) => `"${column}"`)
  .join(", ");

/**
 * Claims the ready orders among `ids` for one AddOrder, in one statement: each becomes `submitting` with
 * the body about to be sent fixed as `sentOrder`, so from here on a crash leaves it in doubt, never unsent
 * and never sent twice. Answers the orders claimed, as the claim left them.
 */
async function claimForSubmission(db: ServiceDeps["db"], ids: string[], now: Date): Promise<OrderRow[]> {
  const { join, raw } = sqlFragments(db);
  return db.$queryRaw`
    UPDATE "WarehouseOrder"
    SET "state" = ${ORDER_STATE.submitting}, "sentOrder" = "mapped",
      "submittedAt" = ${now}, "updatedAt" = ${now}
    WHERE "id" IN (${join(ids)}) AND "state" = ${ORDER_STATE.ready} AND "mapped" IS NOT NULL
    RETURNING ${raw(ORDER_COLUMNS)}`;
}

/**
 * The AddOrder batches of one shop on their way. Each leaves as soon as the limits let it and is settled
 * when its answer comes, so several can be out at once: sending them one after another made the network's
 * latency, and our own bookkeeping, the pace instead of the warehouse's limits. A few at most, because a
 * worker that dies leaves them all in doubt, to be looked up page by page (one ListOrder page a minute).
 */
export class BatchesInFlight {
  private readonly out = new Set<Promise<void>>();
  private failure: unknown;
  private stop = false;

  constructor(readonly limit: number) {}

  get size(): number {
    return this.out.size;
  }

  /** `settling` answers "stop" when the warehouse refused the key: the shop's work must stop. */
  add(settling: Promise<"stop" | "go">): void {
    const tracked: Promise<void> = settling
      .then((next) => void (this.stop ||= next === "stop"))
      .catch((error: unknown) => {
        // Kept for the next step to throw, where the worker's error handling sees it.
        this.failure ??= error;
      })
      .finally(() => this.out.delete(tracked));
    this.out.add(tracked);
  }

  /** What the batches settled so far call for: throws what went wrong settling one, if anything did. */
  next(): StepResult {
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
    return this.stop ? KEY_REFUSED : WORK;
  }

  /** Resolves when one batch is settled (at once when none is out). */
  async one(): Promise<void> {
    if (this.out.size) await Promise.race(this.out);
  }

  async all(): Promise<void> {
    await Promise.all(this.out);
  }
}

/**
 * Sends the next AddOrder batch of the shop's due ready orders, and returns once it has left (its answer
 * is settled in the background, tracked by `inFlight`), or once a batch already out is settled when
 * `inFlight` is full or nothing else is due.
 */
export async function submitReadyOrders(
  deps: ShopWorkDeps,
  shop: string,
  inFlight: BatchesInFlight,
): Promise<StepResult> {
  const batchSize = MAX_ORDERS_PER_BATCH;
  const { db } = deps;
  const before = inFlight.next();
  if (before.did === "stop") return before;
  if (inFlight.size >= inFlight.limit) {
    await inFlight.one();
    return inFlight.next();
  }
  const now = deps.clock();
  const due = await db.warehouseOrder.findMany({
    where: { shop, state: ORDER_STATE.ready, nextAttemptAt: { lte: now } },
    orderBy: [{ nextAttemptAt: "asc" }, { createdAt: "asc" }],
    take: batchSize,
    select: { id: true },
  });
  if (!due.length) {
    if (!inFlight.size) return NOTHING;
    // What is out may make more due (a retry, an edit that came in meanwhile): look again once it is in.
    await inFlight.one();
    return inFlight.next();
  }
  const limits = await deps.warehouse.headroom(OPERATIONS.addOrder);
  // Read after the limiter's own clock: `at` is never before it, so an older instant would always wait.
  const current = deps.clock().getTime();
  if (limits.at > current) return { did: "wait", until: new Date(limits.at) };
  // A batch that is not full leaves no sooner than the window's even pace after the last request (one a
  // second with the real limits). Sent as fast as orders come in, small batches would spend the minute's
  // requests on a few orders each, and the CPU on bookkeeping while webhooks wait; the orders that arrive
  // meanwhile go together. An order on a quiet day, with nothing sent for a pace, still leaves at once.
  const paced = (limits.lastAt ?? Number.NEGATIVE_INFINITY) + limits.paceMs;
  if (due.length < batchSize && paced > current) {
    return { did: "wait", until: new Date(paced) };
  }

  const claimed = await claimForSubmission(
    db,
    due.map((row) => row.id),
    now,
  );
  const byRowId = new Map(claimed.map((row) => [row.id, row]));
  // In the order they fell due (the statement's own order is unspecified).
  const batch = due.flatMap((row) => byRowId.get(row.id) ?? []);
  if (!batch.length) return WORK;

  await yieldToIntake();
  const exchanges = exchangeLog();
  let sent!: () => void;
  const leaving = new Promise<void>((resolve) => (sent = resolve));
  const sending = deps.warehouse.submitOrders(
    batch.map((row) => JSON.parse(row.sentOrder!) as WarehouseOrder),
    { onSent: sent, onExchange: exchanges.onExchange },
  );
  const settling = sending.then((outcomes) =>
    settleBatch(deps, shop, batch, outcomes, exchangeSummary(exchanges.last(), { batch: true })),
  );
  inFlight.add(settling);
  // Once it holds its place in the rate-limit window, the next batch may be claimed (a batch refused
  // before it left, by the limiter or by its own schema, is settled at once).
  await Promise.race([leaving, settling.catch(() => undefined)]);
  return inFlight.next();
}

/** Records what the warehouse answered for each order of an AddOrder batch. */
async function settleBatch(
  deps: ShopWorkDeps,
  shop: string,
  batch: OrderRow[],
  outcomes: OrderSubmissionOutcome[],
  exchange: ReturnType<typeof exchangeSummary>,
): Promise<"stop" | "go"> {
  const { db } = deps;
  const byId = new Map(outcomes.map((outcome) => [outcome.id_order, outcome]));
  const after = deps.clock();
  const settle = (rows: OrderRow[]) => {
    const changes: Change[] = [];
    const events: OrderEventInput[] = [];
    for (const row of rows) {
      const result = settleSubmission(deps, row, byId.get(row.idOrder), after, exchange);
      changes.push({ row, data: result.data });
      events.push(result.event);
    }
    return { changes, events };
  };
  // Usually nothing touched the orders while the request was out, and the claim's copy is current.
  try {
    await yieldToIntake();
    const { changes, events } = settle(batch);
    await yieldToIntake();
    await commit(deps, changes, events, { asClaimed: true });
  } catch (error) {
    if (!(error instanceof ChangedMeanwhile)) throw error;
    // An update or a cancellation came in meanwhile: settle from the orders as they are now.
    const current = await db.warehouseOrder.findMany({
      where: { id: { in: batch.map((row) => row.id) } },
    });
    const { changes, events } = settle(current);
    await commit(deps, changes, events);
  }
  const unauthorized = outcomes.some(
    (outcome) => outcome.status === "failed" && outcome.error instanceof WarehouseUnauthorized,
  );
  if (unauthorized) return "stop";
  deps.log.info(
    {
      event: "orders.submitted",
      orders: batch.length,
      accepted: outcomes.filter((outcome) => outcome.status === "accepted").length,
    },
    "AddOrder batch sent",
  );
  return "go";
}

function settleSubmission(
  deps: ShopWorkDeps,
  row: OrderRow,
  outcome: OrderSubmissionOutcome | undefined,
  at: Date,
  exchange: ReturnType<typeof exchangeSummary>,
): { data: Partial<OrderRow>; event: OrderEventInput } {
  const base = { shop: row.shop, orderId: row.id, at };
  const request = row.sentOrder ? (JSON.parse(row.sentOrder) as unknown) : undefined;
  if (!outcome) {
    // Not possible by the client's contract; treated as in doubt rather than trusted.
    return inDoubt(deps, row, at, "The warehouse's answer did not mention this order.", {
      request,
      exchange,
    });
  }
  switch (outcome.status) {
    case "accepted":
      return {
        data: { ...acceptedColumns(row, at, outcome.id_order_FF, outcome.key_order) },
        event: {
          ...base,
          kind: EVENT.accepted,
          message: `Accepted by the warehouse as ${outcome.id_order_FF}.`,
          data: {
            request,
            answer: { id_order_FF: outcome.id_order_FF, key_order: outcome.key_order },
            exchange,
          },
        },
      };
    case "rejected":
      if (row.pending === PENDING.cancel) {
        return {
          data: {
            state: ORDER_STATE.cancelled,
            pending: null,
            nextAttemptAt: null,
            lastError: outcome.messages.join(" "),
          },
          event: {
            ...base,
            kind: EVENT.cancelled,
            message: "Cancelled; the warehouse had refused it anyway.",
            data: { request, exchange },
          },
        };
      }
      return {
        data: { state: ORDER_STATE.rejected, nextAttemptAt: null, lastError: outcome.messages.join(" ") },
        event: {
          ...base,
          kind: EVENT.rejected,
          message: `The warehouse refused the order: ${outcome.messages.join(" ")}`,
          data: { request, answer: { errors: outcome.messages }, exchange },
        },
      };
    case "failed":
      return failedSubmission(deps, row, outcome.error, at, { request, exchange });
  }
}

/** The columns of an order the warehouse now has; an update that came in meanwhile becomes an edit. */
function acceptedColumns(row: OrderRow, at: Date, idOrderFF: string, keyOrder: string): Partial<OrderRow> {
  const changedMeanwhile = row.mapped !== null && row.mapped !== row.sentOrder;
  const pending = row.pending ?? (changedMeanwhile ? PENDING.edit : null);
  return {
    state: ORDER_STATE.accepted,
    idOrderFF,
    keyOrder,
    acceptedAt: at,
    attempts: 0,
    lastError: null,
    pending,
    nextAttemptAt: pending ? at : null,
  };
}

function inDoubt(
  deps: ShopWorkDeps,
  row: OrderRow,
  at: Date,
  reason: string,
  data: unknown,
): { data: Partial<OrderRow>; event: OrderEventInput } {
  const settle = deps.inDoubtSettleMs ?? IN_DOUBT_SETTLE_MS;
  return {
    data: {
      state: ORDER_STATE.inDoubt,
      attempts: row.attempts + 1,
      lastError: reason,
      nextAttemptAt: new Date(at.getTime() + settle),
    },
    event: {
      shop: row.shop,
      orderId: row.id,
      at,
      kind: EVENT.inDoubt,
      message: `${reason} The warehouse may have it: it will be looked up before the order is sent again.`,
      data,
    },
  };
}

/** When to try again after a transient failure: the warehouse's Retry-After if it gave one, else backoff. */
function retryAt(deps: ShopWorkDeps, error: WarehouseError, attempts: number, at: Date): Date {
  const waitMs =
    error instanceof WarehouseRateLimited && error.retryAfterMs !== undefined
      ? Math.max(error.retryAfterMs, 1_000)
      : backoffMs(attempts, deps.random, deps.backoff);
  return new Date(at.getTime() + waitMs);
}

function failedSubmission(
  deps: ShopWorkDeps,
  row: OrderRow,
  error: WarehouseError,
  at: Date,
  data: { request: unknown; exchange: unknown },
): { data: Partial<OrderRow>; event: OrderEventInput } {
  const base = { shop: row.shop, orderId: row.id, at };
  if (error.inDoubt) return inDoubt(deps, row, at, `No clear answer: ${error.message}.`, data);
  if (error instanceof WarehouseUnauthorized) {
    return {
      data: { state: ORDER_STATE.ready, nextAttemptAt: at, lastError: error.message },
      event: { ...base, kind: EVENT.paused, message: `Not sent. ${UNAUTHORIZED_REASON}`, data },
    };
  }
  if (error instanceof WarehouseRequestInvalid) {
    return {
      data: { state: ORDER_STATE.rejected, nextAttemptAt: null, lastError: error.message },
      event: { ...base, kind: EVENT.rejected, message: `Not sent: ${error.message}.`, data },
    };
  }
  const attempts = row.attempts + 1;
  const next = retryAt(deps, error, attempts, at);
  return {
    data: { state: ORDER_STATE.ready, attempts, nextAttemptAt: next, lastError: error.message },
    event: {
      ...base,
      kind: EVENT.retryScheduled,
      message: `Not sent: ${error.message}. Trying again at ${next.toISOString()} (attempt ${attempts + 1}).`,
      data,
    },
  };
}

/** Sends one due edit or cancellation of an order the warehouse has. */
export async function sendPendingChange(deps: ShopWorkDeps, shop: string): Promise<StepResult> {
  const { db } = deps;
  const now = deps.clock();
  const row = await db.warehouseOrder.findFirst({
    where: { shop, state: ORDER_STATE.accepted, pending: { not: null }, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
  });
  if (!row) return NOTHING;
  const cancel = row.pending === PENDING.cancel;
  const operation = cancel ? OPERATIONS.cancelOrder : OPERATIONS.editOrder;
  const wait = await limiterWait(deps, operation);
  if (wait) return { did: "wait", until: wait };

  const body = cancel
    ? { order: { id_order: row.idOrder } }
    : { ...(JSON.parse(row.mapped ?? "null") as WarehouseOrder), key_order: row.keyOrder ?? "" };
  const exchanges = exchangeLog();
  try {
    if (cancel) await deps.warehouse.cancelOrder(row.idOrder, exchanges);
    else await deps.warehouse.editOrder(body as WarehouseOrder & { key_order: string }, exchanges);
  } catch (error) {
    return changeFailed(deps, row, cancel, error, {
      request: body,
      exchange: exchangeSummary(exchanges.last()),
    });
  }
  const exchange = exchangeSummary(exchanges.last());
  const at = deps.clock();
  const fresh = await db.warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
  if (cancel) {
    await commit(
      deps,
      [
        {
          row: fresh,
          data: {
            state: ORDER_STATE.cancelled,
            pending: null,
            nextAttemptAt: null,
            attempts: 0,
            lastError: null,
          },
        },
      ],
      [
        {
          shop,
          orderId: row.id,
          at,
          kind: EVENT.cancelled,
          message: "Cancelled at the warehouse.",
          data: { request: body, exchange },
        },
      ],
    );
  } else {
    // Another change may have come in while this one was out: it goes next.
    const again = fresh.pending === PENDING.cancel || (fresh.mapped !== null && fresh.mapped !== row.mapped);
    await commit(
      deps,
      [
        {
          row: fresh,
          data: {
            sentOrder: row.mapped,
            pending: again ? (fresh.pending === PENDING.cancel ? PENDING.cancel : PENDING.edit) : null,
            nextAttemptAt: again ? at : null,
            attempts: 0,
            lastError: null,
          },
        },
      ],
      [
        {
          shop,
          orderId: row.id,
          at,
          kind: EVENT.edited,
          message: "The change was sent to the warehouse (EditOrder).",
          data: { request: body, exchange },
        },
      ],
    );
  }
  return WORK;
}

async function changeFailed(
  deps: ShopWorkDeps,
  row: OrderRow,
  cancel: boolean,
  error: unknown,
  data: { request: unknown; exchange: unknown },
): Promise<StepResult> {
  if (!(error instanceof WarehouseError)) throw error;
  const at = deps.clock();
  const base = { shop: row.shop, orderId: row.id, at, data };
  if (error instanceof WarehouseUnauthorized) return KEY_REFUSED;
  if (error instanceof WarehouseBusinessError || error instanceof WarehouseRequestInvalid) {
    // Too late (picked or shipped) or refused: only the merchant can decide what to do now.
    const messages = error instanceof WarehouseBusinessError ? error.messages.join(" ") : error.message;
    await commit(
      deps,
      [
        {
          row,
          data: {
            pending: null,
            nextAttemptAt: null,
            attention: cancel ? ATTENTION.cancelRefused : ATTENTION.editRefused,
            attentionMessage: messages,
          },
        },
      ],
      [
        {
          ...base,
          kind: cancel ? EVENT.cancelRefused : EVENT.editRefused,
          message: cancel
            ? `The warehouse refused to cancel the order: ${messages} Contact the warehouse if it must be stopped.`
            : `The warehouse refused the change: ${messages} The warehouse ships the order as it was sent.`,
        },
      ],
    );
    return WORK;
  }
  // Transient (or in doubt: sending an edit or cancellation again does no harm).
  const attempts = row.attempts + 1;
  const next = retryAt(deps, error, attempts, at);
  await commit(
    deps,
    [{ row, data: { attempts, nextAttemptAt: next, lastError: error.message } }],
    [
      {
        ...base,
        kind: EVENT.retryScheduled,
        message: `${cancel ? "Cancellation" : "Change"} not sent: ${error.message}. Trying again at ${next.toISOString()}.`,
      },
    ],
  );
  return WORK;
}

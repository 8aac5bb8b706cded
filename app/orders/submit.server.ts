// Sending ready orders to the warehouse for one shop, by the worker holding its lease: claim a batch,
// send it with AddOrder, settle each order from the answer by the order rules. A batch of several orders
// goes only once the account answered one batch of two in the expected form (the batch shape is a guess).
import { Prisma, type WarehouseOrder as OrderRow } from "@prisma/client";
import type { ServiceDeps } from "../context.server";
import { sqlTransaction } from "../db/sql.server";
import { FIRST_CHECK_AFTER_MS, requestStatusCheck } from "../statuses/kinds.server";
import type { OrderSubmissionOutcome } from "../warehouse/client.server";
import { WarehouseUnauthorized } from "../warehouse/errors";
import type { WarehouseOrder } from "../warehouse/schemas";
import { MAX_ORDERS_PER_BATCH, OPERATIONS } from "../warehouse/wire";
import { parkOrdersAwaitingCards } from "../catalogue/awaiting.server";
import { applyToOrders, asChange, type Change } from "./commit.server";
import { isRefusal, transition, type OrderInput } from "./state-machine";
import { BATCH_PROOF, ORDER_STATE, PENDING } from "./states";
import {
  exchangeLog,
  exchangeSummary,
  failureOf,
  IN_DOUBT_SETTLE_MS,
  KEY_REFUSED,
  NOTHING,
  WORK,
  yieldToIntake,
  type ShopWorkDeps,
  type StepResult,
} from "./step.server";
import type { OrderEventInput } from "./timeline.server";
import type { ShopWork } from "../work/steps.server";

/** The orders that prove the batch shape: more than one, so a single order's answer cannot pass for it. */
export const PROOF_BATCH_SIZE = 2;

/**
 * Orders with work a step can do once due: the sweep's and the steps' shared idea of "due". A ready order
 * with nothing mapped cannot be claimed, so it is never due (it would keep the shop's loop spinning).
 */
export function dueWorkWhere(now: Date): Prisma.WarehouseOrderWhereInput {
  return {
    nextAttemptAt: { lte: now },
    OR: [
      { state: ORDER_STATE.ready, mapped: { not: null } },
      { state: ORDER_STATE.inDoubt },
      { state: ORDER_STATE.accepted, pending: { in: [PENDING.edit, PENDING.cancel] } },
      // Waiting for a scheduled date that has come: Shopify is asked again (lookAtScheduledOrders).
      { state: ORDER_STATE.waiting },
    ],
  };
}

/**
 * Orders go first: while the shop has order work due, the warehouse traffic of other kinds (status reports,
 * stock, product cards) waits, answering until when. At most `waitMs`, and never past the key's window (a
 * minute at the real limits, less on a test's scaled clock). Null when no order work is due.
 */
export async function ordersGoFirst(
  work: Pick<ShopWork, "db" | "shop" | "clock" | "warehouse">,
  waitMs: number,
): Promise<Date | null> {
  const now = work.clock();
  const due = await work.db.warehouseOrder.findFirst({
    where: { shop: work.shop, ...dueWorkWhere(now) },
    select: { id: true },
  });
  if (!due) return null;
  const { windowMs } = await work.warehouse.headroom(OPERATIONS.addOrder);
  return new Date(now.getTime() + Math.min(waitMs, windowMs));
}

/** The scalar columns of an order row and their types, from the schema (never from input). */
const ORDER_FIELDS = Prisma.dmmf.datamodel.models
  .find((model) => model.name === "WarehouseOrder")!
  .fields.filter((field) => field.kind === "scalar")
  .map((field) => ({ name: field.name, type: field.type }));

/** A row as the driver answers it (SQLite: dates as text) made the row Prisma would have answered. */
function orderRowOf(raw: Record<string, unknown>): OrderRow {
  const row: Record<string, unknown> = {};
  for (const { name, type } of ORDER_FIELDS) {
    const value = raw[name] ?? null;
    row[name] =
      value === null
        ? null
        : type === "DateTime"
          ? new Date(value as string | Date)
          : type === "Int"
            ? Number(value)
            : value;
  }
  return row as OrderRow;
}

/**
 * Claims the ready orders among `ids` for one AddOrder, in one statement: each becomes `submitting` with
 * the body about to be sent fixed as `sentOrder` (the "claimed" transition), so from here on a crash
 * leaves it in doubt, never unsent and never sent twice. Answers the orders claimed, as the claim left them.
 * Given to the driver (app/db/sql.server.ts): through Prisma, reading a hundred rows back cost more than
 * the statement.
 */
async function claimForSubmission(db: ServiceDeps["db"], ids: string[], now: Date): Promise<OrderRow[]> {
  const rows = await sqlTransaction(db, async (tx) => {
    // The mode and location the order is routed under are fixed by its first claim: an order finishes under
    // them after a mode switch (an order sent before routing gets the shop's, as it was).
    const [routing] = await tx.query(
      `SELECT "fulfillmentMode", "locationId" FROM "ShopSettings" WHERE "shop" = (SELECT "shop" FROM "WarehouseOrder" WHERE "id" = ?)`,
      [ids[0]!],
    );
    const mode = typeof routing?.fulfillmentMode === "string" ? routing.fulfillmentMode : "location";
    const locationId = typeof routing?.locationId === "string" ? routing.locationId : null;
    return tx.query(
      `UPDATE "WarehouseOrder"
      SET "state" = ?, "sentOrder" = "mapped", "submittedAt" = COALESCE("submittedAt", ?), "updatedAt" = ?,
        "fulfillmentMode" = COALESCE("fulfillmentMode", ?), "locationId" = COALESCE("locationId", ?),
        "version" = "version" + 1
      WHERE "id" IN (${ids.map(() => "?").join(", ")}) AND "state" = ? AND "mapped" IS NOT NULL
      RETURNING ${ORDER_FIELDS.map(({ name }) => `"${name}"`).join(", ")}`,
      [ORDER_STATE.submitting, now, now, mode, locationId, ...ids, ORDER_STATE.ready],
    );
  });
  return rows.map(orderRowOf);
}

/** What a settled batch calls for next. */
type Settled = "go" | "key_refused";

/**
 * The AddOrder batches of one shop on their way. Each leaves as soon as the limits let it and is settled
 * when its answer comes, so several can be out at once: sending them one after another made the network's
 * latency, and our own bookkeeping, the pace instead of the warehouse's limits. A few at most, because a
 * worker that dies leaves them all in doubt, to be looked up before anything is sent again.
 */
export class BatchesInFlight {
  private readonly out = new Set<Promise<void>>();
  private failure: unknown;
  private keyRefused = false;
  /** A batch proving the batch shape is out: until its answer, orders go one a request. */
  proofOut = false;
  /** Batches that left full (as many orders as the plan allowed), counted for submitFullBatches. */
  fullBatchesSent = 0;

  constructor(readonly limit: number) {}

  get size(): number {
    return this.out.size;
  }

  /** `settling` answers "key_refused" when the shop's work must stop for its key. */
  add(settling: Promise<Settled>): void {
    const tracked: Promise<void> = settling
      .then((next) => void (this.keyRefused ||= next === "key_refused"))
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
    return this.keyRefused ? KEY_REFUSED : WORK;
  }

  /** Resolves when one batch is settled (at once when none is out). */
  async one(): Promise<void> {
    if (this.out.size) await Promise.race(this.out);
  }

  async all(): Promise<void> {
    await Promise.all(this.out);
  }
}

/** How the next AddOrder of a shop may carry orders: how many, and whether it proves the batch shape. */
async function batchPlan(
  deps: ShopWorkDeps,
  shop: string,
  inFlight: BatchesInFlight,
): Promise<{ size: number; proof: boolean }> {
  const settings = await deps.db.shopSettings.findUnique({
    where: { shop },
    select: { batchAddOrder: true, batchProof: true },
  });
  if (!settings?.batchAddOrder || settings.batchProof === BATCH_PROOF.failed)
    return { size: 1, proof: false };
  if (settings.batchProof === BATCH_PROOF.proven) return { size: MAX_ORDERS_PER_BATCH, proof: false };
  return inFlight.proofOut ? { size: 1, proof: false } : { size: PROOF_BATCH_SIZE, proof: true };
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
  const { db } = deps;
  const before = inFlight.next();
  if (before.did === "stop") return before;
  if (inFlight.size >= inFlight.limit) {
    await inFlight.one();
    return inFlight.next();
  }
  const plan = await batchPlan(deps, shop, inFlight);
  const now = deps.clock();
  const due = await db.warehouseOrder.findMany({
    where: { shop, state: ORDER_STATE.ready, mapped: { not: null }, nextAttemptAt: { lte: now } },
    orderBy: [{ nextAttemptAt: "asc" }, { createdAt: "asc" }],
    take: plan.size,
    select: { id: true, mapped: true, version: true },
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
  if (due.length < plan.size && paced > current) {
    return { did: "wait", until: new Date(paced) };
  }

  // An order naming a card the warehouse has not accepted yet waits for it instead of being refused.
  const going = await parkOrdersAwaitingCards(deps, shop, due);
  if (!going.length) return WORK;
  const claimed = await claimForSubmission(db, going, now);
  const byRowId = new Map(claimed.map((row) => [row.id, row]));
  // In the order they fell due (the statement's own order is unspecified).
  const batch = due.flatMap((row) => byRowId.get(row.id) ?? []);
  if (!batch.length) return WORK;

  // Only a batch of exactly the proof's size proves anything; a lone order goes in the single shape.
  const proving = plan.proof && batch.length === PROOF_BATCH_SIZE;
  if (proving) inFlight.proofOut = true;
  await yieldToIntake();
  const exchanges = exchangeLog();
  let sent!: () => void;
  const leaving = new Promise<void>((resolve) => (sent = resolve));
  let verdict: boolean | undefined;
  const sending = deps.warehouse.submitOrders(
    batch.map((row) => JSON.parse(row.sentOrder!) as WarehouseOrder),
    { onSent: sent, onExchange: exchanges.onExchange },
    {
      batch: plan.size > 1 && batch.length > 1,
      ...(proving && { proveBatch: (expected: boolean) => (verdict = expected) }),
    },
  );
  const settling = sending
    .then(async (outcomes) => {
      if (proving && verdict !== undefined) await recordBatchProof(deps, shop, verdict);
      return settleBatch(deps, shop, batch, outcomes, exchangeSummary(exchanges.last(), { batch: true }));
    })
    .finally(() => {
      if (proving) inFlight.proofOut = false;
    });
  inFlight.add(settling);
  if (batch.length === plan.size) inFlight.fullBatchesSent++;
  // Once it holds its place in the rate-limit window, the next batch may be claimed (a batch refused
  // before it left, by the limiter or by its own schema, is settled at once).
  await Promise.race([leaving, settling.catch(() => undefined)]);
  return inFlight.next();
}

/**
 * Sends the shop's due ready orders as long as each batch leaves full at once, up to the batches allowed out
 * at once (`inFlight.limit`), then lets the shop's other steps have their turn; a batch not full waits for the
 * window's pace as ever (submitReadyOrders). One batch a pass sent a backlog at the pace of the other steps,
 * not the warehouse's: while routing read a page of fulfillment orders a pass (about 180 of the warehouse's
 * orders), the orders it made ready went 100 a pass, and the minute's first requests, which decide when its
 * later ones may leave, went late (bench:routing).
 */
export async function submitFullBatches(
  deps: ShopWorkDeps,
  shop: string,
  inFlight: BatchesInFlight,
): Promise<StepResult> {
  for (let batches = 1; ; batches++) {
    const before = inFlight.fullBatchesSent;
    const result = await submitReadyOrders(deps, shop, inFlight);
    if (result.did !== "work" || inFlight.fullBatchesSent === before || batches >= inFlight.limit)
      return result;
  }
}

/** The account answered its first batch: in the expected form (batches on) or not (off for good). */
async function recordBatchProof(deps: ShopWorkDeps, shop: string, expected: boolean): Promise<void> {
  const batchProof = expected ? BATCH_PROOF.proven : BATCH_PROOF.failed;
  await deps.db.shopSettings.updateMany({
    where: { shop, batchProof: BATCH_PROOF.unproven },
    data: { batchProof },
  });
  if (expected) {
    deps.log.info(
      { event: "orders.batch_proven" },
      "the warehouse answered a batch as expected; batches are on",
    );
  } else {
    deps.log.warn(
      { event: "orders.batch_unproven" },
      "the warehouse did not answer a batch as expected; orders go one at a time",
    );
  }
}

/** The order rules' reading of one order's outcome in an AddOrder answer. */
function outcomeInput(
  deps: ShopWorkDeps,
  row: OrderRow,
  outcome: OrderSubmissionOutcome | undefined,
  at: Date,
  exchange: ReturnType<typeof exchangeSummary>,
): OrderInput {
  const request = row.sentOrder ? (JSON.parse(row.sentOrder) as unknown) : undefined;
  if (!outcome) {
    // Not possible by the client's contract; treated as in doubt rather than trusted.
    return {
      type: "submission_failed",
      failure: {
        kind: "in_doubt",
        reason: "The warehouse's answer did not mention this order.",
        lookAt: new Date(at.getTime() + (deps.inDoubtSettleMs ?? IN_DOUBT_SETTLE_MS)),
      },
      data: { request, exchange },
    };
  }
  switch (outcome.status) {
    case "accepted":
      return {
        type: "accepted",
        idOrderFF: outcome.id_order_FF,
        keyOrder: outcome.key_order,
        data: {
          request,
          answer: { id_order_FF: outcome.id_order_FF, key_order: outcome.key_order },
          exchange,
        },
      };
    case "rejected":
      return {
        type: "rejected",
        messages: outcome.messages,
        data: { request, answer: { errors: outcome.messages }, exchange },
      };
    case "failed":
      return {
        type: "submission_failed",
        failure: failureOf(deps, outcome.error, { attempts: row.attempts, at, addOrder: true }),
        data: { request, exchange },
      };
  }
}

/** Records what the warehouse answered for each order of an AddOrder batch. */
async function settleBatch(
  deps: ShopWorkDeps,
  shop: string,
  batch: OrderRow[],
  outcomes: OrderSubmissionOutcome[],
  exchange: ReturnType<typeof exchangeSummary>,
): Promise<Settled> {
  const byId = new Map(outcomes.map((outcome) => [outcome.id_order, outcome]));
  await yieldToIntake();
  // Usually nothing touched the orders while the request was out, and the claim's copy is current; if an
  // update or a cancellation came in meanwhile, the orders are read again and settled as they are now.
  await applyToOrders(
    deps,
    batch.map((row) => row.id),
    (rows, at) => {
      const changes: Change[] = [];
      const events: OrderEventInput[] = [];
      for (const row of rows) {
        // Settled already by someone who took the shop over (found at the warehouse, say).
        if (row.state !== ORDER_STATE.submitting && row.state !== ORDER_STATE.inDoubt) continue;
        const result = transition(row, outcomeInput(deps, row, byId.get(row.idOrder), at, exchange), at);
        if (isRefusal(result)) continue;
        const { change, events: more } = asChange(row, result, at);
        if (change) changes.push(change);
        events.push(...more);
      }
      return { changes, events };
    },
    { rows: batch },
  );
  if (outcomes.some((outcome) => outcome.status === "accepted")) {
    // The warehouse has them now: their statuses are looked up from here on.
    await requestStatusCheck(deps.db, shop, new Date(deps.clock().getTime() + FIRST_CHECK_AFTER_MS));
  }
  const unauthorized = outcomes.some(
    (outcome) => outcome.status === "failed" && outcome.error instanceof WarehouseUnauthorized,
  );
  if (unauthorized) {
    deps.log.warn({ event: "orders.key_refused" }, "warehouse refused the ApiKey; the shop's work stops");
    return "key_refused";
  }
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

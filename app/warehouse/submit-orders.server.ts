// Sending many orders to AddOrder: one a request, or batches of at most 100 when the account answers
// batches, each order with its own outcome (accepted, rejected, or failed with the error), and a batch that
// proves (or disproves) the account's batch shape. Built on the client's exchange and its addOrder.
import { z } from "zod";
import { describeIssues, excerpt } from "./answers";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  WarehouseError,
  WarehouseRateLimited,
  WarehouseRequestInvalid,
  WarehouseUnauthorized,
  WarehouseUnknownMethod,
} from "./errors";
import { type Exchange, type SendOptions } from "./exchange.server";
import {
  batchOrderResultSchema,
  envelopeSchema,
  warehouseOrderSchema,
  type AddedOrder,
  type WarehouseOrder,
} from "./schemas";
import { MAX_ORDERS_PER_BATCH, OPERATIONS } from "./wire";

/** What happened to one order of a submission. */
export type OrderSubmissionOutcome =
  | { id_order: string; status: "accepted"; id_order_FF: string; key_order: string }
  | { id_order: string; status: "rejected"; messages: string[] }
  | { id_order: string; status: "failed"; error: WarehouseError };

/** How submitOrders sends: the batch choice of this call, and whether it proves the batch shape. */
export interface SubmitOptions {
  /** Overrides the client's `batchAddOrder` for this call. */
  batch?: boolean;
  /**
   * This batch tests whether the account answers batches in the expected form; told the verdict once the
   * warehouse answered (see addOrderBatch).
   */
  proveBatch?: (expected: boolean) => void;
}

/** What a submission is sent with: the client's exchange, its addOrder, and the account's batch switch. */
export interface OrderSubmissionDeps {
  exchange: Exchange;
  addOrder: (order: WarehouseOrder, options: SendOptions) => Promise<AddedOrder>;
  /** The per-account switch for the batch shape of AddOrder (a guess in the notes). */
  batchAddOrder?: boolean;
}

/** The client's submitOrders, over the given exchange and addOrder. */
export function createOrderSubmission(deps: OrderSubmissionDeps) {
  const { exchange } = deps;

  /**
   * One AddOrder request carrying `orders` as the batch shape; an outcome for each order. With `proof`,
   * the request tests the shape: any answer but a result for each order in the batch form puts every
   * order in doubt (the warehouse may have read the batch another way), and `proof` hears the verdict.
   * A refusal before the warehouse read the batch (the key, the limits, a network failure, a 5xx) is no
   * verdict.
   */
  async function addOrderBatch(
    orders: WarehouseOrder[],
    options: SendOptions,
    proof?: (expected: boolean) => void,
  ): Promise<OrderSubmissionOutcome[]> {
    const operation = OPERATIONS.addOrder;
    let raw: { body: unknown; text: string };
    try {
      raw = await exchange({ operation, fields: { order: orders }, ...options });
    } catch (error) {
      if (!(error instanceof WarehouseError)) throw error;
      if (proof && isAnswerToTheBatch(error)) {
        proof(false);
        return unprovenBatch(orders, error.message);
      }
      return orders.map((order) => ({ id_order: order.id_order, status: "failed", error }));
    }
    const envelope = envelopeSchema.safeParse(raw.body);
    const results = z.array(batchOrderResultSchema).safeParse(envelope.data?.Data);
    if (proof) {
      const expected = isBatchAnswer(orders, results.data);
      proof(expected);
      if (!expected) return unprovenBatch(orders, excerpt(raw.text));
    }
    if (!envelope.success || (envelope.data.result === "ok" && !results.success)) {
      const problems = describeIssues((envelope.error ?? results.error)!);
      const error = new WarehouseAnswerInvalid(operation, problems, excerpt(raw.text));
      return orders.map((order) => ({ id_order: order.id_order, status: "failed", error }));
    }
    const byId = new Map((results.data ?? []).map((result) => [result.id_order, result]));
    return orders.map((order): OrderSubmissionOutcome => {
      const result = byId.get(order.id_order);
      if (result?.id_order_FF && result.key_order) {
        return {
          id_order: order.id_order,
          status: "accepted",
          id_order_FF: result.id_order_FF,
          key_order: result.key_order,
        };
      }
      if (result?.errors?.length)
        return { id_order: order.id_order, status: "rejected", messages: result.errors };
      // Refused as a whole (too many orders, say): every order was certainly not created.
      if (envelope.data.result === "error") {
        return { id_order: order.id_order, status: "rejected", messages: envelope.data.errors };
      }
      const error = new WarehouseAnswerInvalid(
        operation,
        [`the answer has no result for order ${order.id_order}`],
        excerpt(raw.text),
      );
      return { id_order: order.id_order, status: "failed", error };
    });
  }

  /** Every order of a batch whose answer did not prove the batch shape: in doubt, looked up before anything. */
  function unprovenBatch(orders: WarehouseOrder[], answer: string): OrderSubmissionOutcome[] {
    const error = new WarehouseAnswerInvalid(
      OPERATIONS.addOrder,
      ["the warehouse did not answer a batch of orders in the expected batch form"],
      answer,
    );
    return orders.map((order) => ({ id_order: order.id_order, status: "failed", error }));
  }

  /**
   * Sends many orders: AddOrder batches of at most 100 when the account's batch switch is on, one
   * order a request when off. Each order gets an outcome; an order that fails its schema, or repeats
   * an id_order of this submission, is not sent. After a refusal that will repeat for every request
   * (the key, the limiter), the remaining orders are failed with the same error without being sent.
   */
  async function submitOrders(
    orders: readonly WarehouseOrder[],
    send: SendOptions = {},
    how: SubmitOptions = {},
  ): Promise<OrderSubmissionOutcome[]> {
    const batchAddOrder = how.batch ?? deps.batchAddOrder;
    const operation = OPERATIONS.addOrder;
    const outcomes = new Map<number, OrderSubmissionOutcome>();
    const sendable: { index: number; order: WarehouseOrder }[] = [];
    const seen = new Set<string>();
    orders.forEach((order, index) => {
      const parsed = warehouseOrderSchema.safeParse(order);
      const problems = parsed.success ? [] : describeIssues(parsed.error);
      if (seen.has(order.id_order))
        problems.push(`id_order ${order.id_order} appears twice in this submission`);
      seen.add(order.id_order);
      if (problems.length || !parsed.success) {
        const error = new WarehouseRequestInvalid(operation, problems);
        outcomes.set(index, { id_order: order.id_order, status: "failed", error });
      } else {
        sendable.push({ index, order: parsed.data });
      }
    });

    const chunkSize = batchAddOrder ? MAX_ORDERS_PER_BATCH : 1;
    let stopped: WarehouseError | undefined;
    for (let start = 0; start < sendable.length; start += chunkSize) {
      const chunk = sendable.slice(start, start + chunkSize);
      let results: OrderSubmissionOutcome[];
      if (stopped) {
        const error = stopped;
        results = chunk.map(({ order }) => ({ id_order: order.id_order, status: "failed", error }));
      } else if (batchAddOrder) {
        results = await addOrderBatch(
          chunk.map(({ order }) => order),
          start === 0 ? send : {},
          how.proveBatch,
        );
      } else {
        results = [await submitOne(chunk[0]!.order, start === 0 ? send : {})];
      }
      chunk.forEach(({ index }, position) => outcomes.set(index, results[position]!));
      const failure = results.find((result) => result.status === "failed");
      if (failure?.status === "failed" && stopsSubmission(failure.error)) stopped = failure.error;
    }
    return orders.map((_, index) => outcomes.get(index)!);
  }

  async function submitOne(order: WarehouseOrder, options: SendOptions): Promise<OrderSubmissionOutcome> {
    try {
      const added = await deps.addOrder(order, options);
      const { id_order_FF, key_order } = added;
      return { id_order: order.id_order, status: "accepted", id_order_FF, key_order };
    } catch (error) {
      if (error instanceof WarehouseBusinessError) {
        return { id_order: order.id_order, status: "rejected", messages: error.messages };
      }
      if (error instanceof WarehouseError) return { id_order: order.id_order, status: "failed", error };
      throw error;
    }
  }

  return submitOrders;
}

/** An answer that shows how the warehouse read a batch: it refused the body or answered something unreadable. */
function isAnswerToTheBatch(error: WarehouseError): boolean {
  return (
    error instanceof WarehouseBadRequest ||
    error instanceof WarehouseUnknownMethod ||
    error instanceof WarehouseAnswerInvalid ||
    error instanceof WarehouseBusinessError
  );
}

/** Whether a batch answer has the expected form: a result for each order sent, by its id_order. */
function isBatchAnswer(
  orders: readonly WarehouseOrder[],
  results:
    readonly { id_order: string; id_order_FF?: string; key_order?: string; errors?: string[] }[] | undefined,
): boolean {
  if (!results || results.length !== orders.length) return false;
  const byId = new Map(results.map((result) => [result.id_order, result]));
  return orders.every((order) => {
    const result = byId.get(order.id_order);
    return Boolean(result && ((result.id_order_FF && result.key_order) || result.errors?.length));
  });
}

/** Errors after which the next request of the same submission would certainly fail the same way. */
function stopsSubmission(error: WarehouseError): boolean {
  return (
    error instanceof WarehouseUnauthorized ||
    error instanceof WarehouseRateLimited ||
    error instanceof WarehouseUnknownMethod
  );
}

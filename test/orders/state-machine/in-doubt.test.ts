// The order rules for an order in doubt, on the real database: what the look-up found, did not find, or
// could not learn, written as the look-up writes it (see support.ts).
import { describe, expect, it } from "vitest";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { commit } from "../../../app/orders/commit.server";
import {
  foundAtWarehouse,
  lookUpFailed,
  MAX_ATTEMPTS,
  notFoundAtWarehouse,
  type Failure,
  type OrderInput,
  type Transition,
} from "../../../app/orders/state-machine";
import { inEnglishWords } from "../../support/orders";
import { at, claimed, deps, drive, failed, kinds, later, read, refused, takenIn, transient } from "./support";

describe("the in-doubt look-up's outcomes", () => {
  const inDoubt: Failure = { kind: "in_doubt", reason: "connection reset", lookAt: at };
  const lookup = { missBelievedAfterMs: 600_000, missesBeforeAttention: 3, lookupIntervalMs: 60_000 };

  /** Writes a look-up's transition through the real commit path, as the look-up does; answers the row. */
  async function settle(row: OrderRow, result: Transition): Promise<OrderRow> {
    const events = result.events.map((event) => ({ ...event, shop: row.shop, orderId: row.id, at }));
    await commit(deps(), [{ row, data: result.patch }], events);
    return read(row);
  }

  async function lost(...before: OrderInput[]): Promise<OrderRow> {
    return drive(await takenIn(), claimed, ...before, failed(inDoubt));
  }

  it("found with the warehouse's key: accepted with its ids, never sent again", async () => {
    const row = await lost();
    expect(row.state).toBe("in_doubt");
    const found = await settle(row, foundAtWarehouse(row, [{ id_order_FF: "FF-9", key_order: "key-9" }], at));
    expect(found).toMatchObject({ state: "accepted", idOrderFF: "FF-9", keyOrder: "key-9", attention: null });
    expect((await kinds(found)).at(-1)).toBe("found_at_warehouse");
  });

  it("found without a key: accepted, and edits marked impossible with the reason", async () => {
    const row = await lost();
    const found = await settle(row, foundAtWarehouse(row, [{ TTN: "" }], at));
    expect(found).toMatchObject({
      state: "accepted",
      keyOrder: null,
      pending: null,
      attention: "edit_impossible",
    });
    expect(inEnglishWords(found.attentionMessage)).toMatch(/did not give its key/);
  });

  it("not found before the warehouse could be done with it: looked up again, nothing counted", async () => {
    const row = await lost();
    const sentAt = new Date(at.getTime() - 60_000);
    const result = notFoundAtWarehouse(row, { ...lookup, sentAt, missesSoFar: 0, others: [] }, at);
    expect(result.events).toEqual([]);
    const again = await settle(row, result);
    expect(again).toMatchObject({ state: "in_doubt", attention: null });
    expect(again.nextAttemptAt).toEqual(new Date(at.getTime() + 60_000));
  });

  it("not found after enough misses past the window: the merchant decides, nothing is resent", async () => {
    const row = await lost();
    const sentAt = new Date(at.getTime() - 3600_000);
    const counted = notFoundAtWarehouse(row, { ...lookup, sentAt, missesSoFar: 1, others: [] }, at);
    expect(counted.patch.attention).toBeUndefined();
    const last = await settle(
      row,
      notFoundAtWarehouse(row, { ...lookup, sentAt, missesSoFar: 2, others: [] }, at),
    );
    expect(last).toMatchObject({ state: "in_doubt", attention: "not_at_warehouse", nextAttemptAt: null });
  });

  it("a look-up that failed for now is tried again later, counting the attempt", async () => {
    const row = await lost();
    const again = await settle(row, lookUpFailed(row, transient, at));
    expect(again).toMatchObject({ state: "in_doubt", attempts: row.attempts + 1, attention: null });
    expect(again.nextAttemptAt).toEqual(later);
    expect((await kinds(again)).at(-1)).toBe("retry_scheduled");
  });

  it("a look-up that can never succeed, or ran out of attempts, waits for the merchant's Retry", async () => {
    const row = await lost();
    const stopped = await settle(row, lookUpFailed(row, refused, at));
    expect(stopped).toMatchObject({ state: "in_doubt", nextAttemptAt: null, attention: "retries_exhausted" });
    const spent = lookUpFailed({ ...row, attempts: MAX_ATTEMPTS - 1 }, transient, at);
    expect(spent.patch).toMatchObject({ nextAttemptAt: null, attention: "retries_exhausted" });
    // Retry looks it up again: still in doubt, due now, never made ready on a guess.
    const retried = await drive(stopped, { type: "submit_now" });
    expect(retried).toMatchObject({ state: "in_doubt", attention: null, attempts: 0 });
    expect(retried.nextAttemptAt).not.toBeNull();
  });

  it("not found after enough misses, with a cancellation waiting: cancelled, nothing to send", async () => {
    const row = await lost({ type: "shopify_cancelled", cancelledAt: at });
    expect(row.pending).toBe("cancel");
    const sentAt = new Date(at.getTime() - 3600_000);
    const done = await settle(
      row,
      notFoundAtWarehouse(row, { ...lookup, sentAt, missesSoFar: 2, others: [] }, at),
    );
    expect(done).toMatchObject({ state: "cancelled", pending: null });
  });
});

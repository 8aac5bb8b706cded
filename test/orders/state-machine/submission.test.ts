// The order rules for submission, on the real database: the merchant's Send and Cancel, the worker's claim
// and the warehouse's answers, and the version every write raises (see support.ts).
import { describe, expect, it } from "vitest";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { ChangedMeanwhile, commit } from "../../../app/orders/commit.server";
import { cancelAtWarehouse, submitNow } from "../../../app/orders/actions.server";
import { MAX_ATTEMPTS } from "../../../app/orders/state-machine";
import { timelineText } from "../../../app/orders/timeline";
import { FIXTURE_ORDER } from "../../support/orders";
import {
  SHOP,
  acceptedAs,
  acceptedOrder,
  at,
  changePhone,
  claimed,
  deps,
  drive,
  failed,
  kinds,
  later,
  read,
  refused,
  takenIn,
  transient,
} from "./support";

describe("the merchant's actions", () => {
  it("refuses to send a held order, and sends a rejected one again", async () => {
    const held = await takenIn({
      shipping_address: { ...FIXTURE_ORDER.shipping_address, phone: "+48 601 234 567" },
    });
    expect(await submitNow(deps(), SHOP, held.id)).toMatchObject({ ok: false });
    const rejected = await drive(await takenIn(), claimed, { type: "rejected", messages: ["Нет товара"] });
    expect(rejected.state).toBe("rejected");
    expect(await submitNow(deps(), SHOP, rejected.id)).toMatchObject({ ok: true });
    expect(await read(rejected)).toMatchObject({
      state: "ready",
      attempts: 0,
      nextAttemptAt: expect.any(Date),
    });
  });

  it("looks an in-doubt order up again at once", async () => {
    const row = await drive(
      await takenIn(),
      claimed,
      failed({ kind: "in_doubt", reason: "timeout", lookAt: later }),
    );
    expect(await submitNow(deps(), SHOP, row.id)).toMatchObject({ ok: true });
    const after = await read(row);
    expect(after.state).toBe("in_doubt");
    expect(after.nextAttemptAt).not.toEqual(later);
    expect(after.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("sends again a change that ran out of retries, clearing the flag", async () => {
    let row = await drive(await acceptedOrder(), { type: "cancel_requested" });
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
      row = await drive(row, { type: "change_failed", change: "cancel", failure: transient });
    expect(row).toMatchObject({ attention: "retries_exhausted", nextAttemptAt: null, pending: "cancel" });
    expect(await submitNow(deps(), SHOP, row.id)).toMatchObject({ ok: true });
    expect(await read(row)).toMatchObject({ attention: null, attempts: 0, nextAttemptAt: expect.any(Date) });
  });

  it("refuses to send an order the warehouse has with nothing pending", async () => {
    const row = await acceptedOrder();
    expect(await submitNow(deps(), SHOP, row.id)).toMatchObject({ ok: false });
  });

  it("cancels an unsent order here, and queues the cancellation of a sent one", async () => {
    const ready = await takenIn();
    expect(await cancelAtWarehouse(deps(), SHOP, ready.id)).toMatchObject({
      ok: true,
      message: "Cancelled. The warehouse never had it.",
    });
    expect(await read(ready)).toMatchObject({ state: "cancelled" });
    expect(await cancelAtWarehouse(deps(), SHOP, ready.id)).toMatchObject({ ok: false });
    const accepted = await acceptedOrder();
    expect(await cancelAtWarehouse(deps(), SHOP, accepted.id)).toMatchObject({ ok: true });
    expect(await read(accepted)).toMatchObject({ state: "accepted", pending: "cancel" });
  });
});

describe("the worker's outcomes", () => {
  it("claims: submitting, with the body fixed as sent", async () => {
    const row = await drive(await takenIn(), claimed);
    expect(row.state).toBe("submitting");
    expect(row.sentOrder).toBe(row.mapped);
    expect(row.submittedAt).toEqual(expect.any(Date));
  });

  it("accepts, storing the warehouse's ids", async () => {
    const row = await acceptedOrder();
    expect(row).toMatchObject({ state: "accepted", idOrderFF: "FF-1", keyOrder: "key-FF-1", pending: null });
    expect(await kinds(row)).toEqual(["received", "ready", "accepted"]);
  });

  it("accepts an order cancelled while it was out, and keeps the cancellation due", async () => {
    const row = await drive(
      await takenIn(),
      claimed,
      { type: "shopify_cancelled", cancelledAt: at },
      acceptedAs("FF-3"),
    );
    expect(row).toMatchObject({ state: "accepted", pending: "cancel", nextAttemptAt: expect.any(Date) });
  });

  it("rejects with the warehouse's words, or cancels an order cancelled meanwhile", async () => {
    const rejected = await drive(await takenIn(), claimed, { type: "rejected", messages: ["Нет товара"] });
    expect(rejected).toMatchObject({ state: "rejected", lastError: "Нет товара", nextAttemptAt: null });
    const cancelled = await drive(
      await takenIn(),
      claimed,
      { type: "shopify_cancelled", cancelledAt: at },
      { type: "rejected", messages: ["Нет товара"] },
    );
    expect(cancelled).toMatchObject({ state: "cancelled", pending: null });
  });

  it("retries a transient failure later, counting the attempt", async () => {
    const row = await drive(await takenIn(), claimed, failed(transient));
    expect(row).toMatchObject({ state: "ready", attempts: 1, nextAttemptAt: later, lastError: "HTTP 503" });
    expect((await kinds(row)).at(-1)).toBe("retry_scheduled");
  });

  it("stops retrying after MAX_ATTEMPTS: the order waits for the merchant, not due", async () => {
    let row = await takenIn();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++)
      row = await drive(row, claimed, failed(transient));
    expect(row).toMatchObject({
      state: "ready",
      attempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
      attention: "retries_exhausted",
    });
    expect((await kinds(row)).at(-1)).toBe("retries_exhausted");
    // The merchant's Retry makes it due again, counting afresh.
    expect(await submitNow(deps(), SHOP, row.id)).toMatchObject({ ok: true });
    expect(await read(row)).toMatchObject({
      state: "ready",
      attempts: 0,
      attention: null,
      nextAttemptAt: expect.any(Date),
    });
  });

  it("stops with the reason on an answer that will never change", async () => {
    const row = await drive(await takenIn(), claimed, failed(refused));
    expect(row).toMatchObject({ state: "rejected", nextAttemptAt: null, lastError: refused.reason });
  });

  it("leaves an order without a clear answer in doubt, to be looked up", async () => {
    const row = await drive(
      await takenIn(),
      claimed,
      failed({ kind: "in_doubt", reason: "timeout", lookAt: later }),
    );
    expect(row).toMatchObject({ state: "in_doubt", attempts: 1, nextAttemptAt: later });
  });

  it("puts an order back unsent when the key is refused", async () => {
    const row = await drive(await takenIn(), claimed, failed({ kind: "key_refused", reason: "401" }));
    expect(row).toMatchObject({ state: "ready", attempts: 0 });
    expect((await kinds(row)).at(-1)).toBe("paused");
  });

  it("cancels an order cancelled while its AddOrder failed cleanly, instead of sending it later", async () => {
    const row = await drive(
      await takenIn(),
      claimed,
      { type: "shopify_cancelled", cancelledAt: at },
      failed(transient),
    );
    expect(row).toMatchObject({ state: "cancelled", pending: null, nextAttemptAt: null });
  });

  it("records an edit sent; a change or a cancellation that came in meanwhile goes next", async () => {
    const row = await acceptedOrder();
    await changePhone(row, "067 765 43 21");
    const editing = await read(row);
    const sent = await drive(editing, { type: "edit_sent", sent: editing.mapped! });
    expect(sent).toMatchObject({ pending: null, nextAttemptAt: null, sentOrder: editing.mapped });

    await changePhone(sent, "067 111 22 33");
    const again = await read(row);
    const cancelledMeanwhile = await drive(
      again,
      { type: "shopify_cancelled", cancelledAt: at },
      {
        type: "edit_sent",
        sent: again.mapped!,
      },
    );
    expect(cancelledMeanwhile).toMatchObject({ pending: "cancel", nextAttemptAt: expect.any(Date) });
  });

  it("records a cancellation sent", async () => {
    const row = await drive(await acceptedOrder(), { type: "cancel_requested" }, { type: "cancel_sent" });
    expect(row).toMatchObject({ state: "cancelled", pending: null, nextAttemptAt: null });
  });

  it("flags a refused edit, but still sends a cancellation that came in while it was out", async () => {
    const row = await acceptedOrder();
    await changePhone(row, "067 765 43 21");
    const refusedEdit = await drive(await read(row), {
      type: "change_failed",
      change: "edit",
      failure: refused,
    });
    expect(refusedEdit).toMatchObject({ attention: "edit_refused", pending: null, nextAttemptAt: null });

    await changePhone(refusedEdit, "067 111 22 33");
    const cancelled = await drive(
      await read(row),
      { type: "shopify_cancelled", cancelledAt: at },
      {
        type: "change_failed",
        change: "edit",
        failure: refused,
      },
    );
    expect(cancelled).toMatchObject({ pending: "cancel", nextAttemptAt: expect.any(Date) });
  });

  it("flags a refused cancellation", async () => {
    const row = await drive(
      await acceptedOrder(),
      { type: "cancel_requested" },
      {
        type: "change_failed",
        change: "cancel",
        failure: refused,
      },
    );
    expect(row).toMatchObject({ attention: "cancel_refused", pending: null, state: "accepted" });
  });

  it("retries a change after a transient failure, and leaves it untouched when the key is refused", async () => {
    const queued = await drive(await acceptedOrder(), { type: "cancel_requested" });
    const retried = await drive(queued, { type: "change_failed", change: "cancel", failure: transient });
    expect(retried).toMatchObject({ pending: "cancel", attempts: 1, nextAttemptAt: later });
    const untouched = await drive(retried, {
      type: "change_failed",
      change: "cancel",
      failure: { kind: "key_refused", reason: "401" },
    });
    expect(untouched).toEqual(retried);
  });
});

describe("the version", () => {
  it("is raised by every write, and a write from an older read changes nothing", async () => {
    const row = await takenIn();
    const moved = await drive(row, claimed);
    expect(moved.version).toBe(row.version + 1);
    await expect(
      commit(
        deps(),
        [{ row, data: { state: "cancelled" } }],
        [{ shop: SHOP, orderId: row.id, at, kind: "cancelled", text: timelineText("cancelledFromAdmin") }],
      ),
    ).rejects.toBeInstanceOf(ChangedMeanwhile);
    expect(await read(row)).toEqual(moved);
    expect(await kinds(row)).not.toContain("cancelled");
  });

  it("gives each order of one commit its own warehouse ids, and none to an order moved meanwhile", async () => {
    const rows = [];
    for (let i = 0; i < 3; i++) rows.push(await drive(await takenIn(), claimed));
    const [first, second, third] = rows as [OrderRow, OrderRow, OrderRow];
    const movedThird = await drive(third, failed(transient));
    const accept = (row: OrderRow, ff: string) => ({
      row,
      data: { state: "accepted", idOrderFF: ff, keyOrder: `key-${ff}` },
    });
    const changes = [accept(first, "FF-A"), accept(second, "FF-B"), accept(third, "FF-C")];

    await expect(commit(deps(), changes, [])).rejects.toBeInstanceOf(ChangedMeanwhile);
    expect((await read(first)).state).toBe("submitting");

    await commit(deps(), changes, [], { strict: false });
    expect(await read(first)).toMatchObject({ state: "accepted", idOrderFF: "FF-A", keyOrder: "key-FF-A" });
    expect(await read(second)).toMatchObject({ state: "accepted", idOrderFF: "FF-B", keyOrder: "key-FF-B" });
    expect(await read(third)).toEqual(movedThird);
  });
});

// The order rules for intake, on the real database: an order's first webhook, a Shopify update that maps
// it again, and a Shopify cancellation, each applied through the real commit path (see support.ts).
import { describe, expect, it } from "vitest";
import type { OrderInput } from "../../../app/orders/state-machine";
import { FIXTURE_ORDER } from "../../support/orders";
import {
  acceptedAs,
  acceptedOrder,
  at,
  changePhone,
  claimed,
  drive,
  failed,
  kinds,
  later,
  read,
  takenIn,
} from "./support";

describe("creating an order", () => {
  it("makes a mappable order ready and due, with received and ready events", async () => {
    const row = await takenIn();
    expect(row).toMatchObject({ state: "ready", version: 0, pending: null });
    expect(row.mapped).not.toBeNull();
    expect(row.nextAttemptAt).not.toBeNull();
    expect(await kinds(row)).toEqual(["received", "ready"]);
  });

  it("holds an order the mapping cannot send, not due", async () => {
    const row = await takenIn({
      shipping_address: { ...FIXTURE_ORDER.shipping_address, phone: "+48 601 234 567" },
    });
    expect(row).toMatchObject({ state: "held", mapped: null, nextAttemptAt: null });
    expect(await kinds(row)).toEqual(["received", "held"]);
  });

  it("records an order cancelled before it arrived as cancelled", async () => {
    const row = await takenIn({ cancelled_at: "2026-03-01T09:10:00Z" });
    expect(row).toMatchObject({ state: "cancelled", nextAttemptAt: null });
    expect(await kinds(row)).toEqual(["received", "cancelled"]);
  });
});

describe("a Shopify update", () => {
  it("holds a ready order whose new data cannot be mapped, and makes it ready again once it can", async () => {
    const row = await takenIn();
    expect(await changePhone(row, "+48 601 234 567")).toBe(true);
    const held = await read(row);
    expect(held).toMatchObject({ state: "held", mapped: null, nextAttemptAt: null, version: 1 });
    expect(await changePhone(held, "067 765 43 21")).toBe(true);
    expect(await read(row)).toMatchObject({ state: "ready", version: 2 });
    expect(await kinds(row)).toEqual(["received", "ready", "held", "ready"]);
  });

  it("queues an edit for an accepted order, and drops it when the order changes back", async () => {
    const row = await acceptedOrder();
    await changePhone(row, "067 765 43 21");
    const editing = await read(row);
    expect(editing).toMatchObject({ pending: "edit", nextAttemptAt: expect.any(Date) });
    await changePhone(editing, "067 123 45 67");
    expect(await read(row)).toMatchObject({ pending: null, nextAttemptAt: null });
  });

  it("never turns a queued cancellation into an edit", async () => {
    const row = await drive(await acceptedOrder(), { type: "cancel_requested" });
    await changePhone(row, "067 765 43 21");
    expect(await read(row)).toMatchObject({ pending: "cancel" });
  });

  it("flags an accepted order whose change cannot be mapped, and forgets the edit queued before", async () => {
    const row = await acceptedOrder();
    await changePhone(row, "067 765 43 21");
    await changePhone(await read(row), "+48 601 234 567");
    expect(await read(row)).toMatchObject({ attention: "edit_held", pending: null, nextAttemptAt: null });
  });

  it("keeps a change to an order being sent, to become an edit once it is accepted", async () => {
    const row = await drive(await takenIn(), claimed);
    await changePhone(row, "067 765 43 21");
    const changed = await read(row);
    expect(changed).toMatchObject({ state: "submitting" });
    expect(changed.mapped).not.toBe(changed.sentOrder);
    expect(await drive(changed, acceptedAs("FF-2"))).toMatchObject({ state: "accepted", pending: "edit" });
  });

  it("decides again from the order as it is now when the worker moved it meanwhile", async () => {
    const stale = await takenIn();
    await drive(stale, claimed);
    // `stale` still says ready at version 0: the change is decided for the submitting order instead.
    await changePhone(stale, "067 765 43 21");
    expect(await read(stale)).toMatchObject({ state: "submitting", version: 2 });
    expect((await kinds(stale)).at(-1)).toBe("updated");
  });
});

describe("a Shopify cancellation", () => {
  const cancel: OrderInput = { type: "shopify_cancelled", cancelledAt: at };

  it("cancels an order the warehouse never had", async () => {
    const row = await drive(await takenIn(), cancel);
    expect(row).toMatchObject({ state: "cancelled", nextAttemptAt: null, cancelledAt: at });
  });

  it("queues a cancellation for an order the warehouse has or may have", async () => {
    const accepted = await drive(await acceptedOrder(), cancel);
    expect(accepted).toMatchObject({ state: "accepted", pending: "cancel" });
    const inDoubt = await drive(
      await takenIn(),
      claimed,
      failed({ kind: "in_doubt", reason: "timeout", lookAt: later }),
      cancel,
    );
    expect(inDoubt).toMatchObject({ state: "in_doubt", pending: "cancel" });
  });

  it("changes nothing for an order already cancelled but the version", async () => {
    const row = await drive(await takenIn(), cancel);
    const again = await drive(row, cancel);
    expect(again).toMatchObject({ state: "cancelled", cancelledAt: at });
  });
});

// The order rules, one transition at a time, on the real database: each order is taken in through intake,
// brought to its state by the rules themselves, and each patch goes through the real commit path
// (conditional on the version read) before the row and its timeline are read back.
import { describe, expect, it } from "vitest";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { appContext } from "../../../app/context.server";
import { applyToOrder, ChangedMeanwhile, commit } from "../../../app/orders/commit.server";
import { cancelAtWarehouse, submitNow } from "../../../app/orders/actions.server";
import { applyChange, storedShopifyOrder, takeInOrderWebhook } from "../../../app/orders/intake.server";
import { shopMapping } from "../../../app/settings/settings.server";
import { shopifyOrderSchema } from "../../../app/orders/payload";
import {
  foundAtWarehouse,
  lookUpFailed,
  MAX_ATTEMPTS,
  notFoundAtWarehouse,
  type Failure,
  type OrderInput,
  type ShopifyTold,
  type StatusReport,
  type Transition,
} from "../../../app/orders/state-machine";
import { readTexts } from "../../../app/i18n/texts";
import { timelineText } from "../../../app/orders/timeline";
import { message } from "../../../app/i18n/message";
import { FIXTURE_ORDER, inEnglishWords } from "../../support/orders";
import { fulfillmentProblemOf } from "../../../app/fulfillment/work.server";

const SHOP = "kyiv-goods.myshopify.com";
const db = () => appContext().db;
const deps = () => appContext();
const at = new Date("2026-03-02T10:00:00Z");
const later = new Date("2026-03-02T10:05:00Z");

let number = 3000;

function payload(changes: Record<string, unknown> = {}) {
  const n = ++number;
  const id = 6123456780000 + n;
  return {
    ...FIXTURE_ORDER,
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${n}`,
    order_number: n,
    created_at: "2026-03-01T09:00:00Z",
    updated_at: "2026-03-01T09:00:00Z",
    ...changes,
  };
}

/** An order taken in through intake, as orders/create would bring it. */
async function takenIn(changes: Record<string, unknown> = {}): Promise<OrderRow> {
  const order = shopifyOrderSchema.parse(payload(changes));
  await takeInOrderWebhook(deps(), { shop: SHOP, topic: "orders/create", order, eventId: `e-${order.id}` });
  return db().warehouseOrder.findFirstOrThrow({ where: { shopifyOrderId: order.id } });
}

const read = (row: Pick<OrderRow, "id">) => db().warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });

/** Applies inputs one after another through the real commit path; answers the row as it is then. */
async function drive(row: OrderRow, ...inputs: OrderInput[]): Promise<OrderRow> {
  let current = row;
  for (const input of inputs) {
    const refusal = await applyToOrder(deps(), current, input);
    if (refusal) throw new Error(`refused: ${refusal.refused}`);
    current = await read(current);
  }
  return current;
}

async function kinds(row: Pick<OrderRow, "id">): Promise<string[]> {
  const events = await db().orderEvent.findMany({ where: { orderId: row.id }, orderBy: { id: "asc" } });
  return events.map((event) => event.kind);
}

const claimed: OrderInput = { type: "claimed" };
const acceptedAs = (ff: string): OrderInput => ({ type: "accepted", idOrderFF: ff, keyOrder: `key-${ff}` });
const failed = (failure: Failure): OrderInput => ({ type: "submission_failed", failure });
const transient: Failure = { kind: "transient", reason: "HTTP 503", retryAt: later };
const refused: Failure = { kind: "refused", reason: "HTTP 400: body not readable" };

async function acceptedOrder(): Promise<OrderRow> {
  return drive(await takenIn(), claimed, acceptedAs("FF-1"));
}

/** The order as Shopify sends it again, with its shipping phone changed (a mapped field). */
async function changePhone(row: OrderRow, phone: string) {
  const stored = await db().orderPayload.findUniqueOrThrow({ where: { orderId: row.id } });
  const changed = shopifyOrderSchema.parse({
    ...storedShopifyOrder(row.id, stored),
    shipping_address: { ...FIXTURE_ORDER.shipping_address, phone },
  });
  return applyChange(deps(), row, {
    order: changed,
    settings: await shopMapping(db(), SHOP),
    cancelled: false,
    payload: JSON.stringify(changed),
  });
}

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

describe("a status report", () => {
  const report = (
    name: string,
    options: { stage?: StatusReport["stage"]; known?: boolean; ttn?: string; carrier?: string } = {},
  ): OrderInput => ({
    type: "status_reported",
    report: {
      stage: options.stage ?? null,
      known: options.known ?? true,
      ttn: options.ttn ?? "",
      warehouseStatus: { id: "", name, date: "02.03.2026 10:00:00" },
      carrierStatus: { id: options.carrier ?? "", name: options.carrier ? "в дорозі" : "", date: "" },
      record: { status_mtp: name },
    },
  });

  it("moves the stage forward only, keeps the waybill, and makes Shopify due once shipped with one", async () => {
    const shipped = await drive(
      await acceptedOrder(),
      report("Собран", { stage: "picked" }),
      report("Отгружен", { stage: "shipped", ttn: "20450000000001" }),
    );
    expect(shipped).toMatchObject({ stage: "shipped", ttn: "20450000000001" });
    expect(shipped.fulfillmentDueAt).toEqual(expect.any(Date));
    // An older status reported late changes neither the stage nor the waybill.
    const late = await drive(shipped, report("Собран", { stage: "picked" }));
    expect(late).toMatchObject({ stage: "shipped", ttn: "20450000000001" });
    expect(await kinds(shipped)).toEqual(
      expect.arrayContaining(["accepted", "picked", "shipped", "ttn_assigned"]),
    );
    expect((await kinds(shipped)).filter((kind) => kind === "picked")).toHaveLength(1);
  });

  it("records a changed waybill and new carrier progress, and makes Shopify due again", async () => {
    const shipped = await drive(
      await acceptedOrder(),
      report("Отгружен", { stage: "shipped", ttn: "20450000000001" }),
    );
    await db().warehouseOrder.update({ where: { id: shipped.id }, data: { fulfillmentDueAt: null } });
    const changed = await drive(
      await read(shipped),
      report("Отгружен", { stage: "shipped", ttn: "20450000000002", carrier: "5" }),
    );
    expect(changed).toMatchObject({ ttn: "20450000000002", fulfillmentDueAt: expect.any(Date) });
    expect(JSON.parse(changed.carrierStatus!)).toMatchObject({ id: "5" });
    expect(await kinds(changed)).toContain("ttn_changed");
  });

  it("records a status the table does not know once, and moves nothing", async () => {
    const order = await acceptedOrder();
    const after = await drive(order, report("Резерв", { known: false }), report("Резерв", { known: false }));
    expect(after).toMatchObject({ stage: null, fulfillmentDueAt: null });
    expect(JSON.parse(after.warehouseStatus!)).toMatchObject({ name: "Резерв" });
    expect((await kinds(after)).filter((kind) => kind === "status_unknown")).toHaveLength(1);
  });

  it("asks the merchant to act in Shopify when the warehouse cancels or the parcel comes back", async () => {
    const cancelled = await drive(
      await acceptedOrder(),
      report("Отменен", { stage: "cancelled_at_warehouse" }),
    );
    expect(cancelled).toMatchObject({ stage: "cancelled_at_warehouse", attention: "cancelled_at_warehouse" });
    // Shipping cannot follow a cancellation at the warehouse.
    expect(await drive(cancelled, report("Отгружен", { stage: "shipped" }))).toMatchObject({
      stage: "cancelled_at_warehouse",
    });
    const returned = await drive(
      await acceptedOrder(),
      report("Доставлен", { stage: "delivered", ttn: "20450000000003" }),
      report("Возврат", { stage: "returned" }),
    );
    expect(returned).toMatchObject({ stage: "returned", attention: "returned" });
    expect(inEnglishWords(returned.attentionMessage)).toMatch(/Shopify/);
  });

  it("a partial return leaves the stage and flags what came back and what did not; the rest completes it", async () => {
    const booked = (lines: { sku: string; count: number }[], before: { sku: string; count: number }[] = []) =>
      ({
        type: "return_booked",
        booked: {
          returnKey: `id:${lines.map((line) => line.sku).join()}`,
          ttn: null,
          lines: lines.map((line) => ({ ...line, defective: false })),
          units: lines.reduce((sum, line) => sum + line.count, 0),
          before,
        },
      }) satisfies OrderInput;
    const delivered = await drive(
      await acceptedOrder(),
      report("Доставлен", { stage: "delivered", ttn: "20450000000005" }),
    );
    const partly = await drive(delivered, booked([{ sku: "TEA-POL-100", count: 1 }]));
    expect(partly).toMatchObject({ stage: "delivered", attention: "partly_returned" });
    expect(readTexts(partly.attentionMessage)).toEqual([
      message("orders:timeline.partlyReturned", { back: "TEA-POL-100 × 1", missing: "CUP-KARP-BLUE × 2" }),
    ]);
    const whole = await drive(
      partly,
      booked([{ sku: "CUP-KARP-BLUE", count: 2 }], [{ sku: "TEA-POL-100", count: 1 }]),
    );
    expect(whole).toMatchObject({ stage: "returned", attention: "returned" });
  });

  it("moves an order to returned once a return is booked, and writes every return with what came back", async () => {
    const booked = (ttn: string | null): OrderInput => ({
      type: "return_booked",
      booked: {
        returnKey: `id:${ttn ?? "none"}`,
        ttn,
        // Everything the warehouse was sent (the fixture's two cups and a tea).
        lines: [
          { sku: "CUP-KARP-BLUE", count: 2, defective: false },
          { sku: "TEA-POL-100", count: 1, defective: true },
        ],
        units: 3,
      },
    });
    const delivered = await drive(
      await acceptedOrder(),
      report("Доставлен", { stage: "delivered", ttn: "20450000000005" }),
    );
    const returned = await drive(delivered, booked("20450000000009"));
    expect(returned).toMatchObject({
      stage: "returned",
      attention: "returned",
      version: delivered.version + 1,
    });
    // A second return of the same order is on its timeline; the stage is already the last one.
    const again = await drive(returned, booked(null));
    expect(again).toMatchObject({ stage: "returned", stageAt: returned.stageAt });
    const events = await db().orderEvent.findMany({
      where: { orderId: returned.id, kind: "returned" },
      orderBy: { id: "asc" },
    });
    expect(events.map((event) => readTexts(event.message))).toEqual([
      [message("orders:timeline.returnBooked", { ttn: "20450000000009", units: 3, defective: 1 })],
      [message("orders:timeline.returnBookedNoTtn", { units: 3, defective: 1 })],
    ]);
    expect(JSON.parse(events[0]!.data!)).toMatchObject({
      return: {
        ttn: "20450000000009",
        units: 3,
        lines: [{ sku: "CUP-KARP-BLUE", count: 2, defective: false }, {}],
      },
    });
    // An order the warehouse never accepted keeps its state: the return is only written down.
    const ready = await takenIn();
    expect(await drive(ready, booked("20450000000010"))).toMatchObject({ state: "ready", stage: null });
    expect(await kinds(ready)).toContain("returned");
  });

  it("changes nothing but the check's time for an order that is not at the warehouse", async () => {
    const ready = await takenIn();
    const after = await drive(ready, report("Отгружен", { stage: "shipped", ttn: "20450000000004" }));
    expect(after).toMatchObject({
      state: "ready",
      stage: null,
      ttn: null,
      statusCheckedAt: expect.any(Date),
    });
  });
});

describe("telling Shopify", () => {
  const eventFor = (id: string) => (id === "5" ? "IN_TRANSIT" : null);
  const told = (what: ShopifyTold): OrderInput => ({ type: "shopify_told", told: what, eventFor });
  const shipped = async (carrier = "") =>
    drive(await acceptedOrder(), {
      type: "status_reported",
      report: {
        stage: "shipped",
        known: true,
        ttn: "20450000000001",
        warehouseStatus: { id: "3", name: "Отгружен", date: "" },
        carrierStatus: { id: carrier, name: "", date: "" },
        record: {},
      },
    });

  it("records the fulfillment made, and stays due while the carrier's progress is still to tell", async () => {
    const made = await drive(
      await shipped("5"),
      told({
        fulfilled: { fulfillmentId: "gid://shopify/Fulfillment/1", found: false, notified: true },
        ttn: "20450000000001",
      }),
    );
    expect(made).toMatchObject({
      fulfillmentId: "gid://shopify/Fulfillment/1",
      fulfilledTtn: "20450000000001",
      fulfillmentDueAt: expect.any(Date),
    });
    const upToDate = await drive(made, told({ event: "IN_TRANSIT" }));
    expect(upToDate).toMatchObject({ fulfillmentEvent: "IN_TRANSIT", fulfillmentDueAt: null });
    expect(await kinds(made)).toEqual(expect.arrayContaining(["fulfilled", "fulfillment_event"]));
  });

  it("keeps a fulfillment found after a lost answer, saying it was not made again", async () => {
    const found = await drive(
      await shipped(),
      told({
        fulfilled: { fulfillmentId: "gid://shopify/Fulfillment/2", found: true, notified: false },
        ttn: "20450000000001",
      }),
    );
    expect(found).toMatchObject({ fulfillmentId: "gid://shopify/Fulfillment/2", fulfillmentDueAt: null });
    const events = await db().orderEvent.findMany({ where: { orderId: found.id, kind: "fulfilled" } });
    expect(events.map((event) => inEnglishWords(event.message))).toEqual([
      expect.stringMatching(/not made again/),
    ]);
  });

  it("waits for the merchant on a problem, until they ask again", async () => {
    const order = await shipped();
    await expect(applyToOrder(deps(), order, { type: "shopify_retry" })).resolves.toMatchObject({
      refused: expect.any(String),
    });
    const problem = fulfillmentProblemOf("on_hold");
    const held = await drive(order, told({ problem }));
    expect(held).toMatchObject({ fulfillmentDueAt: null });
    expect(JSON.parse(held.fulfillmentProblem!)).toEqual({
      code: "on_hold",
      message: expect.stringContaining("on hold in Shopify"),
      text: { key: "orders:fulfillmentProblem.on_hold" },
    });
    const again = await drive(held, { type: "shopify_retry" });
    expect(again).toMatchObject({ fulfillmentProblem: null, fulfillmentDueAt: expect.any(Date) });
  });

  it("keeps every waybill the order has had: each reported, and each a fulfillment is asked for with", async () => {
    let row = await shipped();
    expect(JSON.parse(row.waybills!)).toEqual(["20450000000001"]);
    row = await drive(row, { type: "waybill_used", ttn: "2045 0000 000001" });
    expect(JSON.parse(row.waybills!)).toEqual(["20450000000001"]);
    row = await drive(row, {
      type: "status_reported",
      report: {
        stage: "shipped",
        known: true,
        ttn: "20450000000002",
        warehouseStatus: { id: "3", name: "Отгружен", date: "" },
        carrierStatus: { id: "", name: "", date: "" },
        record: {},
      },
    });
    expect(JSON.parse(row.waybills!)).toEqual(["20450000000001", "20450000000002"]);
  });

  it("flags what the warehouse did not ship, on the order and its timeline", async () => {
    const made = await drive(
      await shipped(),
      told({
        fulfilled: { fulfillmentId: "gid://shopify/Fulfillment/3", found: false, notified: true },
        ttn: "20450000000001",
        unshipped: [
          { sku: "CUP-KARP-BLUE", title: "Чашка", quantity: 1 },
          { sku: null, title: "Листівка", quantity: 2 },
        ],
      }),
    );
    expect(JSON.parse(made.unshipped!)).toHaveLength(2);
    const events = await db().orderEvent.findMany({ where: { orderId: made.id, kind: "unshipped" } });
    expect(events.map((event) => readTexts(event.message))).toEqual([
      [message("orders:timeline.unshipped", { items: "Чашка (CUP-KARP-BLUE) × 1, Листівка × 2" })],
    ]);
  });

  it("tries again after a failure, and hands the order to the merchant after MAX_ATTEMPTS", async () => {
    let row = await shipped();
    const failure = (i: number) =>
      told({ failure: { reason: "Shopify did not answer.", retryAt: new Date(later.getTime() + i) } });
    row = await drive(row, failure(1));
    expect(row).toMatchObject({ fulfillmentAttempts: 1, fulfillmentDueAt: new Date(later.getTime() + 1) });
    for (let i = 2; i <= MAX_ATTEMPTS; i++) row = await drive(row, failure(i));
    expect(row).toMatchObject({ fulfillmentDueAt: null, fulfillmentAttempts: MAX_ATTEMPTS });
    expect(JSON.parse(row.fulfillmentProblem!)).toMatchObject({ code: "retries_exhausted" });
  });
});

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

// The order rules after the warehouse has the order, on the real database: status reports, returns booked,
// and what the Shopify side did with the fulfillment (see support.ts).
import { describe, expect, it } from "vitest";
import { applyToOrder } from "../../../app/orders/commit.server";
import {
  MAX_ATTEMPTS,
  type OrderInput,
  type ShopifyTold,
  type StatusReport,
} from "../../../app/orders/state-machine";
import { readTexts } from "../../../app/i18n/texts";
import { message } from "../../../app/i18n/message";
import { inEnglishWords } from "../../support/orders";
import { fulfillmentProblemOf } from "../../../app/fulfillment/work.server";
import { acceptedOrder, db, deps, drive, kinds, later, read, takenIn } from "./support";

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

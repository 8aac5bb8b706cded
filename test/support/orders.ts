// Orders seeded the way the app makes them: a real Shopify order payload (the Nova Poshta cash-on-delivery
// fixture, renumbered) taken in by the app's own intake, and changed later by the webhooks that change it.
// Only what the worker alone writes after talking to the warehouse is written here (see workerOutcome).
import { readFileSync } from "node:fs";
import type { WarehouseOrder } from "@prisma/client";
import { appContext, type ServiceDeps } from "../../app/context.server";
import type { Db } from "../../app/db.server";
import { applyToOrder } from "../../app/orders/commit.server";
import { takeInOrderWebhook, type OrderTopic } from "../../app/orders/intake.server";
import { shopifyOrderSchema } from "../../app/orders/payload";
import type { OrderInput, StatusReport } from "../../app/orders/state-machine";
import { ATTENTION, ORDER_STATE, PENDING, type Attention, type Pending } from "../../app/orders/states";
import { EVENT, recordEvents, type OrderEventInput } from "../../app/orders/timeline.server";
import { storedTexts, timelineText } from "../../app/orders/timeline";
import { readTexts } from "../../app/i18n/texts";
import { inEnglish } from "../../app/orders/words";

/** A stored event's or attention's texts in English, as one string (for tests that look for words). */
export function inEnglishWords(stored: string | null | undefined): string {
  return readTexts(stored).map(inEnglish).join(" ");
}

/** A realistic Ukrainian order webhook payload: UAH, Nova Poshta branch, cash on delivery. */
export const FIXTURE_ORDER = JSON.parse(
  readFileSync("test/fixtures/orders/ua-cod-nova-poshta.json", "utf8"),
) as Record<string, unknown> & { shipping_address: Record<string, unknown> };

/** The states a seed can reach: intake's own (held, ready, cancelled) and the worker's outcomes. */
export type SeededState = "held" | "ready" | "cancelled" | "accepted" | "rejected" | "in_doubt";

export interface SeededOrder {
  shop: string;
  number: number;
  state: SeededState;
  /** Shopify's order id: 6123456780000 + number unless told. */
  shopifyOrderId?: number;
  /** The customer's Shopify id: the fixture's unless told. */
  customerId?: number;
  /** The shipping address phone; a foreign one holds the order (a held seed has a Polish one unless told). */
  phone?: string;
  /** accepted: the warehouse's id (its key_order is `key-` and this). */
  idOrderFF?: string;
  /** rejected: the warehouse's refusal; in_doubt: why the answer was not clear. */
  lastError?: string;
  /** accepted: a change still to send, brought by an orders/updated or orders/cancelled webhook. */
  pending?: Pending;
  /** accepted: the warehouse refused that change (the webhook that brought it is sent first). */
  attention?: typeof ATTENTION.cancelRefused | typeof ATTENTION.editRefused;
  attentionMessage?: string;
  /** Fields of the Shopify payload over the fixture's (the line items of a Shopify fake's order, say). */
  payload?: Record<string, unknown>;
}

const MINUTE = 60_000;

/**
 * Takes the order in through intake, then moves it on as the app would. Each step happens a minute after
 * the one before on a clock of its own (the order is placed on 1 March 2026), so timelines are stable.
 */
export async function seedOrder(db: Db, seed: SeededOrder): Promise<WarehouseOrder> {
  const id = seed.shopifyOrderId ?? 6123456780000 + seed.number;
  const placedAt = Date.UTC(2026, 2, 1, 9, seed.number % 60);
  let step = 0;
  const next = () => new Date(placedAt + ++step * MINUTE);
  const payload = {
    ...FIXTURE_ORDER,
    ...seed.payload,
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${seed.number}`,
    order_number: seed.number,
    created_at: new Date(placedAt).toISOString(),
    updated_at: new Date(placedAt).toISOString(),
    ...(seed.customerId !== undefined && {
      customer: { ...(FIXTURE_ORDER.customer as object), id: seed.customerId },
    }),
    shipping_address: {
      ...FIXTURE_ORDER.shipping_address,
      phone: seed.phone ?? (seed.state === ORDER_STATE.held ? "+48 601 234 567" : "067 123 45 67"),
    },
  };
  /** The order as Shopify sends it at `at`: `changes(at)` made then. */
  const webhook = async (
    topic: OrderTopic,
    changes: (at: string) => Record<string, unknown> = () => ({}),
  ) => {
    const at = next();
    const deps: ServiceDeps = { ...appContext(), db, clock: () => at };
    const order = { ...payload, updated_at: at.toISOString(), ...changes(at.toISOString()) };
    await takeInOrderWebhook(deps, {
      shop: seed.shop,
      topic,
      eventId: `seed-${seed.number}-${step}`,
      order: shopifyOrderSchema.parse(order),
    });
  };
  const cancelled = (at: string) => ({ cancelled_at: at, cancel_reason: "customer" });
  const row = () =>
    db.warehouseOrder.findUniqueOrThrow({
      where: { shop_shopifyOrderId: { shop: seed.shop, shopifyOrderId: String(id) } },
    });

  await webhook("orders/create");
  if (seed.state === ORDER_STATE.cancelled) await webhook("orders/cancelled", cancelled);
  if (
    seed.state === ORDER_STATE.held ||
    seed.state === ORDER_STATE.ready ||
    seed.state === ORDER_STATE.cancelled
  )
    return expectState(await row(), seed.state);

  const ready = expectState(await row(), ORDER_STATE.ready);
  await workerOutcome(db, ready, seed, next());
  if (seed.state !== ORDER_STATE.accepted) return row();

  const change =
    seed.pending ??
    (seed.attention === ATTENTION.cancelRefused
      ? PENDING.cancel
      : seed.attention === ATTENTION.editRefused
        ? PENDING.edit
        : undefined);
  if (change === PENDING.cancel) await webhook("orders/cancelled", cancelled);
  if (change === PENDING.edit)
    await webhook("orders/updated", () => ({
      shipping_address: { ...payload.shipping_address, phone: "050 765 43 21" },
    }));
  if (seed.attention) await changeRefused(db, await row(), seed.attention, seed.attentionMessage, next());
  return row();
}

function expectState(row: WarehouseOrder, state: string): WarehouseOrder {
  if (row.state !== state) throw new Error(`intake left order ${row.orderName} ${row.state}, not ${state}`);
  return row;
}

// What the worker writes once the warehouse has answered. The worker cannot take one seeded order to a
// chosen outcome: it sends every due order of the shop at once (a seeded neighbour that must stay ready
// would go too), and the warehouse picks its own ids while the read-side tests need fixed ones. So this is
// the one place that writes a worker's outcome directly: the same columns, conditional on the state read,
// and the same events as app/orders/submission.server.ts writes (e2e tests hold the worker to them).

async function workerOutcome(db: Db, row: WarehouseOrder, seed: SeededOrder, at: Date) {
  const request = JSON.parse(row.mapped!) as Record<string, unknown>;
  const base = { shop: row.shop, orderId: row.id, at };
  const exchange = { operation: "AddOrder", url: "https://warehouse.test/api/AddOrder", status: 200 };
  const claimed = { sentOrder: row.mapped, submittedAt: at, updatedAt: at };
  let data: Partial<WarehouseOrder>;
  let event: OrderEventInput;
  if (seed.state === ORDER_STATE.accepted) {
    const idOrderFF = seed.idOrderFF ?? `FF-${seed.number}`;
    const keyOrder = `key-${idOrderFF}`;
    data = {
      state: ORDER_STATE.accepted,
      idOrderFF,
      keyOrder,
      acceptedAt: at,
      attempts: 0,
      lastError: null,
      pending: null,
      nextAttemptAt: null,
    };
    event = {
      ...base,
      kind: EVENT.accepted,
      text: timelineText("accepted", { idOrderFF }),
      data: { request, answer: { id_order_FF: idOrderFF, key_order: keyOrder }, exchange },
    };
  } else if (seed.state === ORDER_STATE.rejected) {
    const message = seed.lastError ?? `Товар с артикулом sku: "CUP-KARP-BLUE" не найден в каталоге`;
    data = { state: ORDER_STATE.rejected, nextAttemptAt: null, lastError: message };
    event = {
      ...base,
      kind: EVENT.rejected,
      text: timelineText("refused", { reason: message }),
      data: { request, answer: { errors: [message] }, exchange },
    };
  } else {
    const reason = seed.lastError ?? "No clear answer: the warehouse did not answer in time.";
    data = {
      state: ORDER_STATE.inDoubt,
      attempts: row.attempts + 1,
      lastError: reason,
      nextAttemptAt: new Date(at.getTime() + 5_000),
    };
    event = {
      ...base,
      kind: EVENT.inDoubt,
      text: timelineText("inDoubt", { reason }),
      data: { request, exchange: { ...exchange, status: undefined, error: reason } },
    };
  }
  await writeOutcome(db, row, { ...claimed, ...data }, event);
}

async function changeRefused(
  db: Db,
  row: WarehouseOrder,
  attention: Attention,
  message = "Заказ уже в работе на складе, изменение невозможно",
  at: Date,
) {
  const cancel = attention === ATTENTION.cancelRefused;
  await writeOutcome(
    db,
    row,
    {
      pending: null,
      nextAttemptAt: null,
      attention,
      attentionMessage: storedTexts(
        timelineText(cancel ? "cancelRefused" : "editRefused", { reason: message }),
      ),
      updatedAt: at,
    },
    {
      shop: row.shop,
      orderId: row.id,
      at,
      kind: cancel ? EVENT.cancelRefused : EVENT.editRefused,
      text: timelineText(cancel ? "cancelRefused" : "editRefused", { reason: message }),
    },
  );
}

async function writeOutcome(
  db: Db,
  row: WarehouseOrder,
  data: Partial<WarehouseOrder>,
  event: OrderEventInput,
) {
  await db.$transaction(async (tx) => {
    const { count } = await tx.warehouseOrder.updateMany({ where: { id: row.id, state: row.state }, data });
    if (count !== 1) throw new Error(`order ${row.orderName} moved while it was being seeded`);
    await recordEvents(tx, [event]);
  });
}

/** A ReportStatusOrder record as the status work reads it: the warehouse's status, its stage, the waybill. */
export function statusReport(
  name: string,
  stage: StatusReport["stage"],
  ttn = "",
  carrierStatus: StatusReport["carrierStatus"] = { id: "", name: "", date: "" },
): OrderInput {
  return {
    type: "status_reported",
    report: {
      stage,
      known: true,
      ttn,
      warehouseStatus: { id: "7", name, date: "02.03.2026 10:00:00" },
      carrierStatus,
      record: { status_mtp: name, TTN: ttn },
    },
  };
}

/** Applies inputs to an order through the rules and the real commit path; answers the row then. */
export async function driveOrder(row: WarehouseOrder, ...inputs: OrderInput[]): Promise<WarehouseOrder> {
  const { db } = appContext();
  let current = row;
  for (const input of inputs) {
    const refusal = await applyToOrder(appContext(), current, input);
    if (refusal) throw new Error(`order ${row.orderName} refused ${input.type}: ${refusal.refused}`);
    current = await db.warehouseOrder.findUniqueOrThrow({ where: { id: row.id } });
  }
  return current;
}

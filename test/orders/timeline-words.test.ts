// What the merchant reads on an order's timeline and attention banner is stored as keys and values, so a
// Ukrainian merchant reads every one of them in Ukrainian. Each rule's event and attention is written to a
// real order row, read back as the order page reads it, and said in both languages; rows written before,
// with English words, are still shown as they were.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { WarehouseOrder as OrderRow } from "@prisma/client";
import { appContext } from "../../app/context.server";
import { fulfillmentProblemOf } from "../../app/fulfillment/work.server";
import { FULFILLMENT_PROBLEMS } from "../../app/fulfillment/plan";
import { i18nFor } from "../../app/i18n/i18n";
import { translate, type Message } from "../../app/i18n/message";
import { correctOrder } from "../../app/orders/actions.server";
import { takeInOrderWebhook } from "../../app/orders/intake.server";
import { orderOverridesSchema } from "../../app/orders/settings";
import { timelineText } from "../../app/orders/timeline";
import { shopifyOrderSchema } from "../../app/orders/payload";
import { orderDetail } from "../../app/orders/queries.server";
import { mapWithShopMapping } from "../../app/orders/shop-mapping";
import {
  created,
  foundAtWarehouse,
  isRefusal,
  lookUpFailed,
  MAX_ATTEMPTS,
  notFoundAtWarehouse,
  transition,
  type OrderFacts,
  type OrderInput,
  type StatusReport,
  type TimelineEntry,
  type Transition,
} from "../../app/orders/state-machine";
import { ATTENTION, EVENT } from "../../app/orders/states";
import type { RoutingDecision } from "../../app/routing/decide";
import { UNAUTHORIZED_REASON } from "../../app/orders/step.server";
import { recordEvents } from "../../app/orders/timeline.server";
import { FIXTURE_ORDER } from "../support/orders";

const ROOT = join(import.meta.dirname, "../..");
const SHOP = "timeline-words.myshopify.com";
const db = () => appContext().db;
const uk = i18nFor("uk");
const en = i18nFor("en");
const now = new Date("2026-03-02T10:00:00Z");
const later = new Date("2026-03-02T10:05:00Z");

const MAPPED = JSON.stringify({ id_order: "KG-1", Phone: "380671234567" });
const facts = (over: Partial<OrderFacts> = {}): OrderFacts => ({
  state: "accepted",
  mapped: MAPPED,
  holdReasons: null,
  sentOrder: MAPPED,
  pending: null,
  attempts: 0,
  cancelledAt: null,
  attention: null,
  ...over,
});
const lookedUp = (over: Partial<OrderFacts> = {}) => ({
  ...facts({ state: "in_doubt", ...over }),
  idOrder: "KG-1",
});

const heldResult = mapWithShopMapping({
  order: shopifyOrderSchema.parse(FIXTURE_ORDER),
  shopMapping: { mapping: {} as never, problem: "delivery.rules: expected an array" },
} as never);
const okResult = { ok: true as const, order: { id_order: "KG-1", Phone: "380509999999" } as never };

const report = (over: Partial<StatusReport>): StatusReport => ({
  stage: null,
  known: true,
  ttn: "",
  warehouseStatus: { id: "1", name: "Новий", date: "" },
  carrierStatus: { id: "", name: "", date: "" },
  record: {},
  ...over,
});
const eventFor = () => null;
const transient = { kind: "transient" as const, reason: "HTTP 503", retryAt: later };
const refused = { kind: "refused" as const, reason: "Заказ уже в работе" };

/** Every event and attention the order rules write, each rule's way of saying it once at least. */
function everyTransition(): Transition[] {
  const run = (row: OrderFacts, input: OrderInput) => {
    const result = transition(row, input, now);
    if (isRefusal(result)) throw new Error(`refused: ${result.refused}`);
    return result;
  };
  const sending = facts({ state: "submitting" });
  const accepted = facts();
  const told = (row: Partial<OrderFacts>, what: Extract<OrderInput, { type: "shopify_told" }>["told"]) =>
    run(facts({ stage: "shipped", ttn: "20450000000001", ...row }), {
      type: "shopify_told",
      told: what,
      eventFor,
    });
  const shopifyStatuses = [
    "IN_TRANSIT",
    "READY_FOR_PICKUP",
    "OUT_FOR_DELIVERY",
    "ATTEMPTED_DELIVERY",
    "DELAYED",
    "FAILURE",
    "DELIVERED",
    "CARRIER_PICKED_UP",
  ];
  const fromCreate = (input: Parameters<typeof created>[0]): Transition => ({
    patch: {},
    events: created(input).events,
  });
  return [
    fromCreate({
      result: {
        ...okResult,
        foundBranch: {
          ref: "r",
          label: "Відділення №12",
          confidence: 0.93,
          source: "address",
          evidence: { city: "Київ", number: "12" },
        },
        foundCity: { ref: "c", label: "Львів", confidence: 0.9, source: "address" },
      } as never,
      cancelled: false,
      orderName: "#1001",
      now,
    }),
    fromCreate({
      result: {
        ...okResult,
        foundBranch: {
          ref: "r",
          label: "№1",
          confidence: 1,
          source: "structured",
          evidence: { field: "np" },
        },
        foundCity: { ref: "c", label: "Львів", confidence: 1, source: "structured" },
      } as never,
      cancelled: false,
      orderName: "#1002",
      now,
    }),
    fromCreate({ result: okResult, cancelled: true, orderName: "#1003", now }),
    fromCreate({ result: heldResult, cancelled: false, orderName: "#1004", now }),
    run(facts({ state: "held", mapped: null }), { type: "remapped", result: okResult }),
    run(facts({ state: "ready" }), { type: "remapped", result: heldResult }),
    run(accepted, { type: "remapped", result: heldResult }),
    run(accepted, { type: "remapped", result: okResult }),
    run(sending, { type: "remapped", result: okResult }),
    run(facts({ state: "ready" }), { type: "shopify_cancelled", cancelledAt: now }),
    run(accepted, { type: "shopify_cancelled", cancelledAt: now }),
    run(facts({ state: "ready" }), { type: "submit_now" }),
    run(facts({ state: "in_doubt", attention: ATTENTION.notAtWarehouse }), { type: "submit_now" }),
    run(facts({ state: "in_doubt" }), { type: "submit_now" }),
    run(facts({ pending: "cancel" }), { type: "submit_now" }),
    run(facts({ pending: "edit" }), { type: "submit_now" }),
    run(facts({ state: "ready" }), { type: "cancel_requested" }),
    run(accepted, { type: "cancel_requested" }),
    run(sending, { type: "accepted", idOrderFF: "FF-7", keyOrder: "k" }),
    run(facts({ state: "submitting", pending: "cancel" }), { type: "rejected", messages: ["Нет товара"] }),
    run(sending, { type: "rejected", messages: ["Нет товара"] }),
    run(sending, {
      type: "submission_failed",
      failure: { kind: "in_doubt", reason: "timeout", lookAt: later },
    }),
    run(facts({ state: "submitting", pending: "cancel" }), { type: "submission_failed", failure: transient }),
    run(sending, {
      type: "submission_failed",
      failure: { kind: "key_refused", reason: UNAUTHORIZED_REASON },
    }),
    run(sending, { type: "submission_failed", failure: refused }),
    run(sending, { type: "submission_failed", failure: transient }),
    run(facts({ state: "submitting", attempts: MAX_ATTEMPTS - 1 }), {
      type: "submission_failed",
      failure: transient,
    }),
    run(facts({ pending: "edit" }), { type: "edit_sent", sent: MAPPED }),
    run(facts({ pending: "cancel" }), { type: "cancel_sent" }),
    ...(["edit", "cancel"] as const).flatMap((change) => [
      run(facts({ pending: change }), { type: "change_failed", change, failure: refused }),
      run(facts({ pending: change }), { type: "change_failed", change, failure: transient }),
      run(facts({ pending: change, attempts: MAX_ATTEMPTS - 1 }), {
        type: "change_failed",
        change,
        failure: transient,
      }),
    ]),
    run(accepted, { type: "status_reported", report: report({ known: false, ttn: "20450000000001" }) }),
    run(facts({ ttn: "20450000000001" }), {
      type: "status_reported",
      report: report({ ttn: "20450000000002" }),
    }),
    ...(["picked", "shipped", "delivered", "cancelled_at_warehouse", "returned"] as const).map((stage) =>
      run(accepted, { type: "status_reported", report: report({ stage }) }),
    ),
    ...[null, "20450000000009"].map((ttn) =>
      run(accepted, {
        type: "return_booked",
        booked: { returnKey: "r", ttn, lines: [{ sku: "CUP", count: 2, defective: true }], units: 2 },
      }),
    ),
    told({}, { fulfilled: { fulfillmentId: "f", found: true, notified: false }, ttn: "20450000000001" }),
    told({}, { fulfilled: { fulfillmentId: "f", found: false, notified: true }, ttn: "20450000000001" }),
    told({}, { fulfilled: { fulfillmentId: "f", found: false, notified: false }, ttn: "20450000000001" }),
    told(
      {},
      {
        fulfilled: { fulfillmentId: "f", found: false, notified: true },
        ttn: "20450000000001",
        unshipped: [{ sku: "CUP-KARP-BLUE", title: "Чашка", quantity: 1 }],
      },
    ),
    told({ fulfillmentId: "f", fulfilledTtn: "20450000000001" }, { ttn: "20450000000002" }),
    ...shopifyStatuses.map((event) => told({ fulfillmentId: "f" }, { event })),
    ...[...FULFILLMENT_PROBLEMS, "no_carrier"].map((code) =>
      told({}, { problem: fulfillmentProblemOf(code) }),
    ),
    told({}, { problem: fulfillmentProblemOf("shopify_refused", { said: "Неприпустимий номер" }) }),
    told({ fulfillmentAttempts: MAX_ATTEMPTS - 1 }, { failure: { reason: "HTTP 502", retryAt: later } }),
    run(facts({ fulfillmentProblem: '{"code":"on_hold","message":"x"}' }), { type: "shopify_retry" }),
    foundAtWarehouse(lookedUp(), [{ id_order_FF: "FF-1", key_order: "k" }], now),
    foundAtWarehouse(lookedUp(), [{}, {}], now),
    foundAtWarehouse(lookedUp({ mapped: JSON.stringify({ changed: true }) }), [{ id_order_FF: "FF-1" }], now),
    foundAtWarehouse(lookedUp(), [{ id_order_FF: "FF-1" }], now),
    ...[
      { missesSoFar: 0, others: [] },
      { missesSoFar: 0, others: [{ record: {}, field: "TTN", theirs: "1", mine: "2" }] },
      { missesSoFar: 2, others: [] },
    ].flatMap((lookup) =>
      [lookedUp(), lookedUp({ pending: "cancel" })].map((row) =>
        notFoundAtWarehouse(
          row,
          {
            missBelievedAfterMs: 0,
            missesBeforeAttention: 3,
            lookupIntervalMs: 60_000,
            sentAt: at0,
            ...lookup,
          },
          now,
        ),
      ),
    ),
    lookUpFailed(lookedUp(), transient, now),
    lookUpFailed(lookedUp(), refused, now),
    // Routing (app/routing/): waiting for each reason, every hold reason, not the warehouse's, each way of
    // becoming the warehouse's, and the changes after sending.
    fromCreate({ result: okResult, cancelled: false, orderName: "#1005", now, waitForRouting: true }),
    ...(
      [
        { kind: "waiting", reason: "routing" },
        {
          kind: "waiting",
          reason: "on_hold",
          lines: [],
          holds: [...HOLD_REASONS, "SOMETHING_NEW"].map((reason) => ({
            id: "h",
            reason,
            heldByRequestingApp: false,
          })),
        },
        { kind: "waiting", reason: "scheduled", fulfillAt: later, lines: [] },
        { kind: "waiting", reason: "request", lines: [] },
        { kind: "elsewhere" },
      ] as RoutingDecision[]
    ).map((decision) => run(facts({ state: "ready" }), { type: "routed", decision, result: null })),
    ...[
      facts({ state: "waiting", waitReason: "routing" }),
      facts({ state: "waiting", waitReason: "routing", warehouseLines: null }),
      facts({ state: "waiting", waitReason: "on_hold" }),
      facts({ state: "waiting", waitReason: "scheduled" }),
      facts({ state: "elsewhere" }),
      facts({ state: "ready", warehouseLines: "[]" }),
    ].flatMap((row, i) =>
      [true, false].map((split) =>
        run(row, { type: "routed", decision: routedLines(split, i), result: okResult }),
      ),
    ),
    run(facts({ state: "accepted" }), { type: "routed", decision: { kind: "elsewhere" }, result: null }),
    run(facts({ state: "accepted" }), { type: "routed", decision: routedLines(true, 9), result: okResult }),
    run(facts({ state: "accepted", stage: "picked" }), {
      type: "routed",
      decision: { kind: "elsewhere" },
      result: null,
    }),
    run(facts({ state: "accepted", stage: "picked" }), {
      type: "routed",
      decision: routedLines(true, 9),
      result: okResult,
    }),
    // Fulfillment orders that failed to apply, time after time (app/routing/failures.server.ts).
    run(facts({ state: "waiting", waitReason: "routing" }), {
      type: "routing_failed",
      failure: "payload",
      attempts: 5,
    }),
    run(facts({ state: "ready" }), { type: "routing_failed", failure: "other", attempts: 5 }),
  ];
}

/** The Shopify hold reasons of the 2026-10 schema (FulfillmentHoldReason). */
const HOLD_REASONS = [
  "AWAITING_PAYMENT",
  "AWAITING_RETURN_ITEMS",
  "HIGH_RISK_OF_FRAUD",
  "INCORRECT_ADDRESS",
  "INVENTORY_OUT_OF_STOCK",
  "ONLINE_STORE_POST_PURCHASE_CROSS_SELL",
  "OTHER",
  "UNKNOWN_DELIVERY_DATE",
];

/** A decision of lines, each different (so the lines always change). */
const routedLines = (split: boolean, n: number): RoutingDecision => ({
  kind: "lines",
  split,
  fulfillmentOrderIds: ["gid://shopify/FulfillmentOrder/1"],
  lines: [
    {
      lineItemId: `gid://shopify/LineItem/${n}`,
      fulfillmentOrderId: "gid://shopify/FulfillmentOrder/1",
      quantity: 1,
    },
  ],
});
const at0 = new Date("2026-03-02T09:00:00Z");

/** The event kinds no code writes today (kept in EVENT for older rows and readers). */
const NEVER_WRITTEN = new Set<string>([EVENT.sent, EVENT.batchUnproven]);
/** The kinds written outside the order rules, by the services that write them (checked in the source). */
const WRITTEN_ELSEWHERE = new Set<string>([
  EVENT.corrected,
  EVENT.awaitingCards,
  EVENT.cardsAccepted,
  EVENT.cardsNotAwaited,
  EVENT.dataErased,
]);

let orderNumber = 7000;
async function anOrder(): Promise<OrderRow> {
  const n = ++orderNumber;
  const order = shopifyOrderSchema.parse({
    ...FIXTURE_ORDER,
    id: 6100000000000 + n,
    name: `#${n}`,
    order_number: n,
  });
  await takeInOrderWebhook(appContext(), { shop: SHOP, topic: "orders/create", order, eventId: `tw-${n}` });
  return db().warehouseOrder.findFirstOrThrow({ where: { shop: SHOP, shopifyOrderId: order.id } });
}

/** A text as each language says it; fails the test naming the key if it is English in Ukrainian. */
function said(text: Message) {
  return { key: text.key, uk: translate(uk.t, text), en: translate(en.t, text) };
}

describe("a Ukrainian merchant reads every timeline event and attention in Ukrainian", () => {
  it("for each event and attention the order rules write, stored and read back as the order page does", async () => {
    const transitions = everyTransition();
    const row = await anOrder();
    const entries: TimelineEntry[] = transitions.flatMap((each) => each.events);
    await recordEvents(
      db(),
      entries.map((entry) => ({ shop: SHOP, orderId: row.id, at: now, ...entry })),
    );
    const kinds = new Set(entries.map((entry) => entry.kind));
    const missing = Object.values(EVENT).filter(
      (kind) => !kinds.has(kind) && !NEVER_WRITTEN.has(kind) && !WRITTEN_ELSEWHERE.has(kind),
    );
    expect(missing).toEqual([]);

    // The timeline page by page, as the order page turns them.
    const texts: { kind: string; key: string; uk: string; en: string }[] = [];
    let eventsBefore: string | undefined;
    do {
      const page = await orderDetail(db(), SHOP, row.id, eventsBefore ? { eventsBefore } : {});
      for (const event of page!.events)
        texts.push(...event.texts.map((text) => ({ kind: event.kind, ...said(text) })));
      eventsBefore = page!.olderEvents ?? undefined;
    } while (eventsBefore);
    // Each attention the rules set, as the banner reads it.
    const attentions = transitions.flatMap((each) =>
      each.patch.attentionMessage ? [each.patch.attentionMessage] : [],
    );
    expect(attentions.length).toBeGreaterThanOrEqual(10);
    for (const stored of attentions) {
      await db().warehouseOrder.update({ where: { id: row.id }, data: { attentionMessage: stored } });
      const page = await orderDetail(db(), SHOP, row.id, {});
      texts.push(...page!.attentionTexts.map((text) => ({ kind: "attention", ...said(text) })));
    }
    expect(texts.length).toBeGreaterThan(80);
    // No English sentence inside a Ukrainian one either (four English words in a row make one).
    const english = texts.filter(
      (text) =>
        text.key === "common:text.stored" ||
        text.uk === text.en ||
        !uk.exists(text.key, { lng: "uk" }) ||
        /[A-Za-z]+(\s+[A-Za-z]+){3}/.test(text.uk),
    );
    expect(english).toEqual([]);
  });

  it("has a Ukrainian sentence for every fulfillment problem the Shopify side can meet", () => {
    for (const code of [...FULFILLMENT_PROBLEMS, "no_carrier", "shopify_refused"]) {
      const text = said(fulfillmentProblemOf(code, { said: "x" }).text);
      expect(text.uk, code).not.toBe(text.en);
      expect(uk.exists(text.key, { lng: "uk" }), code).toBe(true);
    }
  });
});

/** Every source file of the app. */
function appFiles(dir = join(ROOT, "app")): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return appFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("every writer of the timeline and the attention column", () => {
  // The compiler makes an event carry `text: Message`; this finds the other ways English could be stored.
  const files = appFiles().map((path) => {
    const source = readFileSync(path, "utf8");
    return {
      path: path.slice(ROOT.length + 1),
      tree: ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true),
    };
  });

  it("writes no words into the attention column, only texts made from keys", () => {
    const words: string[] = [];
    for (const { path, tree } of files) {
      const check = (value: ts.Expression) => {
        if (
          ts.isStringLiteral(value) ||
          ts.isTemplateExpression(value) ||
          ts.isNoSubstitutionTemplateLiteral(value)
        )
          words.push(`${path}: ${value.getText()}`);
      };
      const visit = (node: ts.Node) => {
        if (ts.isPropertyAssignment(node) && node.name.getText() === "attentionMessage")
          check(node.initializer);
        if (ts.isBinaryExpression(node) && /\battentionMessage$/.test(node.left.getText())) check(node.right);
        ts.forEachChild(node, visit);
      };
      visit(tree);
    }
    expect(words).toEqual([]);
  });

  it("names only sentences that exist in Ukrainian and differ from the English", () => {
    const keys = new Set<string>();
    for (const { tree } of files) {
      const visit = (node: ts.Node) => {
        if (
          ts.isCallExpression(node) &&
          /^(timelineText|said)$/.test(node.expression.getText()) &&
          node.arguments[0]
        ) {
          const literals = (arg: ts.Node): void => {
            if (ts.isStringLiteral(arg)) keys.add(`orders:timeline.${arg.text}`);
            else if (ts.isConditionalExpression(arg)) [arg.whenTrue, arg.whenFalse].forEach(literals);
            else if (ts.isParenthesizedExpression(arg)) literals(arg.expression);
          };
          literals(node.arguments[0]);
        }
        ts.forEachChild(node, visit);
      };
      visit(tree);
    }
    // The services outside the order rules: received from a later webhook, awaiting cards, corrected, …
    for (const key of [
      "receivedFromChange",
      "receivedFromCancellation",
      "workerStopped",
      "awaitingRefused",
      "awaitingCards",
      "cardsAccepted",
      "cardsNotAwaited",
      "dataErased",
      "erasedAfterDays",
    ])
      expect(keys).toContain(`orders:timeline.${key}`);
    const notUkrainian = [...keys].filter(
      (key) => !uk.exists(key, { lng: "uk" }) || translate(uk.t, { key }) === translate(en.t, { key }),
    );
    expect(notUkrainian).toEqual([]);
  });
});

describe("a correction made in the admin", () => {
  it("says each field corrected as a whole sentence of its own, in Ukrainian", async () => {
    const row = await anOrder();
    const answer = await correctOrder(appContext(), SHOP, row.id, {
      phone: "+380 67 123 45 67",
      postcode: "01001",
    });
    expect(answer.ok).toBe(true);
    const detail = await orderDetail(db(), SHOP, row.id, {});
    const corrected = detail!.events.find((event) => event.kind === EVENT.corrected)!;
    expect(corrected.texts.map((text) => translate(uk.t, text))).toEqual([
      "Телефон одержувача виправлено в адмінці.",
      "Поштовий індекс одержувача виправлено в адмінці.",
    ]);
    // Every field a correction can name has its sentence.
    for (const field of Object.keys(orderOverridesSchema.shape)) {
      const text = said(timelineText(`corrected.${field}`));
      expect(uk.exists(text.key, { lng: "uk" }), field).toBe(true);
      expect(text.uk, field).not.toBe(text.en);
    }
  });
});

describe("rows written before the texts were keys", () => {
  it("still show their English words, and an older held event its reasons in the admin's language", async () => {
    const row = await anOrder();
    const reasons = [
      { code: "recipient_missing", message: "No recipient.", text: { key: "holds:recipientMissing" } },
    ];
    await db().orderEvent.createMany({
      data: [
        {
          shop: SHOP,
          orderId: row.id,
          at: later,
          kind: "rejected",
          message: "The warehouse refused the order: Нет товара",
        },
        {
          shop: SHOP,
          orderId: row.id,
          at: later,
          kind: "held",
          message: "No recipient.",
          data: JSON.stringify(reasons),
        },
      ],
    });
    await db().warehouseOrder.update({
      where: { id: row.id },
      data: { attention: ATTENTION.editRefused, attentionMessage: "Заказ уже в работе" },
    });
    const detail = await orderDetail(db(), SHOP, row.id, {});
    const older = detail!.events.filter((event) => event.at.getTime() === later.getTime());
    expect(older.map((event) => event.texts.map((text) => translate(uk.t, text)))).toEqual(
      expect.arrayContaining([
        ["The warehouse refused the order: Нет товара"],
        [translate(uk.t, { key: "holds:recipientMissing" })],
      ]),
    );
    expect(detail!.attentionTexts.map((text) => translate(uk.t, text))).toEqual(["Заказ уже в работе"]);
  });
});

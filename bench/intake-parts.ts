// `npx tsx bench/intake-parts.ts`: what each step of an orders/create webhook costs in CPU, one at a time
// in this process on a fresh SQLite database, so that a cut can be priced before it is made. Each row is
// CPU ms per call (process.cpuUsage), the mean of BENCH_CALLS calls after a warm-up. Not a target.
import { createHmac, timingSafeEqual } from "node:crypto";
import { cpuMs } from "./floor";
import { prepareBenchEnvironment, round } from "./support";

const CALLS = Number(process.env.BENCH_CALLS ?? 300);
await prepareBenchEnvironment();
const { orderPayload, SHOP } = await import("../test/e2e/harness");
const { signedWebhookRequest } = await import("../test/support/webhooks");
const { appContext } = await import("../app/context.server");
const { saveSettings } = await import("../app/settings/settings.server");
const { takeInOrderWebhook } = await import("../app/orders/intake.server");
const { shopMapping } = await import("../app/settings/settings.server");
const { parseMapping } = await import("../app/orders/settings");
const { shopifyOrderSchema } = await import("../app/orders/payload");
const { mapOrder, idOrderFor } = await import("../app/orders/mapping");
const { insertRows } = await import("../app/db.server");
const { authenticate, sessionStorage } = await import("../app/shopify.server");
const { shopifyApi } = await import("@shopify/shopify-api");
const { apiVersion } = await import("../app/shopify.server");
const { API_SECRET_KEY } = await import("@shopify/shopify-api/test-helpers");
const { randomUUID } = await import("node:crypto");

// The library's validation on its own, as the app's configuration sets it up.
const api = shopifyApi({
  apiKey: process.env.SHOPIFY_API_KEY!,
  apiSecretKey: API_SECRET_KEY,
  apiVersion,
  hostName: "sklad-sync.test",
  isEmbeddedApp: true,
  logger: { level: 0 },
});
const context = appContext();
const { db } = context;
await db.shop.create({
  data: {
    shop: SHOP,
    name: "Київські товари",
    currencyCode: "UAH",
    ianaTimezone: "Europe/Kyiv",
    primaryLocale: "uk",
    scopes: "read_orders",
    installedAt: new Date(Date.now() - 3600_000),
  },
});
await saveSettings(context, SHOP, {
  apiKey: "k",
  environment: "production",
  batchAddOrder: true,
  mapping: {},
});
if (process.env.BENCH_SQLITE_SYNCHRONOUS)
  await db.$executeRawUnsafe(
    `PRAGMA synchronous = ${process.env.BENCH_SQLITE_SYNCHRONOUS.replace(/\W/g, "")}`,
  );
const [{ synchronous }] = await db.$queryRawUnsafe<[{ synchronous: number | bigint }]>("PRAGMA synchronous");

const rows: Record<string, number> = {};
async function price(name: string, step: (i: number) => Promise<unknown> | unknown, calls = CALLS) {
  for (let i = 0; i < 30; i++) await step(1_000_000 + i);
  const before = cpuMs();
  for (let i = 0; i < calls; i++) await step(i);
  rows[name] = round((cpuMs() - before) / calls, 3);
}
let n = 0;
const body = () => JSON.stringify(orderPayload(500_000 + n++));
const request = (payload = orderPayload(600_000 + n++)) =>
  signedWebhookRequest({ topic: "orders/create", shop: SHOP, payload });

const order = shopifyOrderSchema.parse(orderPayload(1));
const settings = (await shopMapping(db, SHOP)).mapping;
await price("hmac (node:crypto, verify)", () => {
  const text = body();
  const signature = createHmac("sha256", API_SECRET_KEY).update(text).digest();
  return timingSafeEqual(signature, createHmac("sha256", API_SECRET_KEY).update(text).digest());
});
await price("JSON.stringify+parse of the body", () => JSON.parse(body()));
await price("zod shopifyOrderSchema", () => shopifyOrderSchema.parse(orderPayload(2)));
await price("mapOrder", () => mapOrder({ order, settings, idOrder: idOrderFor(order, settings) }));
await price("new Request (signed, as the route gets it)", () => request());
await price("library: webhooks.validate (HMAC, headers)", async () => {
  const r = request();
  return api.webhooks.validate({ rawBody: await r.text(), rawRequest: r });
});
await price("library: authenticate.webhook (validate + session lookup)", () =>
  authenticate.webhook(request()),
);
await price("library: sessionStorage.loadSession (a miss)", () =>
  sessionStorage.loadSession(`offline_${SHOP}`),
);
await price("shopMapping (Prisma findUnique + parseMapping)", () => shopMapping(db, SHOP));
await price("parseMapping alone (zod of the stored mapping)", () => parseMapping("{}"));
await price("Prisma $queryRaw SELECT 1", () => db.$queryRaw`SELECT 1`);

const orderRow = (id: string, i: number) => ({
  id,
  shop: SHOP,
  shopifyOrderId: String(8_000_000 + i),
  orderName: `#${i}`,
  customerId: null,
  idOrder: `x${i}`,
  state: "ready",
  orderCreatedAt: new Date(),
  orderUpdatedAt: new Date(),
  cancelledAt: null,
  mapped: "{}",
  holdReasons: null,
  nextAttemptAt: new Date(),
  createdAt: new Date(),
  updatedAt: new Date(),
});
let k = 0;
const writes = (i: number, id: string) => [
  insertRows(db, "WarehouseOrder", [orderRow(id, i)]),
  insertRows(db, "OrderPayload", [{ orderId: id, shop: SHOP, payload: body() }]),
  insertRows(db, "OrderEvent", [
    { id: randomUUID(), shop: SHOP, orderId: id, at: new Date(), kind: "received", message: "m", data: null },
    { id: randomUUID(), shop: SHOP, orderId: id, at: new Date(), kind: "ready", message: "m", data: "{}" },
  ]),
  insertRows(db, "WebhookEvent", [
    { shop: SHOP, eventId: randomUUID(), topic: "orders/create", receivedAt: new Date() },
  ]),
];
await price("createOrder's commit: Prisma $transaction of 4 insertRows", () =>
  db.$transaction(writes(k++, randomUUID())),
);
// The same four statements straight through the driver, on a second connection to the same file: the
// app's copy of @libsql/client (another SQLite build on the same file failed with "file is not a database").
const { SingleConnectionLibSQL } = await import("../app/db/libsql.server");
const directUrl = process.env.DATABASE_URL!;
const direct = new SingleConnectionLibSQL({ url: directUrl }).createClient({ url: directUrl });
await direct.execute(`PRAGMA synchronous = ${Number(synchronous)}`);
await price("the same 4 inserts through @libsql/client, one batch", async () => {
  const i = k++;
  const id = randomUUID();
  const values = (row: Record<string, unknown>) =>
    Object.values(row).map((v) =>
      v instanceof Date ? v.toISOString().replace("Z", "+00:00") : v,
    ) as never[];
  const statement = (table: string, row: Record<string, unknown>) => ({
    sql: `INSERT INTO "${table}" (${Object.keys(row)
      .map((c) => `"${c}"`)
      .join(", ")}) VALUES (${Object.keys(row)
      .map(() => "?")
      .join(", ")})`,
    args: values(row),
  });
  await direct.batch(
    [
      statement("WarehouseOrder", orderRow(id, i)),
      statement("OrderPayload", { orderId: id, shop: SHOP, payload: body() }),
      statement("OrderEvent", {
        id: randomUUID(),
        shop: SHOP,
        orderId: id,
        at: new Date(),
        kind: "received",
        message: "m",
        data: null,
      }),
      statement("OrderEvent", {
        id: randomUUID(),
        shop: SHOP,
        orderId: id,
        at: new Date(),
        kind: "ready",
        message: "m",
        data: "{}",
      }),
      statement("WebhookEvent", {
        shop: SHOP,
        eventId: randomUUID(),
        topic: "orders/create",
        receivedAt: Date.now(),
      }),
    ],
    "write",
  );
});
direct.close();

// The same commit through Prisma's driver adapter (its lock, its transaction, its argument mapping) without
// Prisma's query engine: what a direct-write helper on the app's adapter would cost.
const adapter = await new SingleConnectionLibSQL({ url: process.env.DATABASE_URL! }).connect();
await adapter.executeRaw({ sql: `PRAGMA synchronous = ${Number(synchronous)}`, args: [], argTypes: [] });
const adapterInsert = (table: string, row: Record<string, unknown>) => {
  const columns = Object.keys(row);
  return {
    sql: `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    args: Object.values(row),
    argTypes: columns.map(() => ({ scalarType: "unknown", arity: "scalar" })),
  } as unknown as Parameters<typeof adapter.executeRaw>[0];
};
async function adapterCommit(rows: [string, Record<string, unknown>][]) {
  const tx = await adapter.startTransaction();
  try {
    for (const [table, row] of rows) await tx.executeRaw(adapterInsert(table, row));
    await tx.commit();
  } catch (error) {
    await tx.rollback();
    throw error;
  }
}
await price("the same 4 inserts through the driver adapter's transaction", () => {
  const i = k++;
  const id = randomUUID();
  return adapterCommit([
    ["WarehouseOrder", orderRow(id, i)],
    ["OrderPayload", { orderId: id, shop: SHOP, payload: body() }],
    [
      "OrderEvent",
      {
        id: randomUUID(),
        shop: SHOP,
        orderId: id,
        at: new Date(),
        kind: "received",
        message: "m",
        data: null,
      },
    ],
    [
      "OrderEvent",
      { id: randomUUID(), shop: SHOP, orderId: id, at: new Date(), kind: "ready", message: "m", data: "{}" },
    ],
    ["WebhookEvent", { shop: SHOP, eventId: randomUUID(), topic: "orders/create", receivedAt: new Date() }],
  ]);
});
await price("takeInOrderWebhook (settings read, map, commit)", () =>
  takeInOrderWebhook(context, {
    shop: SHOP,
    topic: "orders/create",
    eventId: randomUUID(),
    order: shopifyOrderSchema.parse(orderPayload(700_000 + k++)),
  }),
);
const { action } = await import("../app/routes/webhooks.orders.create");
await price("the route's action, from a signed Request", () =>
  action({ request: request(orderPayload(800_000 + k++)), params: {}, context: {} }),
);

await adapter.dispose();
console.log(`synchronous=${Number(synchronous)}`);
for (const [name, ms] of Object.entries(rows)) console.log(String(ms).padStart(8), name);
console.log(
  JSON.stringify({ benchmark: "intake-parts", synchronous: Number(synchronous), cpuMsPerCall: rows }),
);
process.exit(0);

// bench:intake's BENCH_PROTOTYPE=1: the orders/create route with the cuts the profile points to, to price
// them together in the full benchmark before they are made in the app. Not the app's code: it takes only
// the new-order path (every bench order is new) and refuses anything else.
// The cuts: the signature checked without loading the offline session (app/webhooks/signature.server.ts),
// the shop's mapping cached (app/settings/mapping-cache.server.ts), and the order's one commit written
// through Prisma's driver adapter (its lock and transaction) without Prisma's query engine.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PrismaClient } from "@prisma/client";
import { SingleConnectionLibSQL } from "../app/db/libsql.server";
import { sendResponse, toRequest } from "../test/support/app-server";

type Adapter = Awaited<ReturnType<SingleConnectionLibSQL["connect"]>>;
type SqlQuery = Parameters<Adapter["executeRaw"]>[0];

let connected: Adapter | undefined;

/** The app's adapter, remembered when Prisma connects, so the prototype writes on the app's connection. */
class RememberingLibSQL extends SingleConnectionLibSQL {
  override async connect() {
    connected = await super.connect();
    return connected;
  }
}

/** Installs the app's database with an adapter the prototype can reach; before anything else asks for it. */
export async function installPrototypeDb(): Promise<void> {
  const { env } = await import("../app/env.server");
  const { createLogger } = await import("../app/logger.server");
  globalThis.skladSyncContext = {
    db: new PrismaClient({ adapter: new RememberingLibSQL({ url: env().DATABASE_URL }) }),
    log: createLogger({ level: env().LOG_LEVEL }),
    clock: () => new Date(),
  };
}

function insert(table: string, row: Record<string, unknown>): SqlQuery {
  const columns = Object.keys(row);
  return {
    sql: `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    args: Object.values(row),
    argTypes: columns.map(() => ({ scalarType: "unknown", arity: "scalar" })),
  } as unknown as SqlQuery;
}

/** Starts an HTTP server answering orders/create with the prototype; its URL takes the load. */
export async function startPrototypeServer(secret: string) {
  const { appContext } = await import("../app/context.server");
  const { checkWebhookSignature } = await import("../app/webhooks/signature.server");
  const { createMappingCache } = await import("../app/settings/mapping-cache.server");
  const { shopMapping } = await import("../app/settings/settings.server");
  const { customerIdOf, shopifyOrderSchema } = await import("../app/orders/payload");
  const { mapOrder, idOrderFor } = await import("../app/orders/mapping");
  const { wakeWorker } = await import("../app/work/worker.server");
  const { newEventId } = await import("../app/orders/timeline.server");
  const { db } = appContext();
  await db.$queryRaw`SELECT 1`;
  if (!connected)
    throw new Error("the prototype needs installPrototypeDb() before the app's database is used");
  const adapter = connected;
  const mappings = createMappingCache();

  async function action(request: Request): Promise<Response> {
    const raw = await request.text();
    const check = checkWebhookSignature(raw, request.headers, secret);
    if (!check.ok) return new Response(null, { status: check.status });
    const parsed = shopifyOrderSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return new Response(null, { status: 400 });
    const order = parsed.data;
    const { shop } = check;
    const settings = (await mappings.get(shop, () => shopMapping(db, shop))).mapping;
    const idOrder = idOrderFor(order, settings);
    const result = mapOrder({ order, settings, idOrder });
    const now = new Date();
    const id = randomUUID();
    const tx = await adapter.startTransaction();
    try {
      for (const query of [
        insert("WarehouseOrder", {
          id,
          shop,
          shopifyOrderId: order.id,
          orderName: order.name,
          customerId: customerIdOf(order),
          idOrder,
          state: result.ok ? "ready" : "held",
          orderCreatedAt: new Date(order.created_at),
          orderUpdatedAt: new Date(order.updated_at ?? order.created_at),
          cancelledAt: null,
          mapped: result.ok ? JSON.stringify(result.order) : null,
          holdReasons: result.ok ? null : JSON.stringify(result.hold),
          nextAttemptAt: result.ok ? now : null,
          createdAt: now,
          updatedAt: now,
        }),
        insert("OrderPayload", { orderId: id, shop, payload: JSON.stringify(order) }),
        insert("OrderEvent", {
          id: newEventId(),
          shop,
          orderId: id,
          at: now,
          kind: "received",
          message: `Order ${order.name} received from Shopify.`,
          data: null,
        }),
        insert("OrderEvent", {
          id: newEventId(),
          shop,
          orderId: id,
          at: now,
          kind: result.ok ? "ready" : "held",
          message: "Mapped; waiting to be sent.",
          data: JSON.stringify(result.ok ? result.order : result.hold),
        }),
        insert("WebhookEvent", {
          shop,
          eventId: check.eventId ?? check.webhookId,
          topic: check.topic,
          receivedAt: now,
        }),
      ])
        await tx.executeRaw(query);
      await tx.commit();
    } catch (error) {
      await tx.rollback();
      throw error;
    }
    wakeWorker(shop);
    return new Response(null, { status: 200 });
  }

  let origin = "";
  const server = createServer((req, res) => {
    void action(toRequest(req, res, origin))
      .catch((error: unknown) => new Response(String(error), { status: 500 }))
      .then((response) => sendResponse(response, res));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

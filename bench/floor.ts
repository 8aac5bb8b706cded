// The least an order can cost, measured in the benchmarked process so that it drifts with the machine as
// the app's own cost does. Two measures:
// - `startHttpFloor` (the floor bench:intake's costRatio divides by): a bare `node:http` server in the
//   same process, receiving the same signed orders/create requests over keep-alive from the same load
//   generator as the app; its handler reads the body, verifies the HMAC, JSON.parse, the zod order
//   schema, the mapping, and one plain autocommitted INSERT of the order row through the SQLite driver
//   (@libsql/client, no Prisma), then answers 200. The least any server pays for an order.
// - `measureFloor` (the floor before issue 25, printed as `floorNoHttpMsPerOrder` for continuity): the
//   same steps called in a loop, without HTTP.
// CPU time (process.cpuUsage), not wall time, so other processes on the machine do not count.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SingleConnectionLibSQL } from "../app/db/libsql.server";

/** CPU milliseconds (user + system) this process has used. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * A fresh SQLite file holding the app's WarehouseOrder table (`ddl`: the table, then its indexes), opened
 * with the journal mode and `synchronous` the app's connection reports, so the insert pays what the app's
 * pays for the same row. The driver is the app's own copy of @libsql/client (the one Prisma's adapter
 * brings): the project has two, on different SQLite builds, and they must not share a database file.
 */
async function floorTable(ddl: readonly string[], synchronous: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "sklad-floor-"));
  const url = `file:${path.join(dir, "floor.sqlite")}`;
  const client = new SingleConnectionLibSQL({ url }).createClient({ url });
  await client.execute("PRAGMA journal_mode = WAL");
  await client.execute(`PRAGMA synchronous = ${synchronous}`);
  for (const statement of ddl) await client.execute(statement);
  return client;
}

/** Dates as the app's driver adapter writes them (ISO 8601), so the row is the same size. */
const iso = (date: Date) => date.toISOString().replace("Z", "+00:00");

/** The order row the floor inserts: the app's columns for a ready order. */
function floorRow(
  shop: string,
  order: { id: string; name: string; created_at: string; updated_at?: string | null },
  customerId: string | null,
  idOrder: string,
  mapped: unknown,
) {
  const now = new Date();
  return {
    id: randomUUID(),
    shop,
    shopifyOrderId: order.id,
    orderName: order.name,
    customerId,
    idOrder,
    state: "ready",
    orderCreatedAt: iso(new Date(order.created_at)),
    orderUpdatedAt: iso(new Date(order.updated_at ?? order.created_at)),
    mapped: JSON.stringify(mapped),
    nextAttemptAt: iso(now),
    createdAt: iso(now),
    updatedAt: iso(now),
  };
}

function insertSql(row: Record<string, unknown>) {
  const columns = Object.keys(row);
  return `INSERT INTO "WarehouseOrder" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
}

/**
 * The HTTP floor: a bare `node:http` server on loopback (keep-alive as the app's), whose handler does for
 * each signed request what no order server can skip, and nothing else. Its CPU is measured by the caller
 * over a load sent by the same generator as the app's load.
 */
export async function startHttpFloor(
  input: Omit<FloorInput, "body" | "shop">,
): Promise<{ url: string; answered: () => number; close: () => Promise<void> }> {
  const { shopifyOrderSchema, customerIdOf } = await import("../app/orders/payload");
  const { mapOrder, idOrderFor } = await import("../app/orders/mapping");
  const { DEFAULT_ORDER_SETTINGS } = await import("../app/orders/settings");
  const client = await floorTable(input.ddl, input.synchronous);
  const settings = DEFAULT_ORDER_SETTINGS;
  let answered = 0;
  const handle = async (body: Buffer, signature: string, shop: string): Promise<number> => {
    const check = createHmac("sha256", input.secret).update(body).digest();
    const given = Buffer.from(signature, "base64");
    if (given.length !== check.length || !timingSafeEqual(check, given)) return 401;
    const order = shopifyOrderSchema.parse(JSON.parse(body.toString("utf8")));
    const idOrder = idOrderFor(order, settings);
    const result = mapOrder({ order, settings, idOrder });
    if (!result.ok) return 422;
    const row = floorRow(shop, order, customerIdOf(order), idOrder, result.order);
    await client.execute({ sql: insertSql(row), args: Object.values(row) });
    return 200;
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      handle(
        Buffer.concat(chunks),
        String(req.headers["x-shopify-hmac-sha256"] ?? ""),
        String(req.headers["x-shopify-shop-domain"] ?? ""),
      )
        .catch(() => 500)
        .then((status) => {
          if (status === 200) answered++;
          res.writeHead(status).end();
        });
    });
  });
  // As the app's servers: longer than the client's idle keep-alive.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered: () => answered,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          client.close();
          resolve();
        });
      }),
  };
}

export interface FloorInput {
  /** The app's CREATE statements of WarehouseOrder and its indexes, the table first. */
  ddl: readonly string[];
  /** The app connection's `PRAGMA synchronous` (0-3). */
  synchronous: number;
  secret: string;
  shop: string;
  /** Order `n`'s webhook body, as the load generator sends it. */
  body: (n: number) => string;
}

/** Measures the floor over `orders` orders after a warm-up; answers CPU ms an order (and its parts). */
export async function measureFloor(input: FloorInput, orders = 400) {
  const { shopifyOrderSchema, customerIdOf } = await import("../app/orders/payload");
  const { mapOrder, idOrderFor } = await import("../app/orders/mapping");
  const { DEFAULT_ORDER_SETTINGS } = await import("../app/orders/settings");
  const client = await floorTable(input.ddl, input.synchronous);
  const settings = DEFAULT_ORDER_SETTINGS;
  const parts = { hmac: 0, json: 0, zod: 0, mapping: 0, insert: 0 };
  const one = async (n: number, timed: boolean) => {
    const body = input.body(n);
    const signature = createHmac("sha256", input.secret).update(body, "utf8").digest("base64");
    let t = cpuMs();
    const mark = (part: keyof typeof parts) => {
      const now = cpuMs();
      if (timed) parts[part] += now - t;
      t = now;
    };
    const check = createHmac("sha256", input.secret).update(body, "utf8").digest();
    if (!timingSafeEqual(check, Buffer.from(signature, "base64"))) throw new Error("floor: bad HMAC");
    mark("hmac");
    const json = JSON.parse(body) as unknown;
    mark("json");
    const order = shopifyOrderSchema.parse(json);
    mark("zod");
    const idOrder = idOrderFor(order, settings);
    const result = mapOrder({ order, settings, idOrder });
    if (!result.ok) throw new Error(`floor: the bench order does not map: ${JSON.stringify(result.hold)}`);
    mark("mapping");
    const row = floorRow(input.shop, order, customerIdOf(order), idOrder, result.order);
    await client.execute({ sql: insertSql(row), args: Object.values(row) });
    mark("insert");
  };
  // Long enough for the JIT: with 50 the first measurement ran up to twice the second.
  for (let i = 0; i < 300; i++) await one(900_000 + i, false);
  for (let i = 0; i < orders; i++) await one(910_000 + i, true);
  client.close();
  const per = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v / orders])) as typeof parts;
  return { msPerOrder: Object.values(per).reduce((a, b) => a + b, 0), parts: per };
}

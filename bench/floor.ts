// The least an order can cost, measured in the benchmarked process so that it drifts with the machine as
// the app's own cost does: HMAC of the body, JSON.parse, the zod order schema, the mapping, and one plain
// INSERT of the order row through the SQLite driver (@libsql/client, no Prisma), autocommitted. CPU time
// (process.cpuUsage), not wall time, so other processes on the machine do not count.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
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
    const now = new Date();
    // Dates as the app's driver adapter writes them (ISO 8601), so the row is the same size.
    const iso = (date: Date) => date.toISOString().replace("Z", "+00:00");
    const row = {
      id: randomUUID(),
      shop: input.shop,
      shopifyOrderId: order.id,
      orderName: order.name,
      customerId: customerIdOf(order),
      idOrder,
      state: "ready",
      orderCreatedAt: iso(new Date(order.created_at)),
      orderUpdatedAt: iso(new Date(order.updated_at ?? order.created_at)),
      mapped: JSON.stringify(result.order),
      nextAttemptAt: iso(now),
      createdAt: iso(now),
      updatedAt: iso(now),
    };
    const columns = Object.keys(row);
    await client.execute({
      sql: `INSERT INTO "WarehouseOrder" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      args: Object.values(row),
    });
    mark("insert");
  };
  // Long enough for the JIT: with 50 the first measurement ran up to twice the second.
  for (let i = 0; i < 300; i++) await one(900_000 + i, false);
  for (let i = 0; i < orders; i++) await one(910_000 + i, true);
  client.close();
  const per = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v / orders])) as typeof parts;
  return { msPerOrder: Object.values(per).reduce((a, b) => a + b, 0), parts: per };
}

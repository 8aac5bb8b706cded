// Migrations that move data keep it: each is applied, with the ones before it, to a database that
// already holds rows, as a deployed app's database would.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.resolve("prisma/migrations/sqlite");
const migrations = readdirSync(MIGRATIONS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

async function migratedUpTo(last: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "sklad-migrations-"));
  const client = createClient({ url: `file:${path.join(dir, "db.sqlite")}` });
  const apply = async (name: string) =>
    client.executeMultiple(readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8"));
  for (const name of migrations.slice(0, migrations.indexOf(last) + 1)) await apply(name);
  return { client, apply };
}

describe("SQLite migrations", () => {
  it("order_payloads moves each order's Shopify payload to OrderPayload and keeps the order", async () => {
    const before = migrations[migrations.indexOf("20261122180000_order_payloads") - 1]!;
    const { client, apply } = await migratedUpTo(before);
    await client.execute({
      sql: `INSERT INTO "WarehouseOrder" ("id", "shop", "shopifyOrderId", "orderName", "idOrder", "state",
        "payload", "orderUpdatedAt", "orderCreatedAt", "updatedAt", "sentOrder")
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: ["o1", "s.myshopify.com", "1001", "#1001", "1001", "accepted", '{"id":"1001"}', 1, 1, 1, "{}"],
    });
    await client.execute({
      sql: `INSERT INTO "OrderEvent" ("id", "shop", "orderId", "at", "kind", "message") VALUES (?, ?, ?, ?, ?, ?)`,
      args: ["e1", "s.myshopify.com", "o1", 1, "received", "Order #1001 received from Shopify."],
    });

    await apply("20261122180000_order_payloads");

    const payloads = await client.execute(`SELECT "orderId", "shop", "payload" FROM "OrderPayload"`);
    expect(payloads.rows.map((row) => ({ ...row }))).toEqual([
      { orderId: "o1", shop: "s.myshopify.com", payload: '{"id":"1001"}' },
    ]);
    const order = await client.execute(`SELECT * FROM "WarehouseOrder"`);
    expect(order.columns).not.toContain("payload");
    expect(order.rows[0]).toMatchObject({ id: "o1", state: "accepted", sentOrder: "{}" });
    // The order's timeline survived the table's rebuild.
    const events = await client.execute(`SELECT "id" FROM "OrderEvent" WHERE "orderId" = 'o1'`);
    expect(events.rows).toHaveLength(1);
    client.close();
  });
});

// Plain SQL given to the driver (app/db/sql.server.ts), on both databases: it commits and rolls back as a
// whole, a unique constraint's refusal reads as one, values come back as written, and on SQLite it waits
// for a Prisma transaction open on the same connection instead of running inside it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { createDb, isUniqueViolation } from "../../app/db.server";
import { databaseFlavour } from "../../app/db/flavour";
import { insertStatement, sqlTransaction } from "../../app/db/sql.server";

const onSqlite = databaseFlavour(process.env.DATABASE_URL ?? "file:") === "sqlite";
const SHOP = "sql.myshopify.com";
const event = (eventId: string, receivedAt = new Date("2026-03-02T10:00:00.123Z")) => ({
  shop: SHOP,
  eventId,
  topic: "orders/create",
  receivedAt,
});
const insert = (...rows: ReturnType<typeof event>[]) => insertStatement("WebhookEvent", rows);
const ids = async () =>
  (await appContext().db.webhookEvent.findMany({ where: { shop: SHOP }, orderBy: { eventId: "asc" } })).map(
    (row) => row.eventId,
  );

describe("a plain-SQL transaction", () => {
  it("commits its statements together, with dates Prisma reads back as written", async () => {
    const { db } = appContext();
    const answer = await sqlTransaction(db, async (tx) => {
      const { sql, args } = insert(event("a"), event("b"));
      return tx.execute(sql, args);
    });
    expect(answer).toBe(2);
    expect(await ids()).toEqual(["a", "b"]);
    const row = await db.webhookEvent.findUniqueOrThrow({
      where: { shop_eventId: { shop: SHOP, eventId: "a" } },
    });
    expect(row.receivedAt.toISOString()).toBe("2026-03-02T10:00:00.123Z");
    const read = await sqlTransaction(db, (tx) =>
      tx.query(`SELECT "eventId", "topic" FROM "WebhookEvent" WHERE "shop" = ? ORDER BY "eventId"`, [SHOP]),
    );
    expect(read).toEqual([
      { eventId: "a", topic: "orders/create" },
      { eventId: "b", topic: "orders/create" },
    ]);
  });

  it("rolls back as a whole when a statement fails, and the refusal reads as a unique violation", async () => {
    const { db } = appContext();
    await sqlTransaction(db, async (tx) => {
      const { sql, args } = insert(event("a"));
      await tx.execute(sql, args);
    });
    const failure = await sqlTransaction(db, async (tx) => {
      for (const { sql, args } of [insert(event("c")), insert(event("a"))]) await tx.execute(sql, args);
    }).catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    expect(await ids()).toEqual(["a"]);
  });

  it("rolls back when the work throws", async () => {
    const { db } = appContext();
    await expect(
      sqlTransaction(db, async (tx) => {
        const { sql, args } = insert(event("d"));
        await tx.execute(sql, args);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await ids()).toEqual([]);
  });

  it.runIf(onSqlite)(
    "waits for a Prisma transaction open on the connection, then sees its work",
    async () => {
      const { db } = appContext();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let prismaCommitted = false;
      const prisma = db.$transaction(async (tx) => {
        await tx.webhookEvent.create({ data: event("p") });
        await held;
        prismaCommitted = true;
      });
      // Let Prisma's transaction begin before the plain one is asked for.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const plain = sqlTransaction(db, async (tx) => {
        const seen = await tx.query(`SELECT "eventId" FROM "WebhookEvent" WHERE "shop" = ?`, [SHOP]);
        return { committedFirst: prismaCommitted, seen: seen.map((row) => row.eventId) };
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      await prisma;
      expect(await plain).toEqual({ committedFirst: true, seen: ["p"] });
    },
  );

  it.runIf(onSqlite)("works as a fresh client's first statement", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "sklad-sql-")), "fresh.sqlite");
    const db = createDb(`file:${file}`);
    try {
      const rows = await sqlTransaction(db, (tx) => tx.query("SELECT 1 AS one"));
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await db.$disconnect();
    }
  });
});

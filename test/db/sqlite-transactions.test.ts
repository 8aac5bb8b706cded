// SQLite transactions and connections through the app's database client: they commit and roll back on the
// client's one connection (@libsql/client would hand its connection to each transaction and open a new one
// for the next query, leaving the old one open until garbage collection: a long run of orders ran out of
// file descriptors, SQLITE_CANTOPEN); the connection is set up by the app itself; a failed COMMIT does not
// leave it inside the transaction; and each transaction holds the write lock from its BEGIN.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { createDb } from "../../app/db.server";
import { databaseFlavour } from "../../app/db/flavour";
import { BUSY_TIMEOUT_MS } from "../../app/db/sqlite";

const onSqlite = databaseFlavour(process.env.DATABASE_URL ?? "file:") === "sqlite";
const event = (eventId: string) => ({
  shop: "tx.myshopify.com",
  eventId,
  topic: "t",
  receivedAt: new Date(),
});

describe.runIf(onSqlite)("SQLite transactions", () => {
  it("commit, and roll back as a whole when a statement fails", async () => {
    const { db } = appContext();
    await db.$transaction([
      db.webhookEvent.create({ data: event("a") }),
      db.webhookEvent.create({ data: event("b") }),
    ]);
    await expect(
      db.$transaction([
        db.webhookEvent.create({ data: event("c") }),
        db.webhookEvent.create({ data: event("a") }),
      ]),
    ).rejects.toMatchObject({ code: "P2002" });
    const rows = await db.webhookEvent.findMany({ orderBy: { eventId: "asc" } });
    expect(rows.map((row) => row.eventId)).toEqual(["a", "b"]);
  });

  it("run on the same connection as every other query, so none is left open behind them", async () => {
    const { db } = appContext();
    // A temporary table exists only on the connection that made it.
    await db.$executeRawUnsafe("CREATE TEMP TABLE connection_probe (x)");
    try {
      // Two statements: Prisma runs a batch of one without a transaction.
      await db.$transaction([
        db.webhookEvent.create({ data: event("x") }),
        db.webhookEvent.create({ data: event("y") }),
      ]);
      await expect(db.$queryRawUnsafe("SELECT count(*) AS n FROM connection_probe")).resolves.toHaveLength(1);
    } finally {
      await db.$executeRawUnsafe("DROP TABLE IF EXISTS temp.connection_probe");
    }
  });

  it("set up every connection the app opens: write-ahead log, busy timeout, synchronous=NORMAL", async () => {
    // A file `npm run setup` never saw: the app must not depend on it for these.
    const file = path.join(mkdtempSync(path.join(tmpdir(), "sklad-sqlite-")), "fresh.sqlite");
    const db = createDb(`file:${file}`);
    try {
      const pragma = async (name: string) =>
        Object.values((await db.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`))[0]!)[0];
      expect(await pragma("journal_mode")).toBe("wal");
      expect(Number(await pragma("busy_timeout"))).toBe(BUSY_TIMEOUT_MS);
      expect(Number(await pragma("synchronous"))).toBe(1); // NORMAL
    } finally {
      await db.$disconnect();
    }
  });

  it("roll back when COMMIT fails, and leave the connection free for the next transaction", async () => {
    const { db } = appContext();
    // A deferred foreign key is checked at COMMIT, which then fails and, in SQLite, leaves the
    // transaction open.
    await expect(
      db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("PRAGMA defer_foreign_keys = ON");
        await tx.webhookEvent.create({ data: event("kept-out") });
        await tx.$executeRawUnsafe(
          `INSERT INTO "OrderEvent" ("id", "shop", "orderId", "at", "kind", "message")
           VALUES ('e1', 'tx.myshopify.com', 'no-such-order', 0, 'k', 'm')`,
        );
      }),
    ).rejects.toThrow(/FOREIGN KEY/i);

    await db.$transaction([
      db.webhookEvent.create({ data: event("after") }),
      db.webhookEvent.create({ data: event("after-2") }),
    ]);
    const rows = await db.webhookEvent.findMany({ orderBy: { eventId: "asc" } });
    expect(rows.map((row) => row.eventId)).toEqual(["after", "after-2"]);
    expect(await db.orderEvent.count()).toBe(0);
  });

  it("take the write lock at BEGIN, before the transaction's first write", async () => {
    const { db } = appContext();
    // Another connection to the file that does not wait: it sees at once whether the lock is free. It must
    // come from the adapter's own copy of SQLite: two copies in one process do not see each other's locks.
    const url = process.env.DATABASE_URL!;
    const probe = new PrismaLibSQL({ url }).createClient({ url });
    try {
      await db.$transaction(
        async (tx) => {
          await tx.webhookEvent.count();
          let probed: unknown;
          try {
            await probe.execute("BEGIN IMMEDIATE");
            await probe.execute("ROLLBACK");
          } catch (error) {
            probed = error;
          }
          expect(String(probed)).toMatch(/SQLITE_BUSY|database is locked/);
        },
        { timeout: 30_000 },
      );
    } finally {
      probe.close();
    }
  });
});

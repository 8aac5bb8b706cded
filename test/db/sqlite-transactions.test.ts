// SQLite transactions through the app's database client: they commit and roll back on the client's one
// connection. @libsql/client would hand its connection to each transaction and open a new one for the
// next query, leaving the old one open until garbage collection (a long run of orders ran out of file
// descriptors: SQLITE_CANTOPEN).
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { databaseFlavour } from "../../app/db/flavour";

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
});

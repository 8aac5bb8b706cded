// Two processes on one SQLite file, as the web app and `npm run worker` or the CLI are: while one holds a
// write transaction open, the other's transaction waits for it and then succeeds, seeing what it wrote,
// instead of failing with SQLITE_BUSY.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { appContext } from "../../app/context.server";
import { databaseFlavour } from "../../app/db/flavour";

const onSqlite = databaseFlavour(process.env.DATABASE_URL ?? "file:") === "sqlite";

describe.runIf(onSqlite)("a second process on the SQLite file", () => {
  it("waits for the first's write transaction and then reads and writes after it", async () => {
    const { db } = appContext();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/db/second-process.ts", process.env.DATABASE_URL!],
      {
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const nextLine = async () => {
      const { value, done } = await lines.next();
      if (done) throw new Error("the second process ended without answering");
      return value as string;
    };
    try {
      expect(await nextLine()).toBe("ready");
      await db.$transaction(
        async (tx) => {
          await tx.webhookEvent.create({
            data: { shop: "first.myshopify.com", eventId: "first", topic: "t", receivedAt: new Date() },
          });
          child.stdin.write("write\n");
          // Gives the second process time to reach SQLite while this transaction is open. The test passes
          // however long this is; it only makes sure the old code, which failed at once, is caught.
          await new Promise((resolve) => setTimeout(resolve, 300));
        },
        { timeout: 30_000 },
      );
      // It waited for the commit above, so its read saw the first row before it wrote its own.
      expect(JSON.parse(await nextLine())).toEqual({ ok: true, seen: 1 });
      const rows = await db.webhookEvent.findMany({ orderBy: { eventId: "asc" } });
      expect(rows.map((row) => row.eventId)).toEqual(["first", "second"]);
    } finally {
      child.kill();
    }
    // Starting a second Node process with tsx and Prisma takes seconds on a busy machine.
  }, 60_000);
});

// A second process on the test's database file, as the worker or the CLI would be: opens the app's client,
// says "ready", and on "write" runs one transaction that reads and then writes, answering what happened as
// one JSON line. Run by test/db/sqlite-processes.test.ts.
import { createInterface } from "node:readline";
import { createDb } from "../../app/db.server";

const db = createDb(process.argv[2]!);
// Opens the connection and compiles Prisma's queries now, so that "write" reaches SQLite at once.
await db.webhookEvent.count();
console.log("ready");

for await (const line of createInterface({ input: process.stdin })) {
  if (line !== "write") continue;
  try {
    const seen = await db.$transaction(async (tx) => {
      const before = await tx.webhookEvent.count();
      await tx.webhookEvent.create({
        data: { shop: "second.myshopify.com", eventId: "second", topic: "t", receivedAt: new Date() },
      });
      return before;
    });
    console.log(JSON.stringify({ ok: true, seen }));
  } catch (error) {
    console.log(JSON.stringify({ ok: false, error: String(error) }));
  }
  break;
}
await db.$disconnect();

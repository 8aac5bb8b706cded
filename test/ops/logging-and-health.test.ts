import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createDb, healthResponse } from "../../app/db.server";
import { createLogger } from "../../app/logger.server";
import { loader as healthz } from "../../app/routes/healthz";

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, log: createLogger({ level: "info", destination }) };
}

describe("logging", () => {
  it("writes one JSON object per line, carrying the shop and context of a child logger", () => {
    const { lines, log } = capture();
    log.child({ shop: "a.myshopify.com", orderId: "42" }).info({ event: "order.submitted" }, "sent");
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: "info",
      shop: "a.myshopify.com",
      orderId: "42",
      msg: "sent",
      app: "sklad-sync",
    });
    expect(typeof entry.time).toBe("string");
  });

  it("never writes secrets, at any depth", () => {
    const { lines, log } = capture();
    log.info({
      accessToken: "shpat_top",
      session: { accessToken: "shpat_nested", shop: "a" },
      request: { headers: { "x-shopify-access-token": "shpat_header" }, body: { ApiKey: "warehouse-key" } },
      password: "hunter2",
    });
    expect(lines[0]).not.toMatch(/shpat_|warehouse-key|hunter2/);
    expect(lines[0]).toContain("[redacted]");
  });
});

describe("/healthz", () => {
  it("answers 200 when the database answers", async () => {
    const response = await healthz();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("answers 503 when the database does not", async () => {
    const unreachable = createDb("postgresql://nobody@127.0.0.1:1/none");
    const response = await healthResponse(unreachable);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: "degraded", database: "unreachable" });
    await unreachable.$disconnect();
  });
});

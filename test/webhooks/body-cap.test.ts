// The production server's body cap (body-cap.js, mounted in server.js) in front of a handler that reads
// the body as Remix's Express adapter does, over loopback HTTP: declared, chunked and in-limit bodies.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import { capRequestBodies, MAX_REQUEST_BYTES } from "../../body-cap.js";
import { MAX_WEBHOOK_BYTES } from "../../app/webhooks/receive.server";

const CAP = 256 * 1024;
const CHUNK = Buffer.alloc(16 * 1024, "x");

let server: Server | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

/** What the handler behind the cap saw: whether it ran, how many bytes it read, and how its read ended. */
interface Seen {
  called: boolean;
  bytes: number;
  outcome?: "complete" | "failed";
}

async function startCappedServer(seen: Seen): Promise<string> {
  const cap = capRequestBodies(CAP);
  // As Express runs it: the middleware, whose next() calls the handler at once.
  server = createServer((req, res) =>
    cap(req, res, async () => {
      seen.called = true;
      // As @remix-run/express builds the Fetch request's body: synchronously, in the handler.
      const reader = createReadableStreamFromReadable(req).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          seen.bytes += value.byteLength;
        }
        seen.outcome = "complete";
        res.writeHead(200).end();
      } catch {
        seen.outcome = "failed";
        // Remix would try to answer a 500 here; the cap has answered already.
      }
    }),
  );
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/webhooks/orders/create`;
}

/** Sends `total` bytes in chunks (chunked unless a length is declared); answers the status or the error. */
function send(url: string, total: number, declared?: number): Promise<number | string> {
  return new Promise((resolve) => {
    const headers =
      declared === undefined ? { "transfer-encoding": "chunked" } : { "content-length": declared };
    const request = httpRequest(url, { method: "POST", headers });
    let settled = false;
    const settle = (value: number | string) => {
      if (!settled) resolve(value);
      settled = true;
    };
    request.on("response", (response) => {
      response.resume();
      settle(response.statusCode!);
    });
    request.on("error", (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    let sent = 0;
    const pump = () => {
      while (!settled && sent < total) {
        sent += CHUNK.length;
        if (!request.write(CHUNK)) return void request.once("drain", pump);
      }
      if (!settled) request.end();
    };
    pump();
  });
}

describe("the server's body cap", () => {
  it("sits a little above the webhook limit, so webhook routes answer their own 413 first", () => {
    expect(MAX_REQUEST_BYTES).toBeGreaterThan(MAX_WEBHOOK_BYTES);
    expect(MAX_REQUEST_BYTES).toBeLessThanOrEqual(2 * MAX_WEBHOOK_BYTES);
  });

  it("refuses a declared length over the cap with 413, without calling the handler", async () => {
    const seen: Seen = { called: false, bytes: 0 };
    const url = await startCappedServer(seen);
    expect(await send(url, 2 * CHUNK.length, 4 * CAP)).toBe(413);
    expect(seen.called).toBe(false);
  });

  it("cuts off a chunked body as it passes the cap: the handler's read fails, having read no more than the cap", async () => {
    const seen: Seen = { called: false, bytes: 0 };
    const url = await startCappedServer(seen);
    const answer = await send(url, 64 * CAP);
    // The 413 is written before the connection is dropped; a sender still writing may see the reset first.
    expect([413, "ECONNRESET", "EPIPE"]).toContain(answer);
    await expect.poll(() => seen.outcome).toBe("failed");
    expect(seen.bytes).toBeLessThanOrEqual(CAP + CHUNK.length);
  });

  it("passes a chunked body within the cap through whole", async () => {
    const seen: Seen = { called: false, bytes: 0 };
    const url = await startCappedServer(seen);
    expect(await send(url, CAP - CHUNK.length)).toBe(200);
    expect(seen).toEqual({ called: true, bytes: CAP - CHUNK.length, outcome: "complete" });
  });
});

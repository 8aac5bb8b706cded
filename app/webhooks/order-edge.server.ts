// The order webhooks' bare edge: orders/create, orders/updated and orders/cancelled answered by a plain
// `node:http` handler before Express and Remix see the request (server.js), without turning the request
// into a Fetch Request and the answer back. Everything after the bytes are read is the Remix routes' own
// code (verifyWebhook, takeInOrderDelivery), so there is one intake path and two doors to it. Measured,
// the conversion and Remix's dispatch were about a fifth of an order's CPU (docs/benchmarks.md, issue 25).
import type { IncomingMessage, ServerResponse } from "node:http";
import { appContext } from "../context.server";
import type { OrderTopic } from "../orders/intake.server";
import { shopifyOrderSchema } from "../orders/payload";
import { takeInOrderDelivery } from "./orders.server";
import { MAX_WEBHOOK_BYTES, verifyWebhook } from "./receive.server";
import type { WebhookHeaders } from "./signature.server";

/** The URIs shopify.app.toml subscribes the order topics to, and the topic each serves. */
const ORDER_WEBHOOK_PATHS: Readonly<Record<string, OrderTopic>> = {
  "/webhooks/orders/create": "orders/create",
  "/webhooks/orders/updated": "orders/updated",
  "/webhooks/orders/cancelled": "orders/cancelled",
};

/**
 * Serves `req` if it is a POST to an order webhook's URI and answers true; anything else answers false
 * and is left untouched for the next handler (Express and Remix).
 */
export function serveOrderWebhook(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "POST") return false;
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const topic = ORDER_WEBHOOK_PATHS[query < 0 ? url : url.slice(0, query)];
  if (!topic) return false;
  void answer(req, res, topic);
  return true;
}

async function answer(req: IncomingMessage, res: ServerResponse, topic: OrderTopic): Promise<void> {
  let response: Response;
  try {
    const body = await readWithin(req, MAX_WEBHOOK_BYTES);
    const received = await verifyWebhook(body, nodeHeaders(req), shopifyOrderSchema);
    response = await takeInOrderDelivery(topic, received);
  } catch (thrown) {
    if (thrown instanceof Response) response = thrown;
    else {
      // As Remix answers an action that throws: 500, the error logged, nothing of it sent.
      appContext().log.error(
        { event: "webhook.failed", topic, err: thrown },
        "order webhook failed; Shopify will retry",
      );
      response = new Response("Unexpected Server Error", { status: 500 });
    }
  }
  await send(response, res);
}

/** Node's headers as the signature check reads them (their names are lower-case already). */
function nodeHeaders(req: IncomingMessage): WebhookHeaders {
  return {
    get(name: string) {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** 413 as readBodyWithin answers it, with Connection: close so the rest of the body is not waited for. */
function tooLarge(size: string, limit: number): Response {
  return Response.json(
    { error: `The webhook body is ${size}; at most ${limit} bytes are accepted.` },
    { status: 413, headers: { Connection: "close" } },
  );
}

/**
 * The body's bytes, refused (a thrown 413) as soon as they pass `limit`, whatever Content-Length says:
 * the same rule as readBodyWithin (app/http/body.server.ts) for a Node request. Past the limit the
 * request is paused and left; the 413's Connection: close ends the connection behind the answer.
 */
function readWithin(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.reject(tooLarge(`${declared} bytes`, limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        req.off("data", onData);
        req.off("end", onEnd);
        req.pause();
        reject(tooLarge(`more than ${limit} bytes`, limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", reject);
    // The sender left before the body's end: nothing to take in and no one to answer (send() sees the
    // response destroyed); without this the promise would wait for ever.
    req.once("close", () => {
      if (!req.complete) reject(new Response("The request ended before its body did.", { status: 400 }));
    });
  });
}

/** Writes a Fetch answer (small, never streamed: an empty 200 or an error's text) to Node's response. */
async function send(response: Response, res: ServerResponse): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (body) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

// Request bodies read under a limit that holds while the bytes arrive: the edges that take bodies from
// outside (Shopify webhooks, warehouse notifications) refuse one past their limit with 413, never buffered whole.

/** 413 for a body over `limit`; `what` names the body in the message ("webhook", "notification"). */
function tooLarge(what: string, size: string, limit: number): Response {
  // Connection: close makes the server drop the connection once this answer is out, with whatever of
  // the body is still coming; the sender sees the 413 rather than a reset.
  return Response.json(
    { error: `The ${what} body is ${size}; at most ${limit} bytes are accepted.` },
    { status: 413, headers: { Connection: "close" } },
  );
}

/**
 * The body's bytes, read here so the limit holds while they arrive: a chunked body, or one whose
 * Content-Length is missing or lies, is refused (a thrown 413 Response) as soon as it passes the limit.
 * Reading simply stops there: the stream, no longer pulled, pushes back on the sender until the
 * connection closes behind the 413 (cancelling it would reset the connection before the answer).
 */
export async function readBodyWithin(
  request: Request,
  limit: number,
  what: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge(what, `${declared} bytes`, limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      reader.releaseLock();
      throw tooLarge(what, `more than ${limit} bytes`, limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

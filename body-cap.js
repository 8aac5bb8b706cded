// The production server's cap on request bodies, before any route sees them: a declared length over
// the cap is refused unread, and a body streamed past it (chunked, or a Content-Length that lies) is
// cut off as it arrives. A little above the webhook limit, so webhook routes give their own 413 first.

/** 5 MiB: the webhook limit (MAX_WEBHOOK_BYTES, 4 MiB) and room for the largest settings form. */
export const MAX_REQUEST_BYTES = 5 * 1024 * 1024;

const capped = new WeakSet();

function refuse(req, res, maxBytes) {
  capped.add(req);
  if (res.headersSent) return;
  res.writeHead(413, { "Content-Type": "application/json", Connection: "close" });
  res.end(JSON.stringify({ error: `The request body is larger than ${maxBytes} bytes.` }));
}

/** Express middleware; mount it right before the request handler that reads bodies. */
export function capRequestBodies(maxBytes = MAX_REQUEST_BYTES) {
  return (req, res, next) => {
    const declared = Number(req.headers["content-length"]);
    if (declared > maxBytes) return refuse(req, res, maxBytes);
    let received = 0;
    // Only counts: the handler's own reader sees every chunk too, and its backpressure pauses both
    // (a 'data' listener starts the flow on the next tick, after the handler below attached its own).
    const count = (chunk) => {
      received += chunk.length;
      if (received <= maxBytes) return;
      req.off("data", count);
      refuse(req, res, maxBytes);
      // The handler's reader fails instead of taking a cut-off body for a whole one.
      req.destroy(new Error(`request body over ${maxBytes} bytes`));
    };
    req.on("data", count);
    next();
  };
}

/**
 * Express error handler for after the request handler: a request cut off by the cap has been answered
 * already, and what the handler says about its broken body is noise.
 */
export function ignoreCappedRequests(error, req, res, next) {
  if (capped.has(req)) return;
  next(error);
}

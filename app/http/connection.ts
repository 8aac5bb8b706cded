// What the server knows of a request's connection, handed to loaders as Remix's load context: server.js
// puts the socket's remote address there (a Fetch Request has no address). The Vite dev server gives none.

/** The connection's remote address from a loader's `context`, or undefined where the server gave none. */
export function socketAddressOf(context: unknown): string | undefined {
  const address = (context as { socketAddress?: unknown } | null | undefined)?.socketAddress;
  return typeof address === "string" && address ? address : undefined;
}

// The warehouse client's own connection pool, against a loopback server that closes idle keep-alive
// connections after a short time without announcing it (no Keep-Alive header, as nginx and others).
//
// On loopback a server's close reaches the client long before the next request, so the race a benchmark
// met over a real network (a request written while the server's close was on its way; the request may
// have arrived, so its batch went in doubt) is played here deterministically: the server drops any request
// arriving on a connection that has been idle past its keep-alive time, as if its close had crossed it.
// A pool that closes its idle sockets first never sends on one the server is about to close.
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createWarehouseClient } from "../../app/warehouse/client.server";
import { WarehouseNetworkError } from "../../app/warehouse/errors";
import { closeWarehouseConnections } from "../../app/warehouse/transport.server";

const SERVER_IDLE_MS = 300;
const ANSWER = JSON.stringify({ result: "ok", Data: [{ id: "1", name: "Нове" }] });

interface ClosingServer {
  url: string;
  connections: number;
  dropped: number;
  close(): Promise<void>;
}

async function closingServer(): Promise<ClosingServer> {
  const sockets = new Set<net.Socket>();
  const state = { connections: 0, dropped: 0 };
  const server = net.createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buffered = "";
    let answeredAt: number | null = null;
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      // The client sends GETs only here: a request ends with its blank line.
      for (let end = buffered.indexOf("\r\n\r\n"); end >= 0; end = buffered.indexOf("\r\n\r\n")) {
        buffered = buffered.slice(end + 4);
        if (answeredAt !== null && performance.now() - answeredAt > SERVER_IDLE_MS) {
          state.dropped++;
          socket.destroy();
          return;
        }
        const body = Buffer.from(ANSWER);
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
        );
        socket.write(body);
        answeredAt = performance.now();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    get dropped() {
      return state.dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends the keyless status dictionary request `count` times, each a little after the server's idle time. */
async function spacedRequests(client: ReturnType<typeof createWarehouseClient>, count: number) {
  const outcomes: PromiseSettledResult<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    if (i) await new Promise((resolve) => setTimeout(resolve, SERVER_IDLE_MS + 50));
    outcomes.push(...(await Promise.allSettled([client.getStatusDictionary()])));
  }
  return outcomes;
}

let server: ClosingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await closeWarehouseConnections();
});

describe("the warehouse client's connections", () => {
  it("close while idle before the server's keep-alive does, so no request meets the server's close", async () => {
    server = await closingServer();
    const client = createWarehouseClient({
      apiKey: "",
      endpoints: { baseUrl: server.url, idleSocketMs: SERVER_IDLE_MS / 3 },
    });
    const outcomes = await spacedRequests(client, 3);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect(server.dropped).toBe(0);
    // Each request after a pause came on a fresh connection: the idle one had been closed by the client.
    expect(server.connections).toBe(3);
  });

  it("keep a connection for the next request that comes soon", async () => {
    server = await closingServer();
    const client = createWarehouseClient({ apiKey: "", endpoints: { baseUrl: server.url } });
    // Not one connection per request: a pool that never kept sockets would avoid the race at a
    // handshake a request.
    for (let i = 0; i < 5; i++) await client.getStatusDictionary();
    expect(server.connections).toBeLessThan(5);
  });

  it("would lose requests to the server's close through a pool that keeps idle sockets longer (the global fetch)", async () => {
    // The control: the client as it was, on the global fetch, whose idle sockets last 4 s here.
    server = await closingServer();
    const client = createWarehouseClient({
      apiKey: "",
      endpoints: { baseUrl: server.url },
      fetch: (input, init) => fetch(input, init),
    });
    const outcomes = await spacedRequests(client, 2);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    expect(server.dropped).toBe(1);
  });
});

describe("a warehouse client told to stop sending (its lease lost)", () => {
  /** Holds each answer until `answer()`; `received` resolves when a request has arrived. */
  async function holdingServer() {
    const held: http.ServerResponse[] = [];
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    let requests = 0;
    const httpServer = http.createServer((request, response) => {
      requests++;
      held.push(response);
      request.resume();
      arrived();
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    const { port } = httpServer.address() as net.AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      received,
      requests: () => requests,
      answer: () => {
        for (const response of held.splice(0)) {
          response.writeHead(200, { "content-type": "application/json" }).end(ANSWER);
        }
      },
      close: () =>
        new Promise<void>((resolve) => {
          httpServer.closeAllConnections();
          httpServer.close(() => resolve());
        }),
    };
  }

  it("sends nothing more, and says the request certainly did not leave", async () => {
    const warehouse = await holdingServer();
    try {
      const stop = new AbortController();
      stop.abort();
      const client = createWarehouseClient({
        apiKey: "",
        endpoints: { baseUrl: warehouse.url },
        stopSending: stop.signal,
      });
      const error = await client.getStatusDictionary().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WarehouseNetworkError);
      expect(error).toMatchObject({ effect: "none" });
      expect(warehouse.requests()).toBe(0);
    } finally {
      await warehouse.close();
    }
  });

  it("still takes the answer to a request already out, which would otherwise be in doubt", async () => {
    const warehouse = await holdingServer();
    try {
      const stop = new AbortController();
      const client = createWarehouseClient({
        apiKey: "",
        endpoints: { baseUrl: warehouse.url },
        stopSending: stop.signal,
      });
      const call = client.getStatusDictionary();
      await warehouse.received;
      stop.abort();
      warehouse.answer();
      expect(await call).toEqual([{ id: "1", name: "Нове" }]);
    } finally {
      await warehouse.close();
    }
  });
});

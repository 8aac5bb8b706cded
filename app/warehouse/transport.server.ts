// The warehouse's own HTTP connections: a pool shared by every client in the process, whose idle sockets
// close well before the server would close them, so no request is written to a socket being closed.
import { Agent, fetch as undiciFetch } from "undici";

/**
 * How long an idle connection waits for the next request. Node's own HTTP server closes idle keep-alive
 * connections after 5 s, and many servers do not announce their limit; a request sent as the server's
 * close was on its way failed after it may have arrived (a batch put in doubt in a benchmark). Under the
 * global fetch's 4 s, with room for the client's and the network's delays.
 */
export const DEFAULT_IDLE_SOCKET_MS = 2_000;

const transports = new Map<number, Agent>();

/** The process's pool for connections idling at most `idleSocketMs`, made on first use. */
function agentFor(idleSocketMs: number): Agent {
  let agent = transports.get(idleSocketMs);
  if (!agent) {
    agent = new Agent({
      keepAliveTimeout: idleSocketMs,
      // A server's `Keep-Alive: timeout=N` hint (less undici's threshold) may only shorten the idle time.
      keepAliveMaxTimeout: idleSocketMs,
    });
    transports.set(idleSocketMs, agent);
  }
  return agent;
}

/**
 * fetch through the warehouse's pool. undici's own fetch with its own Agent, not the global fetch with a
 * `dispatcher`: Node bundles its own copy of undici, and an Agent from another copy is not guaranteed to
 * fit it.
 */
export function warehouseFetch(idleSocketMs = DEFAULT_IDLE_SOCKET_MS): typeof fetch {
  const dispatcher = agentFor(idleSocketMs);
  return ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch;
}

/** Closes the pools' connections (at shutdown, once no request is out). */
export async function closeWarehouseConnections(): Promise<void> {
  const agents = [...transports.values()];
  transports.clear();
  await Promise.all(agents.map((agent) => agent.close()));
}

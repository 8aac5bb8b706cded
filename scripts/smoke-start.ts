// `npm run test:start`: the production server as a user runs it (`npm run build && npm start`) on a fresh
// SQLite database: it starts, /healthz answers, a webhook with a wrong HMAC gets 401, bodies past the caps
// are refused while they stream (and the server stays up), SIGTERM stops it cleanly, and a bad environment
// stops start-up with the list of problems (a missing SKLAD_ENCRYPTION_KEY included: `npm start` and
// `npm run worker` are production even when NODE_ENV is unset).
import { spawn, spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const dir = mkdtempSync(path.join(tmpdir(), "sklad-smoke-"));
const inherited: Record<string, string | undefined> = { ...process.env };
// NODE_ENV unset, as a plain `npm start` has it; the key given below or not at all.
delete inherited.NODE_ENV;
delete inherited.SKLAD_ENCRYPTION_KEY;
const env = {
  ...(inherited as NodeJS.ProcessEnv),
  SKLAD_ENCRYPTION_KEY: "5a".repeat(32),
  DATABASE_URL: `file:${path.join(dir, "smoke.sqlite")}`,
  SHOPIFY_API_KEY: "smoke-key",
  SHOPIFY_API_SECRET: "smoke-secret",
  SHOPIFY_APP_URL: "https://sklad-sync.example",
  PORT: "0",
};
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

/**
 * Streams chunks (chunked, or under a declared length) until the server answers or hangs up: answers
 * the status, or the socket error's code.
 */
function sendEndlessBody(url: string, contentLength?: number): Promise<number | string> {
  const chunk = Buffer.alloc(64 * 1024, "x");
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: number | string) => {
      if (!settled) resolve(value);
      settled = true;
    };
    const request = httpRequest(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(contentLength ? { "Content-Length": contentLength } : { "Transfer-Encoding": "chunked" }),
      },
    });
    request.on("response", (response) => {
      response.resume();
      settle(response.statusCode ?? 0);
    });
    request.on("error", (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    if (contentLength) {
      // A declared length over the cap must be refused before any of the body is read: only the headers
      // go. (Writing the body meanwhile raced the server's close: the write failed with EPIPE before the
      // answer could be read.)
      request.flushHeaders();
      setTimeout(() => settle("no answer before the body"), 10_000).unref();
      return;
    }
    let sent = 0;
    const pump = () => {
      while (!settled) {
        // 64 MiB without an answer means nothing is capping the body.
        if ((sent += chunk.length) > 64 * 1024 * 1024) return settle("never cut off");
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
    };
    pump();
  });
}

try {
  check(
    spawnSync("npm", ["run", "--silent", "setup"], { env, stdio: "ignore" }).status === 0,
    "npm run setup",
  );

  const server = spawn("node", ["server.js"], { env, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    server.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"msg":"listening","port":(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    server.once("exit", (code) => reject(new Error(`server exited with ${code} before listening`)));
    setTimeout(() => reject(new Error("server did not start within 20 s")), 20_000).unref();
  });
  const base = `http://127.0.0.1:${port}`;
  const browser = { "User-Agent": "Mozilla/5.0 (smoke test)" };

  const health = await fetch(`${base}/healthz`, { headers: browser });
  check(
    health.status === 200 && ((await health.json()) as { database: string }).database === "ok",
    "/healthz 200",
  );

  const forged = await fetch(`${base}/webhooks/app/uninstalled`, {
    method: "POST",
    body: "{}",
    headers: {
      ...browser,
      "Content-Type": "application/json",
      "X-Shopify-Topic": "app/uninstalled",
      "X-Shopify-Shop-Domain": "smoke.myshopify.com",
      "X-Shopify-Hmac-Sha256": "Zm9yZ2Vk",
      "X-Shopify-Webhook-Id": "smoke",
      "X-Shopify-API-Version": "2026-10",
    },
  });
  check(forged.status === 401, "webhook with a wrong HMAC answers 401");
  // The order webhooks' bare edge (mounted by server.js before Express) is in the build and answers.
  const forgedOrder = await fetch(`${base}/webhooks/orders/create`, {
    method: "POST",
    body: "{}",
    headers: {
      ...browser,
      "Content-Type": "application/json",
      "X-Shopify-Topic": "orders/create",
      "X-Shopify-Shop-Domain": "smoke.myshopify.com",
      "X-Shopify-Hmac-Sha256": "Zm9yZ2Vk",
      "X-Shopify-Webhook-Id": "smoke-order",
      "X-Shopify-API-Version": "2026-10",
    },
  });
  check(forgedOrder.status === 401, "order webhook with a wrong HMAC answers 401 at the bare edge");

  const streamed = await sendEndlessBody(`${base}/webhooks/orders/create`);
  check(
    [413, "ECONNRESET", "EPIPE"].includes(streamed),
    `an endless chunked webhook body is cut off at the webhook limit (${streamed})`,
  );
  const declared = await sendEndlessBody(`${base}/app/settings`, 6 * 1024 * 1024);
  check(declared === 413, `a declared length over the server's body cap answers 413 (${declared})`);
  const stillUp = await fetch(`${base}/healthz`, { headers: browser });
  check(stillUp.status === 200, "the server is still up after the oversized bodies");

  const exitCode = await new Promise<number | null>((resolve) => {
    server.once("exit", resolve);
    server.kill("SIGTERM");
  });
  check(exitCode === 0, "SIGTERM shuts down cleanly (exit 0)");

  const bad = spawnSync("node", ["server.js"], {
    env: { ...env, SHOPIFY_API_SECRET: "", SHOPIFY_APP_URL: "nope" },
    encoding: "utf8",
  });
  check(
    bad.status === 1 &&
      /SHOPIFY_API_SECRET is missing/.test(bad.stderr) &&
      /SHOPIFY_APP_URL/.test(bad.stderr),
    "a bad environment stops start-up naming each problem",
  );

  // `npm start` and `npm run worker` are deployments: without the key each must stop, not start on the
  // development key. A process that wrongly starts is ended by the timeout instead of holding this script.
  for (const [name, command, args] of [
    ["npm start", "node", ["server.js"]],
    ["npm run worker", "npx", ["tsx", "scripts/worker.ts"]],
  ] as const) {
    const withoutKey = spawnSync(command, args, {
      env: { ...env, SKLAD_ENCRYPTION_KEY: undefined },
      encoding: "utf8",
      timeout: 60_000,
    });
    check(
      withoutKey.status === 1 && /SKLAD_ENCRYPTION_KEY is missing/.test(withoutKey.stderr),
      `${name} without SKLAD_ENCRYPTION_KEY, and with NODE_ENV unset, stops`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length) {
  console.error(`${failures.length} start-up check(s) failed`);
  process.exit(1);
}

// `npm run demo` in a real browser: the demo started as a newcomer starts it (a child process, here on a
// free port with a fast warehouse), its one address opened in Chromium, and an order followed on the app's
// own Orders page inside the admin stand-in until it is Delivered. Ctrl-C (SIGINT) then stops it cleanly.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../support/browser";

const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
/** Generous: the demo compiles the app's pages on a machine the other test files load too. */
const STARTUP_MS = 180_000;
const DELIVERED_MS = 180_000;

let demo: ChildProcess | undefined;
let browser: Browser | undefined;
let dataDir: string;
const output: string[] = [];

/** Starts the demo and answers the address it prints. */
function startDemo(): Promise<string> {
  dataDir = mkdtempSync(path.join(tmpdir(), "sklad-demo-page-"));
  // A newcomer's shell: no test environment, no test database.
  const { NODE_ENV: _mode, DATABASE_URL: _database, ...env } = process.env;
  env.PATH = `${path.resolve("node_modules/.bin")}${path.delimiter}${env.PATH}`;
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/demo/main.ts",
      "--port",
      "0",
      "--every",
      "2",
      "--stage-delays",
      "1,1,1",
      "--data-dir",
      dataDir,
    ],
    { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] },
  );
  demo = child;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the demo printed no address in ${STARTUP_MS} ms:\n${output.join("")}`)),
      STARTUP_MS,
    );
    const take = (chunk: Buffer) => {
      output.push(chunk.toString());
      const address = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output.join(""))?.[1];
      if (address) {
        clearTimeout(timer);
        resolve(address);
      }
    };
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited with ${code} before printing its address:\n${output.join("")}`));
    });
  });
}

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (demo && demo.exitCode === null && demo.signalCode === null) demo.kill("SIGKILL");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run demo", () => {
  it(
    "opens the app's Orders page inside the admin stand-in, where an order reaches Delivered; SIGINT stops it",
    async () => {
      const address = await startDemo();
      const context = await browser!.newContext({ userAgent: USER_AGENT });
      context.setDefaultTimeout(60_000);
      context.setDefaultNavigationTimeout(120_000);
      const problems: string[] = [];
      const origin = new URL(address).origin;
      await context.route("**/*", async (route) => {
        const url = new URL(route.request().url());
        if (url.origin === origin) return route.continue();
        // Polaris' font stylesheet: the pages work with the fallback fonts, as they do offline.
        if (url.hostname === "cdn.shopify.com" && url.pathname.startsWith("/static/fonts/"))
          return route.fulfill({ contentType: "text/css", body: "" });
        problems.push(`unexpected request: ${route.request().method()} ${url.href}`);
        return route.abort();
      });
      const page = await context.newPage();
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));

      await page.goto(`${address}?locale=en#/app/orders?stage=delivered`);
      const app = page.frameLocator("#app");
      const delivered = app.locator("tbody tr", { hasText: "Delivered" });
      // The page shows what was there when it loaded: it is opened afresh (a new session token, as the
      // stand-in's navigation does) until a delivered order is on it.
      const deadline = Date.now() + DELIVERED_MS;
      while ((await delivered.count()) === 0) {
        if (Date.now() > deadline)
          throw new Error(
            `no order reached Delivered in ${DELIVERED_MS} ms; the demo said:\n${output.join("")}`,
          );
        await page.evaluate(() => window.dispatchEvent(new HashChangeEvent("hashchange")));
        // A pause between looks, not an assertion: the condition above decides.
        await page.waitForTimeout(3_000);
      }
      const row = (await delivered.first().textContent()) ?? "";
      expect(row).toMatch(/#10\d\d/);
      expect(problems).toEqual([]);
      await context.close();

      const exited = new Promise<number | null>((resolve) => demo!.once("exit", (code) => resolve(code)));
      demo!.kill("SIGINT");
      expect(await exited).toBe(0);
    },
    STARTUP_MS + DELIVERED_MS + 60_000,
  );
});

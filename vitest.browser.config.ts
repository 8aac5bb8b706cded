// `npm run test:browser`: the admin pages driven in Debian's Chromium (`apt-get install -y chromium`),
// with the same setup as the main suite (a fresh database per worker, the network and console guards).
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/pages/**/*.test.ts"],
    exclude: ["**/node_modules/**"],
    // Room for a file's first page, compiled on request by vite (see openAdmin's navigation timeout).
    testTimeout: 60_000,
    // A poll waits for what a click sets off (an action, then the page's data read again), which on a
    // loaded machine takes more than the default second; a poll that never succeeds still fails.
    expect: { ...base.test?.expect, poll: { timeout: 15_000 } },
  },
});

import { availableParallelism } from "node:os";
import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["test/**/*.test.ts", "app/**/*.test.ts"],
    // The admin pages in Chromium: `npm run test:browser` (vitest.browser.config.ts), since Chromium is a
    // system package that `npm ci` cannot install.
    exclude: ["test/pages/**", "**/node_modules/**"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    // vitest's default (cores - 1) runs files one at a time on a 2-core machine; the tests mostly wait
    // on loopback I/O, so two at a time is faster there (26 s → 16 s) and changes nothing on bigger ones.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

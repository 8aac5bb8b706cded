// The demo signs session tokens for its shop: it must refuse to start in production, before it loads
// anything of the app or opens a port.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("npm run demo", () => {
  it("refuses to start with NODE_ENV=production, saying why, with exit status 1", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/demo/main.ts", "--check"], {
      env: { ...process.env, NODE_ENV: "production" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("refuses to start with NODE_ENV=production");
    expect(result.stdout).toBe("");
  });
});

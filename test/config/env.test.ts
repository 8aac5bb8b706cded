import { describe, expect, it } from "vitest";
import { InvalidEnvironmentError, parseEnv } from "../../app/env.server";
import { warehouseEndpoints } from "../../app/warehouse/config.server";

const valid = {
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "shpss_very_secret_value",
  SHOPIFY_APP_URL: "https://sklad.example.com/",
};

function problems(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    return (error as InvalidEnvironmentError).problems;
  }
  throw new Error("parseEnv accepted an invalid environment");
}

describe("the environment", () => {
  it("fills the documented defaults", () => {
    const env = parseEnv(valid);
    expect(env).toMatchObject({
      NODE_ENV: "development",
      DATABASE_URL: "file:./prisma/dev.sqlite",
      LOG_LEVEL: "info",
      PORT: 3000,
      SHOPIFY_APP_URL: "https://sklad.example.com",
      WAREHOUSE_API_URL: "https://fulfillment.in.ua:34443/MTPGroupFulfillment/hs/api",
      WAREHOUSE_API_V2_URL: "https://fulfillment.in.ua:34443/MTPGroupFulfillment/hs/api2v/json",
      WAREHOUSE_TIMEOUT_MS: 15_000,
    });
    expect(env.SCOPES).toBeUndefined();
  });

  it("names every problem at once, with how to fix it", () => {
    const listed = problems({ SHOPIFY_APP_URL: "not a url", PORT: "eighty", DATABASE_URL: "mysql://db/x" });
    expect(listed).toHaveLength(5);
    expect(listed.join("\n")).toMatch(/SHOPIFY_API_KEY is missing: set it to the app's Client ID/);
    expect(listed.join("\n")).toMatch(/SHOPIFY_API_SECRET is missing/);
    expect(listed.join("\n")).toMatch(/SHOPIFY_APP_URL must be the app's public URL/);
    expect(listed.join("\n")).toMatch(/PORT must be a port number/);
    expect(listed.join("\n")).toMatch(/DATABASE_URL must start with "file:" \(SQLite\) or "postgresql:\/\/"/);
  });

  it("treats an empty variable as unset, and never repeats a value in its messages", () => {
    const listed = problems({ ...valid, SHOPIFY_API_SECRET: "", DATABASE_URL: "mysql://user:hunter2@db/x" });
    expect(listed.join("\n")).toMatch(/SHOPIFY_API_SECRET is missing/);
    expect(listed.join("\n")).not.toContain("hunter2");
  });

  it("accepts PostgreSQL and splits SCOPES", () => {
    const env = parseEnv({
      ...valid,
      DATABASE_URL: "postgresql://u@h/db",
      SCOPES: "read_orders, write_inventory",
    });
    expect(env.DATABASE_URL).toBe("postgresql://u@h/db");
    expect(env.SCOPES).toEqual(["read_orders", "write_inventory"]);
  });

  it("points the warehouse elsewhere only through valid addresses and a sane timeout", () => {
    const env = parseEnv({
      ...valid,
      WAREHOUSE_API_URL: "http://127.0.0.1:4010/api/",
      WAREHOUSE_TIMEOUT_MS: "5000",
    });
    expect(warehouseEndpoints(env)).toEqual({
      baseUrl: "http://127.0.0.1:4010/api",
      baseUrlV2: "https://fulfillment.in.ua:34443/MTPGroupFulfillment/hs/api2v/json",
      timeoutMs: 5000,
    });
    const listed = problems({
      ...valid,
      WAREHOUSE_API_URL: "fulfillment.in.ua/api",
      WAREHOUSE_API_V2_URL: "ftp://x/json",
      WAREHOUSE_TIMEOUT_MS: "50",
    });
    expect(listed).toHaveLength(3);
    expect(listed.join("\n")).toMatch(/WAREHOUSE_API_URL must be the warehouse's v1 base address/);
    expect(listed.join("\n")).toMatch(/WAREHOUSE_API_V2_URL must be the warehouse's v2 base address/);
    expect(listed.join("\n")).toMatch(/WAREHOUSE_TIMEOUT_MS must be at least 1000 ms/);
  });

  it("refuses production without its own SKLAD_ENCRYPTION_KEY; elsewhere the development key serves", () => {
    // `npm start` (server.js) sets NODE_ENV=production when it is unset; scripts/smoke-start.ts checks that.
    expect(problems({ ...valid, NODE_ENV: "production" })).toEqual([
      expect.stringMatching(
        /^SKLAD_ENCRYPTION_KEY is missing: production \(`npm start`, or NODE_ENV=production\)/,
      ),
    ]);
    const key = "ab".repeat(32);
    expect(
      parseEnv({ ...valid, NODE_ENV: "production", SKLAD_ENCRYPTION_KEY: key }).SKLAD_ENCRYPTION_KEY,
    ).toBe(key);
    for (const NODE_ENV of ["development", "test", undefined]) {
      expect(parseEnv({ ...valid, NODE_ENV }).SKLAD_ENCRYPTION_KEY).toBeUndefined();
    }
    expect(problems({ ...valid, SKLAD_ENCRYPTION_KEY: "short" })).toEqual([
      expect.stringMatching(/^SKLAD_ENCRYPTION_KEY must be 32 random bytes/),
    ]);
  });
});

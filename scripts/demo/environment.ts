// The demo's environment, set before any module of the app is loaded: its own database (migrated from a
// template), the made-up app credentials, the scaled warehouse limits, and outbound traffic held to loopback.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { installNetworkGuard } from "../../test/support/network";
import { appToml } from "../../test/support/webhooks";
import { SCALED_LIMITS } from "../../test/warehouse-sim/limits";
import type { DemoOptions } from "./options";

// The demo app's credentials: made up, used only between this process's parts.
export const DEMO_API_KEY = "sklad-sync-demo";
export const DEMO_API_SECRET = "sklad-sync-demo-secret-not-for-production";
export const DEMO_ACCESS_TOKEN = "shpat_sklad_sync_demo";

export interface DemoEnvironment {
  dataDir: string;
  /** The folder is the demo's own (the check's temporary one), so it goes when the demo stops. */
  ownDataDir: boolean;
  /** The app's access scopes, as shopify.app.toml asks for them. */
  scopes: string;
}

export function prepareEnvironment(options: DemoOptions): DemoEnvironment {
  const { check } = options;
  const dataDir = path.resolve(
    options.dataDir ?? (check ? mkdtempSync(path.join(tmpdir(), "sklad-demo-")) : ".demo"),
  );
  const databaseFile = path.join(dataDir, "demo.sqlite");
  // Only what the demo writes is removed: `--data-dir` may name a folder that holds other things.
  const demoFiles = [
    databaseFile,
    `${databaseFile}-wal`,
    `${databaseFile}-shm`,
    path.join(dataDir, "migrations"),
  ];
  const ownDataDir = check && !options.dataDir;
  if (options.reset) for (const file of demoFiles) rmSync(file, { force: true });
  mkdirSync(dataDir, { recursive: true });

  installNetworkGuard();
  const scopes = appToml().access_scopes.scopes;
  Object.assign(process.env, {
    NODE_ENV: "development",
    DATABASE_URL: `file:${databaseFile}`,
    SHOPIFY_API_KEY: DEMO_API_KEY,
    SHOPIFY_API_SECRET: DEMO_API_SECRET,
    SCOPES: scopes,
    LOG_LEVEL: options.verbose ? "info" : "error",
    WORKER: "on",
    WORKER_SWEEP_MS: "250",
    WAREHOUSE_RATE_WINDOW_MS: String(SCALED_LIMITS.windowMs),
    WAREHOUSE_TIMEOUT_MS: "5000",
  });
  delete process.env.SHOP_CUSTOM_DOMAIN;

  prepareDatabase(dataDir, databaseFile, options.verbose);
  return { dataDir, ownDataDir, scopes };
}

/**
 * The demo's database, migrated: a new one is a copy of a template migrated once per set of migrations
 * (`prisma migrate deploy` takes seconds), an existing one is migrated again only when the migrations changed.
 */
function prepareDatabase(dataDir: string, databaseFile: string, verbose: boolean): void {
  const migrations = path.resolve("prisma/migrations");
  const hash = createHash("sha256");
  for (const entry of readdirSync(migrations, { recursive: true, encoding: "utf8" }).sort()) {
    const file = path.join(migrations, entry);
    if (entry.endsWith(".sql") && !entry.startsWith("postgresql"))
      hash.update(entry).update(readFileSync(file));
  }
  const version = hash.digest("hex").slice(0, 16);
  const stamp = path.join(dataDir, "migrations");
  const migrate = (file: string) =>
    execFileSync(process.execPath, ["--import", "tsx", "scripts/db-setup.ts"], {
      stdio: ["ignore", verbose ? "inherit" : "ignore", "inherit"],
      env: {
        ...process.env,
        DATABASE_URL: `file:${file}`,
        PATH: `${path.resolve("node_modules/.bin")}${path.delimiter}${process.env.PATH}`,
      },
    });
  if (existsSync(databaseFile)) {
    if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== version) migrate(databaseFile);
  } else {
    const template = path.resolve(`.cache/demo-db/${version}.sqlite`);
    if (!existsSync(template)) {
      mkdirSync(path.dirname(template), { recursive: true });
      const building = `${template}.${process.pid}`;
      migrate(building);
      renameSync(building, template);
    }
    for (const suffix of ["-wal", "-shm"]) rmSync(databaseFile + suffix, { force: true });
    copyFileSync(template, databaseFile);
  }
  writeFileSync(stamp, version);
}

// The app's environment, parsed once by one zod schema. A missing or malformed variable stops start-up
// with a list naming each problem and how to fix it. Application code reads the environment only through
// env(); build tooling (vite.config.ts, prisma.config.ts, scripts/) reads what it needs itself.
import { z } from "zod";
import { loadDotEnv } from "./config/dotenv";
import { databaseFlavour, DEFAULT_DATABASE_URL } from "./db/flavour";
import { DEFAULT_BASE_URL, DEFAULT_BASE_URL_V2, DEFAULT_TIMEOUT_MS } from "./warehouse/wire";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    SHOPIFY_API_KEY: z
      .string({
        error:
          "is missing: set it to the app's Client ID (Partner Dashboard → Apps → Sklad Sync → Client credentials)",
      })
      .min(1, "is empty: set it to the app's Client ID from the Partner Dashboard"),
    SHOPIFY_API_SECRET: z
      .string({
        error:
          "is missing: set it to the app's Client secret (Partner Dashboard → Apps → Sklad Sync → Client credentials)",
      })
      .min(1, "is empty: set it to the app's Client secret from the Partner Dashboard"),
    SHOPIFY_APP_URL: z
      .url({
        protocol: /^https?$/,
        error: "must be the app's public URL, e.g. https://sklad-sync.example.com",
      })
      .transform((url) => url.replace(/\/+$/, "")),
    SCOPES: z
      .string()
      .optional()
      .transform((value) =>
        value
          ?.split(",")
          .map((scope) => scope.trim())
          .filter(Boolean),
      ),
    SHOP_CUSTOM_DOMAIN: z.string().optional(),
    DATABASE_URL: z
      .string()
      .default(DEFAULT_DATABASE_URL)
      .superRefine((url, ctx) => {
        try {
          databaseFlavour(url);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message.replace(/^DATABASE_URL /, "") });
        }
      }),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).default("info"),
    PORT: z.coerce
      .number({ error: "must be a port number, e.g. 3000" })
      .int()
      .min(0)
      .max(65535, "must be a port number between 0 and 65535")
      .default(3000),
    // The warehouse's addresses: the provider's by default. Production and staging share them (the
    // ApiKey selects the environment); they change only to point at the simulator or a proxy.
    WAREHOUSE_API_URL: warehouseUrl("v1").default(DEFAULT_BASE_URL),
    WAREHOUSE_API_V2_URL: warehouseUrl("v2").default(DEFAULT_BASE_URL_V2),
    WAREHOUSE_TIMEOUT_MS: z.coerce
      .number({ error: "must be a number of milliseconds, e.g. 15000" })
      .int("must be a whole number of milliseconds")
      .min(1000, "must be at least 1000 ms: the warehouse's own p95 is 300 ms, but a batch takes longer")
      .max(120_000, "must be at most 120000 ms (two minutes)")
      .default(DEFAULT_TIMEOUT_MS),
    // The warehouse's rate-limit window. Only the simulator's can be shortened (its --window option), so
    // that tests of the worker process take seconds; against the real warehouse it must stay 60000.
    WAREHOUSE_RATE_WINDOW_MS: z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int()
      .min(1000, "must be at least 1000 ms")
      .max(60_000, "must be at most 60000 ms, the warehouse's own window")
      .default(60_000),
    // How long after an AddOrder without a clear answer the warehouse could still be creating the order: a
    // miss before then proves nothing. Shorten it only for the simulator in tests.
    WAREHOUSE_IN_DOUBT_AFTER_MS: z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int("must be a whole number of milliseconds")
      .min(0, "must not be negative")
      .max(24 * 3600_000, "must be at most a day (86400000 ms)")
      .default(10 * 60_000),
    // Encrypts each shop's warehouse ApiKey at rest. Required in production (NODE_ENV=production, which
    // `npm start` sets when NODE_ENV is unset); elsewhere a fixed development key is used so the demo and
    // tests need no setup (never use it for real keys).
    SKLAD_ENCRYPTION_KEY: z
      .string()
      .regex(
        /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/,
        "must be 32 random bytes as 64 hex digits or base64, e.g. the output of `openssl rand -hex 32`",
      )
      .optional(),
    // Whether this process runs the work engine (order submission and the schedules). Turn it off on web
    // instances when separate `npm run worker` processes do the work.
    WORKER: z.enum(["on", "off"], { error: "must be on or off" }).default("on"),
    // How often the engine looks for due work that no wake-up announced, and how long a shop's lease lives
    // without renewal (a worker that dies holds its shops this long). Defaults suit production.
    WORKER_SWEEP_MS: z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int("must be a whole number of milliseconds")
      .min(10, "must be at least 10 ms")
      .max(60_000, "must be at most 60000 ms: due work would wait too long")
      .default(2_000),
    WORKER_LEASE_TTL_MS: z.coerce
      .number({ error: "must be a number of milliseconds" })
      .int("must be a whole number of milliseconds")
      .min(1_000, "must be at least 1000 ms")
      .max(300_000, "must be at most 300000 ms: a dead worker would hold its shops too long")
      .default(30_000),
    // The memory the carrier reference searches of one process may take (app/reference/store.server.ts):
    // about 51 MB per warehouse key with the carrier's full list. Unset: 512 MB, or 40 % of V8's heap
    // limit if that is less. Above it, the least recently used key's search is let go and built again
    // when asked.
    REFERENCE_SEARCH_BUDGET_MB: z.coerce
      .number({ error: "must be a number of megabytes" })
      .int("must be a whole number of megabytes")
      .min(16, "must be at least 16 MB")
      .max(65_536, "must be at most 65536 MB")
      .optional(),
    // How many proxies in front of the app append to X-Forwarded-For (0: none, the connecting address is
    // the visitor's as far as the app can know). The storefront's rate limit trusts only the entries they
    // added: a visitor can write any X-Forwarded-For of their own, but not what our proxies append.
    TRUSTED_PROXY_HOPS: z.coerce
      .number({ error: "must be a whole number of proxies" })
      .int("must be a whole number of proxies")
      .min(0, "must not be negative")
      .max(5, "must be at most 5")
      .default(0),
  })
  .superRefine((value, ctx) => {
    if (value.NODE_ENV === "production" && !value.SKLAD_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["SKLAD_ENCRYPTION_KEY"],
        message:
          "is missing: production (`npm start`, or NODE_ENV=production) needs its own key, e.g. the output of `openssl rand -hex 32`",
      });
    }
  });

function warehouseUrl(version: "v1" | "v2") {
  return z
    .url({
      protocol: /^https?$/,
      error: `must be the warehouse's ${version} base address, e.g. ${version === "v1" ? DEFAULT_BASE_URL : DEFAULT_BASE_URL_V2}`,
    })
    .transform((url) => url.replace(/\/+$/, ""));
}

export type Env = z.infer<typeof envSchema>;

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The environment is not valid; fix these and start again (see "Configuration" in README.md):\n` +
        problems.map((problem) => `  - ${problem}`).join("\n"),
    );
    this.name = "InvalidEnvironmentError";
  }
}

/** Parses an environment; throws InvalidEnvironmentError listing every problem. Never echoes values. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable is treated as unset so that `FOO=` in a .env file falls back to the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (result.success) return result.data;
  throw new InvalidEnvironmentError(
    result.error.issues.map((issue) => `${issue.path.join(".") || "environment"} ${issue.message}`),
  );
}

let cached: Env | undefined;

/** The process environment, parsed on first use (after loading .env if present). */
export function env(): Env {
  if (!cached) {
    loadDotEnv();
    cached = parseEnv(process.env);
  }
  return cached;
}

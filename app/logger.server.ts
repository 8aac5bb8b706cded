// Structured logging: one JSON object per line on stdout, with `shop` and the job or order it concerns
// carried by child loggers. Secrets are censored by key wherever they appear in a log object.
import { pino, type Logger } from "pino";

export type Log = Logger;

/** Keys whose values never reach a log line, at the top level or nested up to three levels. */
export const SECRET_KEYS = [
  "accessToken",
  "access_token",
  "refreshToken",
  "apiSecretKey",
  "apiKey",
  "ApiKey",
  "password",
  "secret",
  "authorization",
  "Authorization",
  "x-shopify-access-token",
  "X-Shopify-Access-Token",
] as const;

const redactPaths = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]).map(
  (path) => (path.includes("-") ? path.replace(/([^.]*-[^.]*)$/, '["$1"]') : path),
);

export function createLogger(options: { level: string; destination?: NodeJS.WritableStream }): Log {
  return pino(
    {
      level: options.level,
      base: { app: "sklad-sync" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactPaths, censor: "[redacted]" },
    },
    options.destination ?? process.stdout,
  );
}

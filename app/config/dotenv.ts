// Loads a `.env` file from the working directory when one exists. Variables already set win, so the
// Shopify CLI and a deployment's own environment always take precedence over the file.
import { existsSync } from "node:fs";

export function loadDotEnv(file = ".env"): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

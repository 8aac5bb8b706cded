// `npm run setup`: applies the migrations of whichever database DATABASE_URL names (SQLite by default),
// from a fresh checkout or on top of an existing database. Safe to run on every deploy.
import { execFileSync } from "node:child_process";
import { loadDotEnv } from "../app/config/dotenv";
import { useWriteAheadLog } from "../app/db/sqlite";
import { databaseFlavour, DEFAULT_DATABASE_URL } from "../app/db/flavour";

loadDotEnv();
const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const flavour = databaseFlavour(url);
console.log(`Applying the ${flavour === "postgresql" ? "PostgreSQL" : "SQLite"} migrations...`);
try {
  execFileSync("prisma", ["migrate", "deploy"], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
} catch {
  console.error(
    flavour === "postgresql"
      ? "Migrations failed. Check that the PostgreSQL server in DATABASE_URL answers and that its database exists."
      : "Migrations failed. Check that DATABASE_URL points to a writable file path.",
  );
  process.exit(1);
}
if (flavour === "sqlite") await useWriteAheadLog(url);

// Generates the Prisma clients for both databases (run after every install), so the app can switch
// between SQLite and PostgreSQL by DATABASE_URL alone.
import { execFileSync } from "node:child_process";
import { PRISMA_LAYOUT } from "../app/db/flavour";
import { writePostgresSchema } from "./prisma-schemas";

writePostgresSchema();
for (const flavour of ["sqlite", "postgresql"] as const) {
  execFileSync("npx", ["prisma", "generate", "--no-hints", "--schema", PRISMA_LAYOUT[flavour].schema], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}
console.log("Generated the Prisma clients for SQLite and PostgreSQL");

// Prisma CLI configuration: the schema and migrations of whichever database DATABASE_URL names, reached
// through the same JavaScript driver adapters the app uses, so no native engine is ever downloaded.
import { defineConfig } from "prisma/config";
import { databaseFlavour, DEFAULT_DATABASE_URL, PRISMA_LAYOUT } from "./app/db/flavour";
import { writePostgresSchema } from "./scripts/prisma-schemas";

// The CLI reads the datasource url itself; without one it would fall back to the native engine.
process.env.DATABASE_URL ??= DEFAULT_DATABASE_URL;
const url = process.env.DATABASE_URL;
const flavour = databaseFlavour(url);
if (flavour === "postgresql") writePostgresSchema();

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: PRISMA_LAYOUT[flavour].schema,
  migrations: { path: PRISMA_LAYOUT[flavour].migrations },
  async adapter() {
    if (flavour === "postgresql") {
      // adapter-pg 6.19 cannot deserialize the `name` column type the schema engine reads; 7.x can.
      const { PrismaPg } = await import("@prisma/adapter-pg-migrate");
      return new PrismaPg({ connectionString: url });
    }
    const { PrismaLibSQL } = await import("@prisma/adapter-libsql");
    return new PrismaLibSQL({ url });
  },
});

// Derives the PostgreSQL Prisma schema from prisma/schema.prisma: the same models, another provider, and
// its own generated client, so the app can load whichever client DATABASE_URL calls for.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRISMA_LAYOUT } from "../app/db/flavour";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Where `prisma generate` puts the PostgreSQL client (the SQLite one is the default `@prisma/client`). */
export const POSTGRES_CLIENT_DIR = "node_modules/.prisma/client-postgresql";

export function derivePostgresSchema(sqliteSchema: string): string {
  const provider = /provider\s*=\s*"sqlite"/;
  const generator = /(generator client \{\n)/;
  if (!provider.test(sqliteSchema) || !generator.test(sqliteSchema)) {
    throw new Error("prisma/schema.prisma must declare `generator client` and the sqlite provider");
  }
  const output = path.relative(
    path.join(root, path.dirname(PRISMA_LAYOUT.postgresql.schema)),
    path.join(root, POSTGRES_CLIENT_DIR),
  );
  return (
    "// Derived from prisma/schema.prisma by scripts/prisma-schemas.ts; edit that file instead.\n" +
    sqliteSchema
      .replace(provider, 'provider = "postgresql"')
      .replace(generator, `$1  output     = "${output}"\n`)
  );
}

export function writePostgresSchema(): string {
  const source = readFileSync(path.join(root, PRISMA_LAYOUT.sqlite.schema), "utf8");
  const target = path.join(root, PRISMA_LAYOUT.postgresql.schema);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, derivePostgresSchema(source));
  return target;
}

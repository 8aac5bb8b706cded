// Which database a DATABASE_URL names, and where that database's schema, migrations and client live.
// Shared by the app, the Prisma CLI config and the scripts so they can never disagree.

export type DatabaseFlavour = "sqlite" | "postgresql";

/** SQLite file in the project, relative to the working directory: nothing to install. */
export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";

export function databaseFlavour(url: string): DatabaseFlavour {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgresql";
  if (/^file:/i.test(url)) return "sqlite";
  throw new Error(
    `DATABASE_URL must start with "file:" (SQLite) or "postgresql://" (PostgreSQL); got "${url.split(":")[0]}:..."`,
  );
}

// prisma/schema.prisma is the one source of the data model; the PostgreSQL schema is derived from it
// (scripts/prisma-schemas.ts) into the git-ignored cache, so the two can never drift apart.
export const PRISMA_LAYOUT = {
  sqlite: { schema: "prisma/schema.prisma", migrations: "prisma/migrations/sqlite" },
  postgresql: { schema: ".cache/prisma/postgresql.prisma", migrations: "prisma/migrations/postgresql" },
} as const satisfies Record<DatabaseFlavour, { schema: string; migrations: string }>;

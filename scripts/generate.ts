// Everything generated from the project's sources, run after every install: the Prisma clients for both
// databases, the cached Admin schema, and the GraphQL types of app/'s operations. Idempotent.
import { execFileSync } from "node:child_process";

const run = (command: string, args: string[]) => execFileSync(command, args, { stdio: "inherit" });

run("tsx", ["scripts/db-generate.ts"]);
run("tsx", ["scripts/fetch-admin-schema.ts"]);
run("graphql-codegen", ["--silent"]);

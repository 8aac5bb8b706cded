// Once per test run: migrate the template database the workers copy (SQLite unless DATABASE_URL says otherwise).
import type { TestProject } from "vitest/node";
import { prepareTemplateDatabase } from "./databases";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
    /** The DATABASE_URL the run was started with (PostgreSQL: where worker databases are created from). */
    serverDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const template = await prepareTemplateDatabase(process.env.DATABASE_URL);
  project.provide("templateDatabaseUrl", template.url);
  project.provide("serverDatabaseUrl", process.env.DATABASE_URL ?? "");
  return () => template.remove();
}

// Once per test run: migrate the template database the workers copy (SQLite unless DATABASE_URL says otherwise).
import type { TestProject } from "vitest/node";
import { prepareTemplateDatabase } from "./databases";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  project.provide("templateDatabaseUrl", await prepareTemplateDatabase(process.env.DATABASE_URL));
}

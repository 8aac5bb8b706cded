// Runs in every test file before it is imported: a database of its own, the app's environment, and the
// guards against unexpected console errors and outbound requests.
import { API_KEY, API_SECRET_KEY, APP_URL } from "@shopify/shopify-api/test-helpers";
import { Prisma } from "@prisma/client";
import { afterAll, afterEach, beforeEach, inject } from "vitest";
import { takeUnexpectedConsoleErrors, installConsoleGuard } from "./console";
import { modelDelegate } from "../../app/db.server";
import { createWorkerDatabase } from "./databases";
import { installNetworkGuard, takeUnexpectedRequests } from "./network";

installNetworkGuard();
installConsoleGuard();

const worker = process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? "0";
process.env.DATABASE_URL = await createWorkerDatabase(
  inject("templateDatabaseUrl"),
  inject("serverDatabaseUrl"),
  worker,
);
process.env.SHOPIFY_API_KEY = API_KEY;
process.env.SHOPIFY_API_SECRET = API_SECRET_KEY;
process.env.SHOPIFY_APP_URL = APP_URL;
process.env.LOG_LEVEL = "silent";
delete process.env.SCOPES;

// Each test starts with empty tables. A file that never opened the database pays nothing.
beforeEach(async () => {
  const db = globalThis.skladSyncContext?.db;
  if (!db) return;
  for (const model of Prisma.dmmf.datamodel.models) await modelDelegate(db, model.name).deleteMany();
});

afterEach(() => {
  const requests = takeUnexpectedRequests();
  const errors = takeUnexpectedConsoleErrors();
  const problems = [
    ...requests.map((request) => `unexpected outbound request: ${request}`),
    ...errors.map((error) => `unexpected console.error: ${error}`),
  ];
  if (problems.length) throw new Error(problems.join("\n"));
});

afterAll(async () => {
  const { closeAppContext } = await import("../../app/context.server");
  await closeAppContext();
});

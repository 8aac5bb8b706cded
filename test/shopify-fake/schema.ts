// The real Shopify Admin schema (cached introspection for ADMIN_API_VERSION), loaded once per process.
// Shared by the fake server and by tests that validate the app's own GraphQL operations.
import { readFileSync } from "node:fs";
import {
  buildClientSchema,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type IntrospectionQuery,
} from "graphql";
import { ADMIN_SCHEMA_PATH } from "../../scripts/admin-schema-path";

let cached: GraphQLSchema | undefined;

export function adminSchema(): GraphQLSchema {
  if (!cached) {
    const introspection = JSON.parse(readFileSync(ADMIN_SCHEMA_PATH, "utf8")) as {
      data?: IntrospectionQuery;
    };
    if (!introspection.data?.__schema) {
      throw new Error(`${ADMIN_SCHEMA_PATH} is not an introspection result; run npm run generate`);
    }
    // assumeValid: Shopify's own schema needs no re-checking, and skipping it saves time in every worker.
    cached = buildClientSchema(introspection.data, { assumeValid: true });
  }
  return cached;
}

/** Parses and validates with graphql-js's standard rules; a syntax error comes back as the only error. */
export function parseAdminOperation(source: string): {
  document?: DocumentNode;
  errors: readonly GraphQLError[];
} {
  let document: DocumentNode;
  try {
    document = parse(source);
  } catch (error) {
    if (error instanceof GraphQLError) return { errors: [error] };
    throw error;
  }
  return { document, errors: validate(adminSchema(), document) };
}

export function validateAdminOperation(source: string): readonly GraphQLError[] {
  return parseAdminOperation(source).errors;
}

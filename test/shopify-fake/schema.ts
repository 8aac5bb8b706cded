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

type ParsedOperation = { document?: DocumentNode; errors: readonly GraphQLError[] };

/**
 * Operations already parsed and validated, by source: an app sends the same few documents again and again,
 * and the fake runs in the app's process in the benchmarks, where validating each request again took CPU that
 * Shopify's own would not take from the app. A document is only read by execution, never changed.
 */
const parsedOperations = new Map<string, ParsedOperation>();
const PARSED_OPERATIONS_KEPT = 200;

/** Parses and validates with graphql-js's standard rules; a syntax error comes back as the only error. */
export function parseAdminOperation(source: string): ParsedOperation {
  let parsed = parsedOperations.get(source);
  if (!parsed) {
    parsed = parseAndValidate(source);
    if (parsedOperations.size >= PARSED_OPERATIONS_KEPT) parsedOperations.clear();
    parsedOperations.set(source, parsed);
  }
  return parsed;
}

function parseAndValidate(source: string): ParsedOperation {
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

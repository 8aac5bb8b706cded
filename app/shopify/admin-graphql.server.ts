// Runs a named Admin GraphQL operation and turns every way it can fail into a typed error, so callers
// never read `data` from a response that carried errors or was throttled.
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";

export type AdminGraphql = AdminApiContext["graphql"];

interface GraphqlErrorItem {
  message: string;
  extensions?: { code?: string };
}

/** Shopify refused the call for cost (`THROTTLED`); it may be retried after `retryAfterMs`. */
export class ShopifyThrottled extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`Shopify throttled the request; retry in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = "ShopifyThrottled";
  }
}

/** Shopify answered with GraphQL errors (a bad operation or a server-side failure). */
export class ShopifyGraphqlError extends Error {
  constructor(
    readonly operation: string,
    readonly errors: GraphqlErrorItem[],
  ) {
    super(`Shopify rejected ${operation}: ${errors.map((error) => error.message).join("; ")}`);
    this.name = "ShopifyGraphqlError";
  }
}

interface CostExtension {
  requestedQueryCost?: number;
  throttleStatus?: { currentlyAvailable: number; restoreRate: number };
}

function throttleWait(cost: CostExtension | undefined): number {
  const status = cost?.throttleStatus;
  if (!status || !cost?.requestedQueryCost || status.restoreRate <= 0) return 1000;
  const missing = Math.max(0, cost.requestedQueryCost - status.currentlyAvailable);
  return Math.ceil((missing / status.restoreRate) * 1000);
}

function asErrorItems(value: unknown): GraphqlErrorItem[] {
  if (Array.isArray(value)) return value as GraphqlErrorItem[];
  if (typeof value === "string") return [{ message: value }];
  return [{ message: "unknown error" }];
}

/**
 * Sends `query` (a named #graphql operation) and returns its `data`. The library throws its own
 * GraphqlQueryError for answers with errors; both paths end in ShopifyThrottled or ShopifyGraphqlError.
 */
export async function runAdminOperation<Data>(
  graphql: AdminGraphql,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Data> {
  const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "an anonymous operation";
  let body: { data?: Data; errors?: unknown; extensions?: { cost?: CostExtension } };
  try {
    const response = await graphql(query, variables ? { variables } : undefined);
    body = (await response.json()) as typeof body;
  } catch (error) {
    const failure = error as { body?: { errors?: unknown; extensions?: { cost?: CostExtension } } };
    if (!failure.body) throw error;
    body = failure.body as typeof body;
  }
  if (body.errors) {
    const errors = asErrorItems((body.errors as { graphQLErrors?: unknown }).graphQLErrors ?? body.errors);
    if (errors.some((error) => error.extensions?.code === "THROTTLED")) {
      throw new ShopifyThrottled(throttleWait(body.extensions?.cost));
    }
    throw new ShopifyGraphqlError(operation, errors);
  }
  if (body.data === undefined)
    throw new ShopifyGraphqlError(operation, [{ message: "no data in the answer" }]);
  return body.data;
}

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

interface UserError {
  field?: string[] | null;
  message: string;
  code?: string | null;
}

/** Shopify refused a mutation's input (`userErrors`): nothing was changed, and retrying will not help. */
export class ShopifyUserErrors extends Error {
  constructor(
    readonly operation: string,
    readonly userErrors: UserError[],
  ) {
    super(
      `Shopify refused ${operation}: ${userErrors
        .map((error) => (error.field?.length ? `${error.field.join(".")}: ${error.message}` : error.message))
        .join("; ")}`,
    );
    this.name = "ShopifyUserErrors";
  }
}

/** The Admin API as background work uses it: throttling waited out, `userErrors` turned into errors. */
export interface ShopAdmin {
  query<Data>(operation: string, variables?: Record<string, unknown>): Promise<Data>;
  /** Throws ShopifyUserErrors when any root field of the answer carries userErrors. */
  mutate<Data>(operation: string, variables?: Record<string, unknown>): Promise<Data>;
}

/** A THROTTLED answer is waited out this many times before the error reaches the caller. */
export const MAX_THROTTLE_WAITS = 5;
/** Longer waits than this are not waited out here: the step says when it is due again instead. */
const MAX_THROTTLE_WAIT_MS = 30_000;

/** How a throttle is waited out: `ms`, or less once `signal` aborts (the engine's gives its slot up meanwhile). */
export type AdminWait = (ms: number, signal?: AbortSignal) => Promise<void>;

export function createShopAdmin(
  graphql: AdminGraphql,
  options: { signal?: AbortSignal; sleep?: AdminWait } = {},
): ShopAdmin {
  const sleep = options.sleep ?? abortableSleep;
  async function run<Data>(query: string, variables?: Record<string, unknown>): Promise<Data> {
    for (let waits = 0; ; waits++) {
      try {
        return await runAdminOperation<Data>(graphql, query, variables);
      } catch (error) {
        const waitable =
          error instanceof ShopifyThrottled &&
          waits < MAX_THROTTLE_WAITS &&
          error.retryAfterMs <= MAX_THROTTLE_WAIT_MS &&
          !options.signal?.aborted;
        if (!waitable) throw error;
        await sleep(error.retryAfterMs, options.signal);
      }
    }
  }
  return {
    query: run,
    async mutate<Data>(query: string, variables?: Record<string, unknown>): Promise<Data> {
      const data = await run<Data>(query, variables);
      const userErrors = Object.values(data as Record<string, unknown>).flatMap((root) => {
        const errors = (root as { userErrors?: unknown } | null)?.userErrors;
        return Array.isArray(errors) ? (errors as UserError[]) : [];
      });
      if (userErrors.length) {
        const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "an anonymous operation";
        throw new ShopifyUserErrors(operation, userErrors);
      }
      return data;
    },
  };
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

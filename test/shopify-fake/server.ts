// A loopback HTTP server that speaks Shopify's Admin GraphQL API for tests: it authenticates per shop, validates
// against the real schema, charges calculated query cost from a per-shop leaky bucket and executes on FakeState.
// Beside it, under /__control, the calls a process of its own needs to be seeded and read (control.ts).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  execute,
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
} from "graphql";
import { ADMIN_API_VERSION } from "../../app/api-version";
import { handleControl } from "./control";
import { operationCost, SINGLE_QUERY_MAX_COST } from "./cost";
import { fieldResolver, mutationRoot, notImplemented, queryRoot, typeResolver } from "./resolvers";
import { adminSchema, parseAdminOperation } from "./schema";
import type { RecordedRequest } from "./recorded-request";
import { exchangeToken, type FakeApp } from "./oauth";
import { deliverServiceCallbacks, handleServiceControl } from "./services";
import { FakeState, type ShopStore } from "./state";
import {
  WebhookDelivery,
  type WebhookDeliveryOptions,
  type WebhookDeliveryRecord,
  type WebhookTarget,
} from "./webhooks";

export interface ShopifyFakeOptions {
  /** Clock for the leaky bucket and timestamps, in milliseconds; tests inject one to move time by hand. */
  now?: () => number;
  /** Per-shop bucket size and restore rate (points per second). */
  maximumAvailable?: number;
  restoreRate?: number;
  state?: FakeState;
  /** The app whose token exchanges the fake accepts (install through the app's embedded auth). */
  app?: FakeApp;
  /**
   * Where the shops' webhooks go (`<appUrl>/webhooks/<topic>`, signed with `secret`); absent, they stay in each
   * shop's outbox until a test drains them or turns delivery on (ShopifyFake.webhooks, or the control route).
   */
  webhooks?: WebhookTarget & WebhookDeliveryOptions;
}

export type { RecordedRequest };

/** Applies to `shop`'s bucket only, or else to every bucket, including those of shops not yet called. */
export type ThrottleSetting = { shop?: string } & Partial<
  Record<"currentlyAvailable" | "maximumAvailable" | "restoreRate", number>
>;

export interface ShopifyFake {
  /** `http://127.0.0.1:<port>`; the API lives at `${url}/admin/api/${ADMIN_API_VERSION}/graphql.json`. */
  url: string;
  graphqlUrl: string;
  /** `${url}/__control`: the control routes of control.ts. */
  controlUrl: string;
  state: FakeState;
  requests: RecordedRequest[];
  setThrottle(setting: ThrottleSetting): void;
  /** The next `count` GraphQL requests that pass authentication answer THROTTLED whatever the bucket holds. */
  throttleNext(count?: number): void;
  webhooks: {
    /** Turns delivery on (to this app) or off (null); on, the outboxes' entries go first. */
    deliverTo(target: WebhookTarget | null): void;
    /** Every webhook delivered or given up, oldest first. */
    deliveries: WebhookDeliveryRecord[];
    /** Resolves once nothing is left to deliver (or delivery is off) and no delivery is under way. */
    idle(): Promise<void>;
  };
  close(): Promise<void>;
}

const INVALID_TOKEN = "[API] Invalid API key or access token (unrecognized login or wrong password)";
const RATE_LIMIT_DOCS = "https://shopify.dev/api/usage/rate-limits";
const MAX_INPUT_ARRAY = 250;
/** Shopify serves nothing outside /admin here, so this cannot shadow one of its paths. */
const CONTROL_PREFIX = "/__control";

class LeakyBucket {
  constructor(
    public maximumAvailable: number,
    public restoreRate: number,
    public available: number,
    private updatedAt: number,
  ) {}

  refill(now: number): void {
    const restored = ((now - this.updatedAt) / 1000) * this.restoreRate;
    this.available = Math.min(this.maximumAvailable, this.available + Math.max(0, restored));
    this.updatedAt = now;
  }

  status() {
    const { maximumAvailable, restoreRate } = this;
    return { maximumAvailable, currentlyAvailable: Math.floor(this.available), restoreRate };
  }
}

// graphql-ruby's codes, which Shopify reports for invalid documents; graphql-js's messages stand in for Ruby's.
const VALIDATION_CODES: Array<[RegExp, string]> = [
  [/^Syntax Error/, "parseError"],
  [/^Cannot query field/, "undefinedField"],
  [/^Unknown argument/, "argumentNotAccepted"],
  [/argument ".*" of type ".*" is required/, "missingRequiredArguments"],
  [/^Unknown type/, "undefinedType"],
  [/^Variable ".*" is never used/, "variableNotUsed"],
  [/^Variable ".*" is not defined/, "undefinedVariable"],
  [/must have a selection of subfields|must not have a selection/, "selectionMismatch"],
  [/^Unknown fragment|^Fragment ".*" is never used/, "useAndDefineFragment"],
  [/^Unknown directive/, "undefinedDirective"],
];

function errorJson(error: GraphQLError, fallbackCode?: string): Record<string, unknown> {
  const { message, locations, path, extensions } = error.toJSON();
  const code =
    extensions?.code ?? VALIDATION_CODES.find(([pattern]) => pattern.test(message))?.[1] ?? fallbackCode;
  return {
    message,
    ...(locations ? { locations } : {}),
    ...(path ? { path } : {}),
    ...(code || extensions ? { extensions: { ...(code ? { code } : {}), ...extensions } } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Shopify caps every input array at 250 items and refuses the whole request before running anything. */
function inputSizeErrors(
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): GraphQLError[] {
  const root = adminSchema().getRootType(operation.operation);
  const errors: GraphQLError[] = [];
  for (const node of operation.selectionSet.selections) {
    const definition = node.kind === Kind.FIELD ? root?.getFields()[node.name.value] : undefined;
    if (node.kind !== Kind.FIELD || !definition) continue;
    const responseKey = node.alias?.value ?? node.name.value;
    const visit = (value: unknown, path: string[]): void => {
      if (Array.isArray(value) && value.length > MAX_INPUT_ARRAY) {
        const message = `The input array size of ${value.length} is greater than the maximum allowed of ${MAX_INPUT_ARRAY}.`;
        errors.push(
          new GraphQLError(message, {
            nodes: node,
            path: [responseKey, ...path],
            extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" },
          }),
        );
      } else if (Array.isArray(value)) value.forEach((item) => visit(item, path));
      else if (isRecord(value)) for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
    };
    visit(getArgumentValues(definition, node, variables), []);
  }
  return errors;
}

function maxCostError(cost: number): Record<string, unknown> {
  return {
    message:
      `Query cost is ${cost}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX_COST}).\n\n` +
      "See https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\n" +
      "cost of a query is calculated.\n\n" +
      "To query larger amounts of data with fewer limits, bulk operations should be used instead.\n" +
      "See https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n",
    extensions: {
      code: "MAX_COST_EXCEEDED",
      cost,
      maxCost: SINGLE_QUERY_MAX_COST,
      documentation: RATE_LIMIT_DOCS,
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startShopifyFake(options: ShopifyFakeOptions = {}): Promise<ShopifyFake> {
  const now = options.now ?? Date.now;
  const state = options.state ?? new FakeState(now);
  const requests: RecordedRequest[] = [];
  const { appUrl, secret, ...deliveryOptions } = options.webhooks ?? {};
  const delivery = new WebhookDelivery(state, deliveryOptions);
  if (appUrl !== undefined && secret !== undefined) delivery.deliverTo({ appUrl, secret });
  const defaults = {
    maximumAvailable: options.maximumAvailable ?? 2000,
    restoreRate: options.restoreRate ?? 100,
  };
  let initialAvailable: number | undefined;
  const buckets = new Map<string, LeakyBucket>();
  let forcedThrottles = 0;

  const bucketFor = (domain: string): LeakyBucket => {
    let bucket = buckets.get(domain);
    if (!bucket) {
      const { maximumAvailable, restoreRate } = defaults;
      bucket = new LeakyBucket(maximumAvailable, restoreRate, initialAvailable ?? maximumAvailable, now());
      buckets.set(domain, bucket);
    }
    bucket.refill(now());
    return bucket;
  };

  async function answer(
    store: ShopStore,
    source: string,
    variables: Record<string, unknown>,
    name: string | null,
  ) {
    const schema = adminSchema();
    const { document, errors } = parseAdminOperation(source);
    if (!document || errors.length > 0)
      return { errors: errors.map((error) => errorJson(error, "validationError")) };
    const operation = getOperationAST(document, name);
    if (!operation) {
      const message = name ? `No operation named "${name}"` : "An operation name is required";
      return { errors: [{ message, extensions: { code: "OPERATION_NOT_FOUND" } }] };
    }
    if (operation.operation === "subscription")
      return { errors: [errorJson(notImplemented("subscriptions"))] };
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
    if (coerced.errors)
      return { errors: coerced.errors.map((error) => errorJson(error, "INVALID_VARIABLE")) };
    const sizeErrors = inputSizeErrors(operation, coerced.coerced);
    if (sizeErrors.length > 0) return { errors: sizeErrors.map((error) => errorJson(error)) };

    const requestedQueryCost = operationCost(schema, document, operation, coerced.coerced);
    const bucket = bucketFor(store.shop.myshopifyDomain);
    const cost = (actualQueryCost: number | null) => ({
      cost: { requestedQueryCost, actualQueryCost, throttleStatus: bucket.status() },
    });
    if (requestedQueryCost > SINGLE_QUERY_MAX_COST) {
      return { errors: [maxCostError(requestedQueryCost)], extensions: cost(null) };
    }
    if (forcedThrottles > 0 || requestedQueryCost > bucket.available) {
      forcedThrottles = Math.max(0, forcedThrottles - 1);
      const extensions = { code: "THROTTLED", documentation: RATE_LIMIT_DOCS };
      return { errors: [{ message: "Throttled", extensions }], extensions: cost(null) };
    }

    // Shopify takes the requested cost up front and refunds the difference once the actual cost is known.
    bucket.available -= requestedQueryCost;
    const result = await execute({
      schema,
      document,
      operationName: name,
      rootValue: operation.operation === "mutation" ? mutationRoot(store) : queryRoot(store),
      contextValue: { store },
      variableValues: variables,
      fieldResolver,
      typeResolver,
    });
    const actualQueryCost = operationCost(schema, document, operation, coerced.coerced, {
      data: result.data,
    });
    bucket.available = Math.min(
      bucket.maximumAvailable,
      bucket.available + requestedQueryCost - actualQueryCost,
    );
    return {
      ...(result.errors ? { errors: result.errors.map((error) => errorJson(error)) } : {}),
      data: result.data ?? null,
      extensions: cost(actualQueryCost),
    };
  }

  const server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(body));
    };
    const handle = async () => {
      const path = new URL(request.url ?? "/", "http://fake.invalid").pathname;
      if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
        let input: unknown;
        if (request.method === "POST") {
          const text = await readBody(request);
          try {
            input = text ? JSON.parse(text) : undefined;
          } catch (error) {
            return send(400, { error: `malformed JSON: ${(error as Error).message}` });
          }
        } else request.resume();
        const route = path.slice(CONTROL_PREFIX.length).replace(/^\/+|\/+$/g, "");
        for (const shop of state.shops()) shop.releaseDueSchedules();
        const search = new URL(request.url ?? "/", "http://fake.invalid").searchParams;
        const served = await handleServiceControl(
          state,
          options.app,
          request.method ?? "GET",
          route,
          input,
          search,
        );
        if (served) return send(served.status, served.body);
        const context = { state, requests, webhooks: delivery };
        const answer = handleControl(context, request.method ?? "GET", route, input);
        return send(answer.status, answer.body);
      }
      if (request.method === "POST" && path === "/admin/oauth/access_token") {
        const domain = request.headers["x-fake-shop"] ?? request.headers.host?.replace(/:\d+$/, "");
        let parsed: unknown;
        try {
          parsed = JSON.parse(await readBody(request));
        } catch {
          parsed = undefined;
        }
        const result = exchangeToken(state, options.app, String(domain), parsed);
        return send(result.status, result.body);
      }
      const version = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(path)?.[1];
      if (request.method !== "POST" || version !== ADMIN_API_VERSION)
        return send(404, { errors: "Not Found" });
      const body = await readBody(request);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined;
      }
      const query = isRecord(parsed) && typeof parsed.query === "string" ? parsed.query : undefined;
      const variables = isRecord(parsed) && isRecord(parsed.variables) ? parsed.variables : {};
      const givenName =
        isRecord(parsed) && typeof parsed.operationName === "string" ? parsed.operationName : null;
      const token = request.headers["x-shopify-access-token"];
      const named = request.headers["x-fake-shop"] || undefined;
      const host = request.headers.host?.replace(/:\d+$/, "");
      // A named shop must exist; a loopback Host names none, so then the token picks the shop.
      const store =
        typeof named === "string"
          ? state.shop(named)
          : ((host ? state.shop(host) : undefined) ??
            (typeof token === "string" ? state.shopByToken(token) : undefined));
      const recorded: RecordedRequest = {
        shop: store?.shop.myshopifyDomain ?? (typeof named === "string" ? named : (host ?? null)),
        operationName: givenName ?? /^\s*(?:query|mutation)\s+(\w+)/m.exec(query ?? "")?.[1] ?? null,
        query: query ?? "",
        variables,
      };
      requests.push(recorded);
      if (!store || store.shop.accessToken !== token) return send(401, { errors: INVALID_TOKEN });
      if (query === undefined)
        return send(400, { errors: { query: "Required parameter missing or invalid" } });
      // Scheduled fulfillment orders that have come due open before anything reads them.
      store.releaseDueSchedules();
      const answered = await answer(store, query, variables, givenName);
      void deliverServiceCallbacks(state, store, options.app); // Shopify pings a service after the request
      recorded.actualCost =
        (answered as { extensions?: { cost?: { actualQueryCost?: number | null } } }).extensions?.cost
          ?.actualQueryCost ?? null;
      send(200, answered);
    };
    handle().catch((error: unknown) =>
      send(500, { errors: [{ message: `Shopify fake crashed: ${String(error)}` }] }),
    );
  });

  // Longer than the app's idle keep-alive (undici's pool), so a pooled connection is never closed under a request
  // about to reuse it: the client would see "fetch failed" (ECONNRESET), as Shopify's own servers do not do.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    graphqlUrl: `${url}/admin/api/${ADMIN_API_VERSION}/graphql.json`,
    controlUrl: `${url}${CONTROL_PREFIX}`,
    state,
    requests,
    setThrottle({ shop, currentlyAvailable, maximumAvailable, restoreRate }) {
      if (!shop) {
        defaults.maximumAvailable = maximumAvailable ?? defaults.maximumAvailable;
        defaults.restoreRate = restoreRate ?? defaults.restoreRate;
        initialAvailable = currentlyAvailable ?? initialAvailable;
      }
      for (const bucket of shop ? [bucketFor(shop)] : [...buckets.values()]) {
        bucket.refill(now());
        bucket.maximumAvailable = maximumAvailable ?? bucket.maximumAvailable;
        bucket.restoreRate = restoreRate ?? bucket.restoreRate;
        bucket.available = Math.min(bucket.maximumAvailable, currentlyAvailable ?? bucket.available);
      }
    },
    throttleNext(count = 1) {
      forcedThrottles += count;
    },
    webhooks: {
      deliverTo: (target) => delivery.deliverTo(target),
      deliveries: delivery.deliveries,
      idle: () => delivery.idle(),
    },
    close: async () => {
      await delivery.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // fetch keeps connections alive; close would wait for them
      });
    },
  };
}

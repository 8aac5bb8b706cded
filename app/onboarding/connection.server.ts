// Connecting the warehouse: an ApiKey, or the account's login and password exchanged for it with GetToken,
// checked with a cheap call (senderDetails, which also lists the account's senders for a later step). A
// failure is put in plain words: the key refused, the address wrong, the warehouse unreachable, the rate
// limit reached. The key itself never leaves the server.
import { z } from "zod";
import type { ServiceDeps } from "../context.server";
import type { Db } from "../db.server";
import { message, type Message } from "../i18n/message";
import { keyOf, readApiKey, type EncryptionKeyDeps } from "../settings/secret-box.server";
import { WAREHOUSE_ENVIRONMENTS } from "../warehouse/access";
import { requestApiKey, type WarehouseEndpoints } from "../warehouse/client.server";
import { warehouseEndpoints } from "../warehouse/config.server";
import { shopWarehouseClient } from "../work/shop-client.server";
import {
  WarehouseAnswerInvalid,
  WarehouseBadRequest,
  WarehouseBusinessError,
  WarehouseError,
  WarehouseNetworkError,
  WarehouseRateLimited,
  WarehouseServerError,
  WarehouseTimeout,
  WarehouseUnauthorized,
  WarehouseUnknownMethod,
} from "../warehouse/errors";

/** What the connection step's form sends. The key or the login and password; blank key: the saved one. */
export const connectionFormSchema = z.discriminatedUnion("how", [
  z.object({
    how: z.literal("apiKey"),
    apiKey: z
      .string()
      .trim()
      .max(200)
      .regex(/^[\w-]*$/, "apiKey")
      .default(""),
    environment: z.enum(WAREHOUSE_ENVIRONMENTS),
  }),
  z.object({
    how: z.literal("login"),
    login: z.string().trim().min(1, "login").max(200),
    password: z.string().min(1, "password").max(200),
    environment: z.enum(WAREHOUSE_ENVIRONMENTS),
  }),
]);
export type ConnectionForm = z.infer<typeof connectionFormSchema>;

export interface WarehouseSender {
  id: string;
  name: string;
}

export type ConnectionCheck =
  | { ok: true; senders: WarehouseSender[] }
  | {
      ok: false;
      problem: Message;
      /** The warehouse refused the key or the login: saving it would only pause the shop. */
      refused: boolean;
    };

export interface ConnectionDeps extends EncryptionKeyDeps {
  db: Db;
  clock: () => Date;
  /** The warehouse's addresses; the app's configured ones when absent. */
  endpoints?: Partial<WarehouseEndpoints>;
  fetch?: typeof fetch;
}

const seconds = (ms: number | undefined) => Math.max(1, Math.ceil((ms ?? 0) / 1000));

/** A failed warehouse call in the merchant's words. */
export function connectionProblem(error: unknown, baseUrl: string): Message {
  if (error instanceof WarehouseUnauthorized) return message("onboarding:connection.problem.refused");
  if (error instanceof WarehouseUnknownMethod) {
    return message("onboarding:connection.problem.wrongAddress", { address: baseUrl });
  }
  if (error instanceof WarehouseRateLimited) {
    return error.retryAfterMs === undefined
      ? message("onboarding:connection.problem.rateLimitedNoWait")
      : message("onboarding:connection.problem.rateLimited", { seconds: seconds(error.retryAfterMs) });
  }
  if (error instanceof WarehouseTimeout) {
    return message("onboarding:connection.problem.timeout", { seconds: seconds(error.timeoutMs) });
  }
  if (error instanceof WarehouseNetworkError) {
    return message("onboarding:connection.problem.unreachable", { address: baseUrl }, error.reason);
  }
  if (error instanceof WarehouseServerError) {
    return message("onboarding:connection.problem.serverError", { status: error.status });
  }
  if (error instanceof WarehouseBusinessError || error instanceof WarehouseBadRequest) {
    return message("onboarding:connection.problem.warehouseRefused", {}, error.messages.join("; "));
  }
  if (error instanceof WarehouseAnswerInvalid) {
    return message("onboarding:connection.problem.answerInvalid", { address: baseUrl });
  }
  if (error instanceof WarehouseError) {
    return message("onboarding:connection.problem.other", {}, error.message);
  }
  throw error;
}

/** Checks a key with senderDetails, within the key's rate limit as every process of the app counts it. */
export async function checkApiKey(
  deps: ConnectionDeps,
  shop: string,
  apiKey: string,
): Promise<ConnectionCheck> {
  const { warehouse, endpoints } = shopWarehouseClient({
    db: deps.db,
    clock: deps.clock,
    shop,
    apiKey,
    ...(deps.endpoints && { endpoints: deps.endpoints }),
    ...(deps.fetch && { fetch: deps.fetch }),
  });
  try {
    const senders = await warehouse.senderDetails();
    return { ok: true, senders: senders.map(({ id, name }) => ({ id: String(id), name })) };
  } catch (error) {
    return {
      ok: false,
      problem: connectionProblem(error, endpoints.baseUrl),
      refused: error instanceof WarehouseUnauthorized,
    };
  }
}

/** GetToken: the account's ApiKey for its login and password, or why there is none. */
export async function exchangeLogin(
  deps: ConnectionDeps,
  credentials: { login: string; password: string },
): Promise<{ ok: true; apiKey: string } | { ok: false; problem: Message; refused: boolean }> {
  const endpoints = { ...warehouseEndpoints(), ...deps.endpoints };
  try {
    const apiKey = await requestApiKey(credentials, { endpoints, ...(deps.fetch && { fetch: deps.fetch }) });
    return { ok: true, apiKey };
  } catch (error) {
    // GetToken answers a wrong login or password in its envelope (or with 401).
    if (error instanceof WarehouseBusinessError || error instanceof WarehouseUnauthorized) {
      const said = error instanceof WarehouseBusinessError ? error.messages.join("; ") : undefined;
      return { ok: false, problem: message("onboarding:connection.problem.login", {}, said), refused: true };
    }
    return { ok: false, problem: connectionProblem(error, endpoints.baseUrl), refused: false };
  }
}

/** The key the form names: typed, exchanged from a login, or the one saved (null: none anywhere). */
export async function keyOfForm(
  deps: ConnectionDeps,
  shop: string,
  form: ConnectionForm,
): Promise<{ ok: true; apiKey: string; typed: boolean } | { ok: false; problem: Message; refused: boolean }> {
  if (form.how === "login") {
    const exchanged = await exchangeLogin(deps, { login: form.login, password: form.password });
    return exchanged.ok ? { ...exchanged, typed: true } : exchanged;
  }
  if (form.apiKey) return { ok: true, apiKey: form.apiKey, typed: true };
  const row = await deps.db.shopSettings.findUnique({ where: { shop }, select: { apiKeyCiphertext: true } });
  if (!row?.apiKeyCiphertext) {
    return { ok: false, problem: message("onboarding:connection.problem.noKey"), refused: false };
  }
  const apiKey = await readApiKey(deps.db, shop, row.apiKeyCiphertext, keyOf(deps));
  return { ok: true, apiKey, typed: false };
}

/** "Test connection": checks the form's key and saves nothing. */
export async function testConnection(
  deps: ConnectionDeps,
  shop: string,
  form: ConnectionForm,
): Promise<ConnectionCheck> {
  const key = await keyOfForm(deps, shop, form);
  if (!key.ok) return key;
  return checkApiKey(deps, shop, key.apiKey);
}

export type { ServiceDeps };

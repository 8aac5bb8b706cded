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
import { WarehouseBusinessError, WarehouseError, WarehouseUnauthorized } from "../warehouse/errors";
import { warehouseErrorText } from "../warehouse/texts";

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

/**
 * A failed warehouse call in the merchant's words: the warehouse's vocabulary (app/warehouse/texts.ts), but a
 * refused key says so as the answer to this key's check (it is the key just typed or chosen, not a saved one
 * to look up in Settings).
 */
export function connectionProblem(error: unknown): Message {
  if (!(error instanceof WarehouseError)) throw error;
  if (error instanceof WarehouseUnauthorized) return message("onboarding:connection.problem.refused");
  return warehouseErrorText(error);
}

/** Checks a key with senderDetails, within the key's rate limit as every process of the app counts it. */
export async function checkApiKey(
  deps: ConnectionDeps,
  shop: string,
  apiKey: string,
): Promise<ConnectionCheck> {
  const { warehouse } = shopWarehouseClient({
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
      problem: connectionProblem(error),
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
    return { ok: false, problem: connectionProblem(error), refused: false };
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

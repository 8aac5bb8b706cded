// The warehouse simulator's HTTP server on loopback: the provider's v1 and v2 addresses with its HTTP errors
// checked in a fixed order (faults, 400, 404, 401, 429, then the operation), and the control API beside them.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  API_KEY_FIELD,
  OPERATIONS,
  type OperationName,
  RESULT_ERROR,
  V2_API_KEY_FIELD,
  V2_OPERATIONS,
} from "./spec-literals";
import { type Instant, SimulatorClock } from "./clock";
import {
  addReturn,
  advanceOrder,
  type AddReturn,
  type AdvanceOrder,
  handleControl,
  receiveDelivery,
  type ReceiveDelivery,
  seedProducts,
  type SeedProduct,
  setNotificationUrl,
  setRateLimits,
  setStageDelays,
  storeFor,
} from "./control";
import { count, emptyStats, type SimulatorCore, type SimulatorSettings, type SimulatorStats } from "./core";
import { FaultSwitches } from "./faults";
import { OrderLifecycle, type StageDelays } from "./lifecycle";
import { type RateLimitOption, RateLimiter, rateLimitSettings } from "./limits";
import { type NotificationAttempt, Notifier } from "./notifications";
import { allBranchesAnswer, type Answer, HANDLERS, KEYLESS_OPERATIONS } from "./operations";
import { defaultReferenceData, KYIV_CITY_REF, type ReferenceData } from "./reference-data";
import {
  type DeliveryRequestRecord,
  type KeyStore,
  type OrderRecord,
  type ProductRecord,
  type ReturnRecord,
  type SenderDetails,
  type SimulatorAccount,
  SimulatorState,
} from "./state";
import { STATUS_DICTIONARY } from "./statuses";
import { isObject, type JsonObject } from "./validation";

export type AccountOptions = Omit<SimulatorAccount, "senders"> & { senders?: SenderDetails[] };

export interface WarehouseSimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** 127.0.0.1 unless told; the control API answers loopback clients only, whatever the host. */
  host?: string;
  /** Replaces the default account; the first one is the simulator's `apiKey`, `login` and `password`. */
  accounts?: AccountOptions[];
  /** The provider's limits by default; `false` switches them off (the benchmark). */
  rateLimits?: RateLimitOption;
  /** Automatic stage changes after these delays on the simulator clock; null (default): control calls only. */
  stageDelaysMs?: StageDelays | null;
  duplicateIdOrder?: SimulatorSettings["duplicateIdOrder"];
  insufficientStock?: SimulatorSettings["insufficientStock"];
  statusReportIdentifiers?: boolean;
  /** First retry delay of a failed notification; each next retry doubles it. Real time. */
  notificationBaseDelayMs?: number;
  notificationTimeoutMs?: number;
  /** Start the clock at this instant (it then runs), or freeze it there. */
  clockStartAt?: Instant;
  clockFrozenAt?: Instant;
  referenceData?: ReferenceData;
  maxBodyBytes?: number;
  /** Called with every exception an operation or control call let escape (each is also answered 500). */
  onUnexpectedError?: (error: unknown) => void;
}

export interface WarehouseSimulator {
  /** `http://127.0.0.1:PORT/api`: POST `${url}/${METHOD}`. */
  url: string;
  /** `http://127.0.0.1:PORT/api2v/json`: POST with the name in the body field `method`. */
  urlV2: string;
  controlUrl: string;
  apiKey: string;
  stagingApiKey: string;
  login: string;
  password: string;
  accounts: readonly SimulatorAccount[];
  clock: SimulatorClock;
  faults: FaultSwitches;
  state: SimulatorState;
  reference: ReferenceData;
  settings: SimulatorSettings;
  /** A copy of the counters, with the notification totals. */
  stats(): SimulatorStatsSnapshot;
  store(apiKey?: string): KeyStore;
  orders(apiKey?: string): OrderRecord[];
  notificationAttempts(): NotificationAttempt[];
  /** Resolves when every notification has been delivered or given up (retries included). */
  notificationsIdle(): Promise<void>;
  /** Moves the clock on and runs the stage changes that fell due, each with its notification. */
  advanceClock(ms: number): number;
  advanceOrder(input: AdvanceOrder, apiKey?: string): OrderRecord;
  setNotificationUrl(url: string | null, apiKey?: string): void;
  seedProducts(products: SeedProduct[], apiKey?: string): ProductRecord[];
  receiveDelivery(input: ReceiveDelivery, apiKey?: string): DeliveryRequestRecord;
  addReturn(input: AddReturn, apiKey?: string): ReturnRecord;
  setStageDelays(delays: StageDelays | null): void;
  setRateLimits(limits: RateLimitOption): void;
  /** Empties every store, counter, fault and notification record; accounts, clock and settings stay. */
  reset(): void;
  close(): Promise<void>;
}

export type SimulatorStatsSnapshot = SimulatorStats & {
  notifications: { attempts: number; delivered: number; gaveUp: number };
};

export const DEFAULT_ACCOUNT: AccountOptions = {
  login: "sklad-sync-test",
  password: "sim-password-1",
  apiKey: "5b0f2c9e-7a41-4d3b-9c8e-2f6a1d4e8b70",
  stagingApiKey: "c3e8a1f4-2b6d-4e9a-8f17-6d2c4b9a0e35",
};

/**
 * `count` accounts: the default one first, then numbered ones whose keys and logins follow from their number
 * alone, so a benchmark that starts the simulator in its own process (`--accounts N`) knows every key.
 */
export function numberedAccounts(count: number): AccountOptions[] {
  const hex = (n: number) => n.toString(16).padStart(12, "0");
  return [
    DEFAULT_ACCOUNT,
    ...Array.from({ length: Math.max(0, count - 1) }, (_, index) => ({
      login: `sklad-sync-bench-${index + 1}`,
      password: `sim-password-${index + 1}`,
      apiKey: `b0000000-0000-4000-8000-${hex(index + 1)}`,
      stagingApiKey: `c0000000-0000-4000-8000-${hex(index + 1)}`,
    })),
  ];
}

function defaultSenders(account: AccountOptions): SenderDetails[] {
  return [
    {
      id: "7f3b9c21-5d4e-4a8b-9c6d-1e2f3a4b5c6d",
      name: `ТОВ "Тестовий магазин ${account.login}"`,
      EDRPOU: "41234567",
      phone: "380671234567",
      CityRef: KYIV_CITY_REF,
      CityDescription: "Київ",
      ContactPerson: "Іваненко Іван",
    },
  ];
}

const V1_NAMES = new Set<string>(
  Object.values(OPERATIONS).filter((name) => !(V2_OPERATIONS as readonly string[]).includes(name)),
);
const V2_NAMES = new Set<string>(V2_OPERATIONS);
/** The provider's GET forms ([oa]); their parameters come from the query string. */
const GET_OPERATIONS = new Set<string>([
  OPERATIONS.getStatusOrder,
  OPERATIONS.getWarehouses,
  OPERATIONS.getStreet,
]);
const CONTROL_PREFIX = "/__control";

/**
 * The body fields of the order operations, beside the key: anything else would be ignored by the 1C service,
 * which is how a client's typo goes unnoticed. (AddOrder's and EditOrder's order objects are checked field by
 * field in validation.ts.) The reference and stock operations are not listed: their extra fields pass.
 */
const BODY_FIELDS: Partial<Record<OperationName, ReadonlySet<string>>> = {
  [OPERATIONS.addOrder]: new Set([API_KEY_FIELD, "order"]),
  [OPERATIONS.editOrder]: new Set([API_KEY_FIELD, "order"]),
  [OPERATIONS.cancelOrder]: new Set([API_KEY_FIELD, "order"]),
  [OPERATIONS.reportStatusOrder]: new Set([API_KEY_FIELD, "orders"]),
  [OPERATIONS.listOrder]: new Set([API_KEY_FIELD, "datefrom", "dateto", "page"]),
};
const CANCEL_ORDER_FIELDS = new Set(["id_order"]);

const FAULT_MESSAGES: Record<number, string> = {
  401: "Неверный ApiKey",
  429: "Превышен лимит запросов, повторите позже",
  500: "Внутренняя ошибка сервера",
  502: "Сервис временно недоступен (ошибка шлюза)",
  503: "Сервис временно недоступен",
  504: "Превышено время ожидания ответа сервера",
};

function isLoopback(address: string | undefined): boolean {
  return !!address && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));
}

type Body = { kind: "json"; value: unknown } | { kind: "malformed"; reason: string } | { kind: "too-large" };

async function readJson(request: IncomingMessage, limit: number): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  if (size > limit) return { kind: "too-large" };
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch (error) {
    return {
      kind: "malformed",
      reason: text.trim() === "" ? "пустое тело запроса" : (error as Error).message,
    };
  }
}

export async function startWarehouseSimulator(
  options: WarehouseSimulatorOptions = {},
): Promise<WarehouseSimulator> {
  const accounts: SimulatorAccount[] = (options.accounts ?? [DEFAULT_ACCOUNT]).map((account) => ({
    ...account,
    senders: account.senders ?? defaultSenders(account),
  }));
  const primary = accounts[0];
  if (!primary) throw new Error("the simulator needs at least one account");
  const clock = new SimulatorClock({ startAt: options.clockStartAt, frozenAt: options.clockFrozenAt });
  const state = new SimulatorState(accounts);
  const faults = new FaultSwitches();
  const settings: SimulatorSettings = {
    duplicateIdOrder: options.duplicateIdOrder ?? "accept",
    insufficientStock: options.insufficientStock ?? "reject",
    stageDelays: options.stageDelaysMs ?? null,
    statusReportIdentifiers: options.statusReportIdentifiers ?? false,
  };
  const notifier = new Notifier({
    baseDelayMs: options.notificationBaseDelayMs ?? 1000,
    retries: 3,
    timeoutMs: options.notificationTimeoutMs ?? 5000,
    now: () => clock.now(),
  });
  const lifecycle = new OrderLifecycle({
    state,
    clock,
    notifier,
    stageDelays: () => settings.stageDelays,
    notificationRepeats: () => faults.notificationRepeats,
  });
  const core: SimulatorCore = {
    state,
    reference: options.referenceData ?? defaultReferenceData(),
    kyivCityRef: KYIV_CITY_REF,
    clock,
    lifecycle,
    notifier,
    faults,
    limiter: new RateLimiter(rateLimitSettings(options.rateLimits)),
    settings,
    stats: emptyStats(),
  };
  const stopWatchingClock = clock.onChange(() => lifecycle.processDue());
  const maxBodyBytes = options.maxBodyBytes ?? 20 * 1024 * 1024;
  const delayTimers = new Set<NodeJS.Timeout>();

  /** Top-level fields an order operation does not know, counted as `Operation.field` (see BODY_FIELDS). */
  const noteUnknownBodyFields = (operation: OperationName, body: JsonObject) => {
    const known = BODY_FIELDS[operation];
    if (!known) return;
    for (const field of Object.keys(body))
      if (!known.has(field)) count(core.stats.ignoredFields, `${operation}.${field}`);
    const order = body.order;
    if (operation === OPERATIONS.cancelOrder && isObject(order))
      for (const field of Object.keys(order))
        if (!CANCEL_ORDER_FIELDS.has(field)) count(core.stats.ignoredFields, `${operation}.order.${field}`);
  };

  const unexpected = (error: unknown) => {
    core.stats.unexpectedErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
    options.onUnexpectedError?.(error);
  };

  const reset = () => {
    state.reset();
    faults.clear();
    notifier.clearRecords();
    lifecycle.clear();
    Object.assign(core.stats, emptyStats());
  };

  const write = (response: ServerResponse, answer: Answer) => {
    const payload = answer.raw ?? JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(payload),
      ...answer.headers,
    });
    response.end(payload);
  };

  const answerApi = async (
    response: ServerResponse,
    answer: Answer,
    drop: boolean,
    operation: string,
    options: { injected?: boolean; held?: Promise<void> } = {},
  ) => {
    if (!options.injected && (answer.status >= 400 || answer.businessError)) {
      const errors = isObject(answer.body) && Array.isArray(answer.body.errors) ? answer.body.errors : [];
      core.stats.refusals.push({ operation, status: answer.status, errors: errors.map(String) });
    }
    if (options.held) await options.held;
    const delay = faults.delayMs;
    if (delay > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          delayTimers.delete(timer);
          resolve();
        }, delay);
        delayTimers.add(timer);
      });
    }
    await faults.answerMayGo();
    if (drop) {
      core.stats.droppedAnswers++;
      count(core.stats.statuses, "dropped");
      response.socket?.destroy();
      return;
    }
    count(core.stats.statuses, String(answer.status));
    write(response, answer);
  };

  const handleApi = async (
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    search: string,
  ) => {
    const v1 = path.startsWith("/api/");
    const v2 = path.startsWith("/api2v/");
    const envelope = (status: number, message: string, headers?: Record<string, string>): Answer => ({
      status,
      headers,
      body: v2
        ? { success: false, result: RESULT_ERROR, Data: {}, errors: [message] }
        : { result: RESULT_ERROR, Data: {}, errors: [message] },
    });
    const rawName = path.slice(v1 ? 5 : v2 ? 7 : 0);
    let pathName: string;
    try {
      pathName = decodeURIComponent(rawName);
    } catch {
      pathName = rawName; // a broken %-escape names no operation: 404 below
    }

    let body: Body;
    if (request.method === "POST") body = await readJson(request, maxBodyBytes);
    else {
      request.resume();
      body = { kind: "json", value: Object.fromEntries(new URLSearchParams(search)) };
    }
    const parsed = body.kind === "json" && isObject(body.value) ? body.value : undefined;
    let name: string | undefined;
    if (v1) name = pathName;
    else if (v2 && pathName === "json") name = typeof parsed?.method === "string" ? parsed.method : undefined;
    else if (v2) name = pathName;
    const known =
      name !== undefined &&
      ((v1 && V1_NAMES.has(name)) || (v2 && V2_NAMES.has(name))) &&
      (request.method === "POST" || (request.method === "GET" && v1 && GET_OPERATIONS.has(name)));
    const operation = known ? (name as OperationName) : undefined;
    const label = operation ?? "(unknown)";
    count(core.stats.requests, label);
    const answer = (reply: Answer, drop = false) => answerApi(response, reply, drop, label);

    const fault = faults.takeFailure(name, parsed);
    if (fault) {
      core.stats.faultsInjected++;
      const headers =
        fault.status === 429 ? { "retry-after": String(fault.retryAfterSeconds ?? 1) } : undefined;
      const message =
        fault.message ?? FAULT_MESSAGES[fault.status] ?? `Ошибка сервера (HTTP ${fault.status})`;
      return answerApi(response, envelope(fault.status, message, headers), false, label, {
        injected: true,
        held: faults.takeHold(name),
      });
    }
    if (body.kind === "too-large")
      return answer(envelope(413, `Превышен размер запроса: не более ${maxBodyBytes} байт`), false);
    if (body.kind === "malformed")
      return answer(envelope(400, `Некорректный JSON в теле запроса: ${body.reason}`), false);
    if (!parsed) return answer(envelope(400, "Некорректный JSON в теле запроса: ожидается объект"), false);
    if (!operation) {
      const message =
        !v1 && !v2
          ? `Адрес ${path} не найден`
          : name === undefined
            ? "Не указан метод (поле method)"
            : `Метод ${name} не найден`;
      return answer(envelope(404, message), false);
    }
    if (v2 && pathName !== "json" && parsed.method !== undefined && parsed.method !== operation)
      return answer(
        envelope(
          404,
          `Метод в теле запроса (${String(parsed.method)}) не совпадает с адресом (${operation})`,
        ),
        false,
      );

    const keyField: string = v2
      ? V2_API_KEY_FIELD[operation as keyof typeof V2_API_KEY_FIELD]
      : API_KEY_FIELD;
    const key = operation === OPERATIONS.getToken ? undefined : parsed[keyField];
    const keyGiven = key !== undefined && key !== null && key !== "";
    // The status dictionary (GET) is public reference data, like the keyless reference operations.
    const keyless =
      KEYLESS_OPERATIONS.has(operation) ||
      (request.method === "GET" && operation === OPERATIONS.getStatusOrder);
    if (!keyGiven && !keyless) return answer(envelope(401, `Не указан ${keyField}`), false);
    const store = keyGiven && typeof key === "string" ? state.store(key) : undefined;
    if (keyGiven && !store) return answer(envelope(401, `Неверный ${keyField}`), false);

    if (store) {
      const decision = core.limiter.admit(store.rate, operation, clock.now());
      if (!decision.allowed) {
        core.stats.rateLimited[decision.reason]++;
        const message =
          decision.reason === "report"
            ? `Превышен лимит запросов ${operation}: не более ${core.limiter.settings?.reportRequestsPerWindow} в минуту`
            : `Превышен лимит запросов: не более ${core.limiter.settings?.requestsPerWindow} в минуту`;
        return answer(envelope(429, message, { "retry-after": String(decision.retryAfterSeconds) }), false);
      }
    }

    noteUnknownBodyFields(operation, parsed);
    lifecycle.processDue();
    let reply: Answer;
    try {
      reply =
        request.method === "GET" && operation === OPERATIONS.getStatusOrder
          ? { status: 200, body: { result: "ok", Data: STATUS_DICTIONARY, errors: [] } }
          : request.method === "GET" && operation === OPERATIONS.getWarehouses && !parsed.CityRef
            ? allBranchesAnswer(core)
            : HANDLERS[operation](core, { operation, body: parsed as JsonObject, store });
    } catch (error) {
      unexpected(error);
      reply = envelope(
        500,
        `Внутренняя ошибка сервера: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (reply.businessError) count(core.stats.businessErrors, operation);
    return answerApi(response, reply, faults.takeDrop(operation), label, {
      held: faults.takeHold(operation),
    });
  };

  const handleControlRequest = async (
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    search: string,
  ) => {
    if (!isLoopback(request.socket.remoteAddress)) {
      request.resume();
      return write(response, {
        status: 403,
        body: { error: "the control API answers loopback clients only" },
      });
    }
    let input: unknown = undefined;
    if (request.method === "POST") {
      const body = await readJson(request, maxBodyBytes);
      if (body.kind === "too-large")
        return write(response, { status: 413, body: { error: "body too large" } });
      // An empty body is an empty command (`clock/unfreeze`, `reset`).
      if (body.kind === "malformed" && body.reason !== "пустое тело запроса")
        return write(response, { status: 400, body: { error: `malformed JSON: ${body.reason}` } });
      input = body.kind === "json" ? body.value : undefined;
    } else request.resume();
    const route = path.slice(CONTROL_PREFIX.length).replace(/^\/+|\/+$/g, "");
    const answer = handleControl(
      { core, defaultApiKey: primary.apiKey, reset },
      request.method ?? "GET",
      route,
      new URLSearchParams(search),
      input,
    );
    write(response, answer);
  };

  const server = createServer((request, response) => {
    const target = request.url ?? "/";
    const queryAt = target.indexOf("?");
    const path = queryAt < 0 ? target : target.slice(0, queryAt);
    const search = queryAt < 0 ? "" : target.slice(queryAt + 1);
    const handling =
      path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
        ? handleControlRequest(request, response, path, search)
        : handleApi(request, response, path, search);
    handling.catch((error: unknown) => {
      unexpected(error);
      if (response.headersSent) return response.destroy();
      write(response, {
        status: 500,
        body: { result: RESULT_ERROR, Data: {}, errors: [`Внутренняя ошибка сервера: ${String(error)}`] },
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const base = `http://${shownHost === "0.0.0.0" ? "127.0.0.1" : shownHost}:${address.port}`;

  return {
    url: `${base}/api`,
    urlV2: `${base}/api2v/json`,
    controlUrl: `${base}${CONTROL_PREFIX}`,
    apiKey: primary.apiKey,
    stagingApiKey: primary.stagingApiKey,
    login: primary.login,
    password: primary.password,
    accounts,
    clock,
    faults,
    state,
    reference: core.reference,
    settings,
    stats: () => {
      const attempts = notifier.attempts;
      return {
        ...structuredClone(core.stats),
        notifications: {
          attempts: attempts.length,
          delivered: attempts.filter((attempt) => attempt.delivered).length,
          gaveUp: attempts.filter((attempt) => attempt.gaveUp).length,
        },
      };
    },
    store: (apiKey = primary.apiKey) => storeFor(core, apiKey),
    orders: (apiKey = primary.apiKey) => [...storeFor(core, apiKey).orders],
    notificationAttempts: () => [...notifier.attempts],
    notificationsIdle: () => notifier.idle(),
    advanceClock: (ms) => clock.advance(ms),
    advanceOrder: (input, apiKey = primary.apiKey) => advanceOrder(core, apiKey, input),
    setNotificationUrl: (url, apiKey = primary.apiKey) => setNotificationUrl(core, apiKey, url),
    seedProducts: (products, apiKey = primary.apiKey) => seedProducts(core, apiKey, products),
    receiveDelivery: (input, apiKey = primary.apiKey) => receiveDelivery(core, apiKey, input),
    addReturn: (input, apiKey = primary.apiKey) => addReturn(core, apiKey, input),
    setStageDelays: (delays) => setStageDelays(core, delays),
    setRateLimits: (limits) => setRateLimits(core, limits),
    reset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        stopWatchingClock();
        faults.releaseAnswers();
        lifecycle.close();
        notifier.close();
        for (const timer of delayTimers) clearTimeout(timer);
        delayTimers.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections(); // fetch keeps connections alive; close would wait for them
      }),
  };
}

// One error class per way a warehouse call can fail. Each says whether the request may have taken
// effect at the warehouse, because "certainly not sent" may be retried blindly and "in doubt" may not:
// an AddOrder in doubt must be looked up before it is sent again.
import type { OperationName } from "./wire";

/**
 * - `none`: the warehouse certainly did not act on the request (refused, or never reached it).
 * - `unknown`: it may have acted (timeout or reset after sending, server error, unreadable answer).
 */
export type WarehouseEffect = "none" | "unknown";

export abstract class WarehouseError extends Error {
  abstract readonly effect: WarehouseEffect;
  /** Whether retrying later can succeed without anyone changing anything. */
  abstract readonly retryable: boolean;

  constructor(
    readonly operation: OperationName,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${operation}: ${message}`, options);
    this.name = new.target.name;
  }

  /** The request may have been carried out: look before sending it again. */
  get inDoubt(): boolean {
    return this.effect === "unknown";
  }
}

/** Our own request did not pass its schema, so it was not sent. A bug or a bad input upstream. */
export class WarehouseRequestInvalid extends WarehouseError {
  readonly effect = "none";
  readonly retryable = false;
  constructor(
    operation: OperationName,
    readonly problems: string[],
  ) {
    super(operation, `not sent, the request is not valid: ${problems.join("; ")}`);
  }
}

/** HTTP 401: the ApiKey is wrong or revoked. Nothing will work until someone changes it. */
export class WarehouseUnauthorized extends WarehouseError {
  readonly effect = "none";
  readonly retryable = false;
  constructor(operation: OperationName) {
    super(
      operation,
      "the warehouse refused the ApiKey (HTTP 401). Check the key in Settings: it may be mistyped, revoked, or a staging key used as production.",
    );
  }
}

/** HTTP 400: the warehouse could not read the body. A bug on our side, never fixed by retrying. */
export class WarehouseBadRequest extends WarehouseError {
  readonly effect = "none";
  readonly retryable = false;
  constructor(
    operation: OperationName,
    readonly messages: string[],
  ) {
    super(operation, `the warehouse could not read the request (HTTP 400)${suffix(messages)}`);
  }
}

/** HTTP 404: the address or operation name is wrong (a misconfigured base address, most likely). */
export class WarehouseUnknownMethod extends WarehouseError {
  readonly effect = "none";
  readonly retryable = false;
  constructor(
    operation: OperationName,
    readonly url: string,
  ) {
    super(
      operation,
      `the warehouse does not know this operation at ${url} (HTTP 404). Check the warehouse base addresses.`,
    );
  }
}

/**
 * HTTP 429, or our own limiter refusing before sending (`source: "local"`). `retryAfterMs` is the wait
 * the answer gave (Retry-After) or the limiter computed; undefined when the warehouse gave none.
 */
export class WarehouseRateLimited extends WarehouseError {
  readonly effect = "none";
  readonly retryable = true;
  constructor(
    operation: OperationName,
    readonly source: "warehouse" | "local",
    readonly retryAfterMs: number | undefined,
  ) {
    super(
      operation,
      source === "local"
        ? `not sent: the ApiKey's rate limit allows the next call in ${Math.ceil((retryAfterMs ?? 0) / 1000)} s`
        : `the warehouse's rate limit was exceeded (HTTP 429)${
            retryAfterMs === undefined ? "" : `; retry in ${Math.ceil(retryAfterMs / 1000)} s`
          }`,
    );
  }
}

/** HTTP 5xx. The warehouse may have done the work before failing, so the outcome is in doubt. */
export class WarehouseServerError extends WarehouseError {
  readonly effect = "unknown";
  readonly retryable = true;
  constructor(
    operation: OperationName,
    readonly status: number,
  ) {
    super(operation, `the warehouse answered HTTP ${status} (a server error)`);
  }
}

/** `result: "error"` (or v2 `success: false`): the warehouse refused the request, in its own words. */
export class WarehouseBusinessError extends WarehouseError {
  readonly effect = "none";
  readonly retryable = false;
  constructor(
    operation: OperationName,
    readonly messages: string[],
  ) {
    super(operation, `the warehouse refused the request${suffix(messages)}`);
  }
}

/**
 * The request failed in transport. `effect` is "none" only when the connection was never made
 * (refused, unknown host); a timeout or a reset after sending leaves the outcome in doubt.
 */
export class WarehouseNetworkError extends WarehouseError {
  readonly retryable = true;
  constructor(
    operation: OperationName,
    readonly effect: WarehouseEffect,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(operation, `could not reach the warehouse: ${reason}`, options);
  }
}

/** The request took longer than the configured timeout; it may still complete at the warehouse. */
export class WarehouseTimeout extends WarehouseError {
  readonly effect = "unknown";
  readonly retryable = true;
  constructor(
    operation: OperationName,
    readonly timeoutMs: number,
  ) {
    super(operation, `no answer within ${timeoutMs} ms`);
  }
}

/**
 * The answer was not what the notes describe: not JSON, or not matching the operation's schema.
 * The request was processed, so its effect is unknown; `problems` says what did not match.
 */
export class WarehouseAnswerInvalid extends WarehouseError {
  readonly effect = "unknown";
  readonly retryable = false;
  constructor(
    operation: OperationName,
    readonly problems: string[],
    readonly excerpt: string,
  ) {
    super(operation, `the warehouse's answer was not understood: ${problems.join("; ")}`);
  }
}

function suffix(messages: string[]): string {
  return messages.length ? `: ${messages.join("; ")}` : "";
}

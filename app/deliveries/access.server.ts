// What every delivery action shares: its dependencies, the shop's keyed warehouse client (a merchant's click
// waits only so long for the key's rate limits, a read gives up sooner than a send), a failed call in the
// merchant's words, and the versioned write every change after a request makes.
import type { InboundDelivery } from "@prisma/client";
import type { AppContext } from "../context.server";
import { message, type Message } from "../i18n/message";
import { savedKeyClient } from "../work/saved-key-client.server";
import type { WarehouseEndpoints } from "../warehouse/client.server";
import { WarehouseError } from "../warehouse/errors";
import { warehouseErrorText } from "../warehouse/texts";

export interface DeliveryDeps extends AppContext {
  /** Overrides of the configured warehouse endpoints (tests). */
  endpoints?: Partial<WarehouseEndpoints>;
  /**
   * How long after a request last left the warehouse could still be making it: a look-up that misses
   * before then proves nothing (WAREHOUSE_IN_DOUBT_AFTER_MS, as for orders, unless given).
   */
  missBelievedAfterMs?: number;
}

/** The longest a merchant's click waits for the key's rate limits (shared with the engine) before it says so. */
export const LIMITER_WAIT_MS = 3_000;
export const NEXT_VERSION = { version: { increment: 1 } } as const;
export const asRead = (row: InboundDelivery) => ({ id: row.id, version: row.version });

/** A read the merchant waits on (the list, a look-up, a report) gives up sooner than a send: it can be asked again. */
const READ_TIMEOUT_MS = 5_000;

/** The shop's warehouse client for sending, or for a read the merchant can simply ask again (sooner given up). */
export const keyedClient = (deps: DeliveryDeps, shop: string, purpose: "send" | "read") =>
  savedKeyClient(deps, shop, {
    maxLimiterWaitMs: LIMITER_WAIT_MS,
    ...(purpose === "read" && { timeoutMs: READ_TIMEOUT_MS }),
  });

/**
 * A failed call the merchant reads, in the warehouse's vocabulary (app/warehouse/texts.ts). A send in doubt
 * says so in its own words (deliveries:problem.inDoubt: the request may have been made), not through this.
 */
export function failureText(error: unknown): Message {
  return error instanceof WarehouseError ? warehouseErrorText(error) : message("deliveries:problem.notSent");
}

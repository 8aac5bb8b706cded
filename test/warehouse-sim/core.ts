// The simulator's moving parts in one object, shared by the operations, the control API and the in-process
// handle, and the counters tests read to assert what happened on the wire.
import type { SimulatorClock } from "./clock";
import type { FaultSwitches } from "./faults";
import type { OrderLifecycle, StageDelays } from "./lifecycle";
import type { RateLimiter } from "./limits";
import type { Notifier } from "./notifications";
import type { ReferenceData } from "./reference-data";
import type { SimulatorState } from "./state";

export interface SimulatorSettings {
  /** What AddOrder does with an id_order it already holds: the real warehouse's behaviour is unknown. */
  duplicateIdOrder: "accept" | "reject";
  /** Whether AddOrder refuses an order that needs more than is free, or accepts and over-reserves. */
  insufficientStock: "reject" | "accept";
  /** null: stages move only by control calls. */
  stageDelays: StageDelays | null;
  /**
   * ReportStatusOrder rows carry the order's other identifiers too (id_order_FF, key_order, external_id,
   * date_order), as the real warehouse might though the notes do not show it; off by default.
   */
  statusReportIdentifiers: boolean;
}

export interface SimulatorStats {
  /** Calls per operation name, whatever the answer (faults, 401, 429 and business errors included). */
  requests: Record<string, number>;
  /** Answers per HTTP status; `dropped` for answers destroyed by the drop fault. */
  statuses: Record<string, number>;
  rateLimited: { overall: number; report: number };
  businessErrors: Record<string, number>;
  ordersAccepted: number;
  /** Orders accepted (or refused, in reject mode) whose id_order the key already had. */
  duplicateIdOrders: number;
  faultsInjected: number;
  droppedAnswers: number;
  /** Request fields the warehouse ignored (an unknown name is usually a client typo). */
  ignoredFields: Record<string, number>;
  /** Exceptions that escaped an operation or control call (each answered 500). */
  unexpectedErrors: string[];
  /**
   * Every request the warehouse itself refused, in order: an HTTP error it chose (400, 401, 404, 413, 429,
   * 500) or a business error in a 200 answer. Injected faults are not here: the test asked for those.
   */
  refusals: Refusal[];
}

export interface Refusal {
  /** The operation name, or "(unknown)" for a request that named none the warehouse knows. */
  operation: string;
  status: number;
  /** The messages the answer carried. */
  errors: string[];
}

export function emptyStats(): SimulatorStats {
  return {
    requests: {},
    statuses: {},
    rateLimited: { overall: 0, report: 0 },
    businessErrors: {},
    ordersAccepted: 0,
    duplicateIdOrders: 0,
    faultsInjected: 0,
    droppedAnswers: 0,
    ignoredFields: {},
    unexpectedErrors: [],
    refusals: [],
  };
}

export function count(counter: Record<string, number>, key: string, by = 1): void {
  counter[key] = (counter[key] ?? 0) + by;
}

export interface SimulatorCore {
  state: SimulatorState;
  reference: ReferenceData;
  kyivCityRef: string;
  clock: SimulatorClock;
  lifecycle: OrderLifecycle;
  notifier: Notifier;
  faults: FaultSwitches;
  limiter: RateLimiter;
  settings: SimulatorSettings;
  stats: SimulatorStats;
}

// The one place that lists the engine's kinds of work and periodic tasks and wires them to its machinery
// (app/work/machinery.server.ts, which names none of them): a worker runs orders and the kinds below, in this
// order, in each shop's pass; a process's engine (engine.server.ts) adds the kinds and tasks a test's worker
// leaves out. A new kind of work is added here and nowhere else. It sits above the capabilities it lists
// (app/assembly/, beside the routes), so app/work/ imports none of them and no capability imports it.
import { finishIncompleteComplianceRequests } from "../compliance/compliance.server";
import { personalDataOfIdleShops, personalDataWork } from "../compliance/retention.server";
import { catalogueSyncWork } from "../catalogue/full-sync.server";
import { catalogueWork } from "../catalogue/work.server";
import { fulfillmentWork } from "../fulfillment/work.server";
import { remapWork } from "../orders/remap.server";
import { ordersWork, type OrdersWorkOptions } from "../orders/work.server";
import { referenceUpkeep, referenceWork } from "../reference/refresh.server";
import { returnsWork } from "../returns/work.server";
import { onlineLocationsWork } from "../routing/locations.server";
import { fulfillmentOrdersWork } from "../routing/work.server";
import { fulfillmentRequestsWork } from "../service/requests.server";
import { statusesWork } from "../statuses/work.server";
import { stockWork } from "../stock/work.server";
import type { BACKOFF } from "../work/backoff";
import type { PeriodicTask, WorkKind } from "../work/steps.server";
import {
  createWorkerMachinery,
  DEFAULT_LEASE_TTL_MS,
  type WorkerMachineryOptions,
} from "../work/machinery.server";
import type { Worker } from "../work/worker.server";

export interface WorkerOptions extends Omit<WorkerMachineryOptions, "kinds" | "periodic"> {
  /** The kinds of work besides those listed here (scheduled work); these always run. */
  kinds?: WorkKind[];
  /** Work of no one shop, run from the sweep (by default, pruning webhook deliveries alone). */
  periodic?: PeriodicTask[];
  /** AddOrder batches of one shop out at once (see BatchesInFlight). */
  addOrderBatchesInFlight?: OrdersWorkOptions["addOrderBatchesInFlight"];
  inDoubtSettleMs?: number;
  inDoubt?: OrdersWorkOptions["inDoubt"];
  /** Our retry timing: the real one unless a test scales it down. */
  backoff?: typeof BACKOFF;
}

const WEBHOOK_EVENT_RETENTION_MS = 7 * 24 * 3600_000;

/** Deletes webhook deliveries older than a week: Shopify stops redelivering long before. */
export const pruneWebhookEvents: PeriodicTask = {
  name: "prune_webhook_events",
  everyMs: 3600_000,
  async run({ db, clock }) {
    await db.webhookEvent.deleteMany({
      where: { receivedAt: { lt: new Date(clock().getTime() - WEBHOOK_EVENT_RETENTION_MS) } },
    });
  },
};

/** Compliance requests recorded but left unfinished (a crash mid-erasure) are finished by the sweep. */
export const finishComplianceRequests: PeriodicTask = {
  name: "finish_compliance_requests",
  everyMs: 5 * 60_000,
  async run(deps) {
    await finishIncompleteComplianceRequests(deps);
  },
};

/**
 * The kinds a process's engine runs besides a worker's own. Here rather than among the worker's own kinds:
 * a worker a test starts fetches the whole branch list (tens of thousands of records) only when the test
 * asks for this kind.
 */
export const ENGINE_KINDS: readonly WorkKind[] = [referenceWork];

/** The periodic tasks of a process's engine. */
export const ENGINE_PERIODIC_TASKS: readonly PeriodicTask[] = [
  pruneWebhookEvents,
  finishComplianceRequests,
  referenceUpkeep,
  personalDataOfIdleShops,
];

/** A worker: the machinery running orders and every kind below, then `options.kinds`. */
export function createWorker(options: WorkerOptions): Worker {
  const {
    kinds = [],
    periodic = [pruneWebhookEvents],
    addOrderBatchesInFlight,
    inDoubtSettleMs,
    inDoubt,
    backoff,
    ...machinery
  } = options;
  return createWorkerMachinery({
    ...machinery,
    periodic,
    kinds: [
      ordersWork({
        ...(addOrderBatchesInFlight !== undefined && { addOrderBatchesInFlight }),
        ...(inDoubtSettleMs !== undefined && { inDoubtSettleMs }),
        ...(backoff && { backoff }),
        ...(inDoubt && { inDoubt }),
        recovery: {
          leaseTtlMs: options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
          requestTimeoutMs: options.endpoints.timeoutMs,
        },
      }),
      // Fulfillment orders read right after orders: what they change goes in the next pass, which follows at once.
      fulfillmentOrdersWork,
      onlineLocationsWork,
      remapWork,
      statusesWork,
      fulfillmentWork,
      catalogueWork,
      stockWork,
      returnsWork,
      catalogueSyncWork,
      personalDataWork,
      fulfillmentRequestsWork,
      ...kinds,
    ],
  });
}

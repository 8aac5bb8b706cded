// Routing, the reading side: fulfillment orders as Shopify gives them (a page of the top-level query, of
// assignedFulfillmentOrders, or of an order's own), stored as ShopifyFulfillmentOrder rows. A row keeps the newest
// version read (by Shopify's updatedAt), whatever order the reads come back in; the service mode's answer columns
// (answer, answerDueAt, answerAttempts, answered, answerProblem) are never written here.
import type { ServiceDeps } from "../context.server";
import { isUniqueViolation } from "../db.server";

/** A fulfillment order as every read of this app asks for it (FULFILLMENT_ORDER_FIELDS in fields.ts). */
export interface FulfillmentOrderNode {
  id: string;
  /** The order's GID. */
  orderId: string;
  status: string;
  requestStatus: string;
  updatedAt: string;
  fulfillAt?: string | null;
  deliveryMethod?: { methodType: string } | null;
  assignedLocation: { location?: { id: string } | null };
  fulfillmentHolds: Array<{ id: string; reason: string; heldByRequestingApp: boolean }>;
  lineItems: {
    nodes: Array<{
      id: string;
      sku?: string | null;
      totalQuantity: number;
      remainingQuantity: number;
      lineItem: { id: string };
    }>;
    /** As the fragment asks: more lines than one page holds are read by completeLines (read.server.ts). */
    pageInfo?: { hasNextPage: boolean; endCursor?: string | null };
  };
}

/** A stored line (ShopifyFulfillmentOrder.lines). */
export interface StoredFulfillmentOrderLine {
  id: string;
  lineItemId: string;
  sku: string | null;
  totalQuantity: number;
  remainingQuantity: number;
}

/** A stored hold (ShopifyFulfillmentOrder.holds). */
export interface StoredFulfillmentHold {
  id: string;
  reason: string;
  heldByRequestingApp: boolean;
}

/** The numeric id of a Shopify GID (`gid://shopify/Order/123` → `123`). */
export function numericId(gid: string): string {
  const id = /\/(\d+)(?:\?.*)?$/.exec(gid)?.[1];
  if (!id) throw new Error(`not a Shopify GID: ${gid}`);
  return id;
}

/** The columns a node sets, as stored (the facts compared to tell a change). */
function factsOf(node: FulfillmentOrderNode) {
  const lines: StoredFulfillmentOrderLine[] = node.lineItems.nodes.map((line) => ({
    id: line.id,
    lineItemId: line.lineItem.id,
    sku: line.sku ?? null,
    totalQuantity: line.totalQuantity,
    remainingQuantity: line.remainingQuantity,
  }));
  const holds: StoredFulfillmentHold[] = node.fulfillmentHolds.map((hold) => ({
    id: hold.id,
    reason: hold.reason,
    heldByRequestingApp: hold.heldByRequestingApp,
  }));
  return {
    shopifyOrderId: numericId(node.orderId),
    // A location Shopify no longer names (deleted) is never the warehouse's.
    locationId: node.assignedLocation.location?.id ?? "",
    status: node.status,
    requestStatus: node.requestStatus,
    deliveryMethod: node.deliveryMethod?.methodType ?? null,
    fulfillAt: node.fulfillAt ? new Date(node.fulfillAt) : null,
    lines: JSON.stringify(lines),
    holds: JSON.stringify(holds),
  };
}

type Facts = ReturnType<typeof factsOf>;

function sameFacts(row: Facts, facts: Facts): boolean {
  return (
    row.shopifyOrderId === facts.shopifyOrderId &&
    row.locationId === facts.locationId &&
    row.status === facts.status &&
    row.requestStatus === facts.requestStatus &&
    row.deliveryMethod === facts.deliveryMethod &&
    (row.fulfillAt?.getTime() ?? null) === (facts.fulfillAt?.getTime() ?? null) &&
    row.lines === facts.lines &&
    row.holds === facts.holds
  );
}

/**
 * Stores what was read, keeping a row's newer version (by Shopify's updatedAt), and answers the numeric ids of
 * the orders whose rows changed, for reconcileRouting: a row new, or any of its facts (order, location, status,
 * request status, delivery method, fulfillAt, lines, holds) different. A node older than the stored row changes
 * nothing; one as old as it replaces it only where its facts differ (a later read of the same second). A newer
 * updatedAt with the same facts moves the row's updatedAt, and answers nothing. Every change of facts raises
 * the row's `version`, so the service mode's conditional writes on it see that the request changed meanwhile.
 */
export async function storeFulfillmentOrders(
  deps: ServiceDeps,
  shop: string,
  nodes: readonly FulfillmentOrderNode[],
  /**
   * When the read of these nodes began. A stored row of the same updatedAt written after it (by a read that
   * saw a change of that same second after this read's answer) is kept: the later write wins a tie, not the
   * later store. The next read of a row read within its second reads it again (read.server.ts).
   */
  readStartedAt?: Date,
): Promise<string[]> {
  // One node per fulfillment order: the newest of the batch.
  const newest = new Map<string, FulfillmentOrderNode>();
  for (const node of nodes) {
    const kept = newest.get(node.id);
    if (!kept || Date.parse(node.updatedAt) >= Date.parse(kept.updatedAt)) newest.set(node.id, node);
  }
  if (newest.size === 0) return [];
  const { db } = deps;
  const stored = await db.shopifyFulfillmentOrder.findMany({
    where: { shop, id: { in: [...newest.keys()] } },
    select: {
      id: true,
      shopifyOrderId: true,
      locationId: true,
      status: true,
      requestStatus: true,
      deliveryMethod: true,
      fulfillAt: true,
      lines: true,
      holds: true,
      shopifyUpdatedAt: true,
      readAt: true,
    },
  });
  const rows = new Map(stored.map((row) => [row.id, row]));
  const changed = new Set<string>();
  const now = deps.clock();
  // The rows never stored: one statement for all (the common case, a first read). Should one have been stored
  // meanwhile by another read, the statement fails as a whole and each is stored on its own below.
  const fresh = [...newest.values()].filter((node) => !rows.has(node.id));
  let created = false;
  if (fresh.length > 1) {
    const data = fresh.map((node) => ({
      shop,
      id: node.id,
      ...factsOf(node),
      shopifyUpdatedAt: new Date(node.updatedAt),
      readAt: now,
      reconcilePending: true,
    }));
    try {
      await db.shopifyFulfillmentOrder.createMany({ data });
      for (const row of data) changed.add(row.shopifyOrderId);
      created = true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  for (const node of newest.values()) {
    if (created && !rows.has(node.id)) continue;
    const facts = factsOf(node);
    const updatedAt = new Date(node.updatedAt);
    let row = rows.get(node.id);
    if (!row) {
      try {
        await db.shopifyFulfillmentOrder.create({
          data: {
            shop,
            id: node.id,
            ...facts,
            shopifyUpdatedAt: updatedAt,
            readAt: now,
            reconcilePending: true,
          },
        });
        changed.add(facts.shopifyOrderId);
        continue;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Stored meanwhile by another read: compared with it as with any stored row.
        row = (await db.shopifyFulfillmentOrder.findUnique({ where: { shop_id: { shop, id: node.id } } }))!;
      }
    }
    if (row.shopifyUpdatedAt > updatedAt) continue;
    const same = sameFacts(row, facts);
    if (
      !same &&
      readStartedAt &&
      row.shopifyUpdatedAt.getTime() === updatedAt.getTime() &&
      row.readAt > readStartedAt
    )
      continue;
    if (same && row.shopifyUpdatedAt.getTime() === updatedAt.getTime()) continue;
    // Conditional on what the look above decided from: a newer version stored meanwhile stands, and so does one
    // of the same second stored meanwhile by a read that began after this one (the later write wins a tie, as
    // above; decided on the row as first looked at, a stale read would write over the hold's release).
    const tie =
      !same && readStartedAt
        ? { shopifyUpdatedAt: updatedAt, readAt: { lte: readStartedAt } }
        : { shopifyUpdatedAt: updatedAt };
    const { count } = await db.shopifyFulfillmentOrder.updateMany({
      where: { shop, id: node.id, OR: [{ shopifyUpdatedAt: { lt: updatedAt } }, tie] },
      data: same
        ? { shopifyUpdatedAt: updatedAt, readAt: now }
        : {
            ...facts,
            shopifyUpdatedAt: updatedAt,
            readAt: now,
            version: { increment: 1 },
            reconcilePending: true,
            // New facts: the order's reconcile is tried afresh, as often as a first time.
            reconcileFailures: 0,
            reconcileRetryAt: null,
          },
    });
    if (count && !same) {
      changed.add(facts.shopifyOrderId);
      // A fulfillment order moved to another order (Shopify never does, but a merge may renumber): both change.
      if (row.shopifyOrderId !== facts.shopifyOrderId) changed.add(row.shopifyOrderId);
    }
  }
  return [...changed];
}

/**
 * Rows a reconcile has not yet taken, at most `take` (each with the version that reconcile will have seen); a
 * row whose order's reconcile failed only once its retry is due (failures.server.ts).
 */
export async function owedReconciles(deps: Pick<ServiceDeps, "db" | "clock">, shop: string, take = 500) {
  return deps.db.shopifyFulfillmentOrder.findMany({
    where: {
      shop,
      reconcilePending: true,
      OR: [{ reconcileRetryAt: null }, { reconcileRetryAt: { lte: deps.clock() } }],
    },
    select: { id: true, shopifyOrderId: true, version: true },
    orderBy: { readAt: "asc" },
    take,
  });
}

/**
 * These rows' reconcile done: cleared where the version is still the one read before it (a change stored
 * meanwhile stays owed).
 */
export async function reconcilesTaken(
  deps: Pick<ServiceDeps, "db">,
  shop: string,
  rows: ReadonlyArray<{ id: string; version: number }>,
): Promise<void> {
  const byVersion = new Map<number, string[]>();
  for (const row of rows) byVersion.set(row.version, [...(byVersion.get(row.version) ?? []), row.id]);
  for (const [version, ids] of byVersion)
    await deps.db.shopifyFulfillmentOrder.updateMany({
      where: { shop, id: { in: ids }, version, reconcilePending: true },
      data: { reconcilePending: false },
    });
}

/** The stored fulfillment orders of an order, as reconcileRouting and the service mode read them. */
export async function fulfillmentOrdersOf(
  deps: Pick<ServiceDeps, "db">,
  shop: string,
  shopifyOrderId: string,
) {
  const rows = await deps.db.shopifyFulfillmentOrder.findMany({
    where: { shop, shopifyOrderId },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => ({
    ...row,
    lines: JSON.parse(row.lines) as StoredFulfillmentOrderLine[],
    holds: JSON.parse(row.holds) as StoredFulfillmentHold[],
  }));
}

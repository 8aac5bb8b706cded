// Shopify's mandatory compliance webhooks: answer a customer's data request, erase a customer, erase a
// shop. Each webhook is recorded once (by shop and webhook id): a redelivery of a completed one changes
// nothing, one left incomplete is done again, and a sweep finishes any that no redelivery came for.
import { Prisma } from "@prisma/client";
import type { Clock } from "../context.server";
import { isUniqueViolation, modelDelegate, type Db } from "../db.server";
import type { Log } from "../logger.server";
import { PERSONAL_DATA_SOURCES, type CustomerRef } from "./personal-data.server";

interface Deps {
  db: Db;
  log: Log;
  clock: Clock;
}

export type ComplianceOutcome = "done" | "duplicate";

export const COMPLIANCE_TOPICS = {
  customersDataRequest: "customers/data_request",
  customersRedact: "customers/redact",
  shopRedact: "shop/redact",
} as const;

/** A compliance request as recorded: enough to do (or do again) what it asks. */
interface RecordedRequest {
  id: string;
  shop: string;
  topic: string;
  customerId: string | null;
  orderIds: string | null;
  dataRequestId: string | null;
  completedAt: Date | null;
}

const RECORDED = {
  id: true,
  shop: true,
  topic: true,
  customerId: true,
  orderIds: true,
  dataRequestId: true,
  completedAt: true,
} as const;

/**
 * Records a compliance webhook, or finds it when this is a redelivery. A request recorded but never
 * completed (the process stopped midway) comes back to be done again: erasing twice is harmless.
 */
async function recordRequest(
  { db, clock }: Deps,
  data: {
    shop: string;
    topic: string;
    webhookId: string;
    customerId: string;
    orderIds: string[];
    dataRequestId?: string;
  },
): Promise<RecordedRequest> {
  try {
    return await db.complianceRequest.create({
      data: { ...data, orderIds: JSON.stringify(data.orderIds), receivedAt: clock() },
      select: RECORDED,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return db.complianceRequest.findUniqueOrThrow({
      where: { shop_webhookId: { shop: data.shop, webhookId: data.webhookId } },
      select: RECORDED,
    });
  }
}

/** The customer a recorded request is about, as the personal-data sources look for them. */
function customerOf(request: RecordedRequest): CustomerRef {
  const orderIds: unknown = request.orderIds ? JSON.parse(request.orderIds) : [];
  return {
    customerId: request.customerId ?? "",
    // Neither is used to find a customer's data (ids are); the request keeps no copy of them.
    email: null,
    phone: null,
    orderIds: Array.isArray(orderIds) ? orderIds.map(String) : [],
  };
}

/** customers/data_request: gathers what we hold about the customer into a report the merchant can hand over. */
export async function answerCustomerDataRequest(
  deps: Deps,
  input: { shop: string; webhookId: string; dataRequestId: string; customer: CustomerRef },
): Promise<ComplianceOutcome> {
  const { customer } = input;
  const request = await recordRequest(deps, {
    shop: input.shop,
    topic: COMPLIANCE_TOPICS.customersDataRequest,
    webhookId: input.webhookId,
    customerId: customer.customerId,
    orderIds: customer.orderIds,
    dataRequestId: input.dataRequestId,
  });
  if (request.completedAt) return "duplicate";
  await completeDataRequest(deps, request);
  return "done";
}

async function completeDataRequest({ db, log, clock }: Deps, request: RecordedRequest): Promise<void> {
  const { shop } = request;
  const customer = customerOf(request);
  const sources = [];
  for (const source of PERSONAL_DATA_SOURCES) {
    sources.push({ table: source.table, records: await source.describe(db, shop, customer) });
  }
  const report = {
    dataRequestId: request.dataRequestId,
    customerId: customer.customerId,
    ordersRequested: customer.orderIds,
    generatedAt: clock().toISOString(),
    sources,
  };
  await db.complianceRequest.update({
    where: { id: request.id },
    data: { report: JSON.stringify(report), completedAt: clock() },
  });
  const records = sources.reduce((sum, source) => sum + source.records.length, 0);
  log.info(
    { shop, event: "compliance.data_request", complianceRequestId: request.id, records },
    "customer data report ready",
  );
}

/** customers/redact: erases the customer's personal data from every table that holds any. */
export async function redactCustomer(
  deps: Deps,
  input: { shop: string; webhookId: string; customer: CustomerRef },
): Promise<ComplianceOutcome> {
  const { customer } = input;
  const request = await recordRequest(deps, {
    shop: input.shop,
    topic: COMPLIANCE_TOPICS.customersRedact,
    webhookId: input.webhookId,
    customerId: customer.customerId,
    orderIds: customer.orderIds,
  });
  if (request.completedAt) return "duplicate";
  await completeCustomerRedaction(deps, request);
  return "done";
}

async function completeCustomerRedaction({ db, log, clock }: Deps, request: RecordedRequest): Promise<void> {
  const { shop } = request;
  const customer = customerOf(request);
  const erased: Record<string, number> = {};
  const at = clock();
  for (const source of PERSONAL_DATA_SOURCES)
    erased[source.table] = await source.erase(db, shop, customer, at);
  await db.complianceRequest.update({ where: { id: request.id }, data: { completedAt: clock() } });
  log.info(
    { shop, event: "compliance.customer_redacted", complianceRequestId: request.id, erased },
    "customer redacted",
  );
}

/** A request younger than this may still be in the hands of the request that recorded it. */
export const COMPLIANCE_SWEEP_AFTER_MS = 60_000;

/**
 * Finishes compliance requests recorded but never completed (the process stopped midway, or the work
 * failed and Shopify has not redelivered yet). The work engine calls this periodically; one request
 * failing does not stop the others. Answers how many were finished.
 */
export async function finishIncompleteComplianceRequests(
  deps: Deps,
  options: { olderThanMs?: number } = {},
): Promise<number> {
  const { db, log, clock } = deps;
  const before = new Date(clock().getTime() - (options.olderThanMs ?? COMPLIANCE_SWEEP_AFTER_MS));
  const left = await db.complianceRequest.findMany({
    where: { completedAt: null, receivedAt: { lt: before } },
    select: RECORDED,
    orderBy: { receivedAt: "asc" },
  });
  let finished = 0;
  for (const request of left) {
    try {
      if (request.topic === COMPLIANCE_TOPICS.customersRedact) {
        await completeCustomerRedaction(deps, request);
      } else if (request.topic === COMPLIANCE_TOPICS.customersDataRequest) {
        await completeDataRequest(deps, request);
      } else {
        continue;
      }
      finished++;
    } catch (error) {
      log.error(
        { shop: request.shop, event: "compliance.sweep_failed", complianceRequestId: request.id, err: error },
        "an unfinished compliance request failed again; it will be tried on the next sweep",
      );
    }
  }
  return finished;
}

/** The Prisma models that carry a `shop` column, i.e. everything that belongs to a shop. */
export function shopScopedModels(): string[] {
  return Prisma.dmmf.datamodel.models
    .filter((model) => model.fields.some((field) => field.name === "shop"))
    .map((model) => model.name);
}

/** shop/redact: erases everything the app holds for the shop, in every table, in one transaction. */
export async function redactShop({ db, log }: Omit<Deps, "clock">, input: { shop: string }): Promise<void> {
  const models = shopScopedModels();
  const deletions = models.map((model) =>
    modelDelegate(db, model).deleteMany({ where: { shop: input.shop } }),
  );
  const results = await db.$transaction(deletions);
  const deleted = Object.fromEntries(models.map((model, index) => [model, results[index]?.count ?? 0]));
  log.info({ shop: input.shop, event: "compliance.shop_redacted", deleted }, "shop data erased");
}

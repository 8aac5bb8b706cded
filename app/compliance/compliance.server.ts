// Shopify's mandatory compliance webhooks: answer a customer's data request, erase a customer, erase a
// shop. Each webhook is recorded once (by shop and webhook id), so a redelivery changes nothing.
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

/** Records a compliance webhook; answers false when it was already received (a redelivery). */
async function recordRequest(
  db: Db,
  data: { shop: string; topic: string; webhookId: string; customerId?: string; orderIds?: string[] },
): Promise<string | null> {
  try {
    const created = await db.complianceRequest.create({
      data: { ...data, orderIds: data.orderIds ? JSON.stringify(data.orderIds) : null },
      select: { id: true },
    });
    return created.id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** customers/data_request: gathers what we hold about the customer into a report the merchant can hand over. */
export async function answerCustomerDataRequest(
  { db, log, clock }: Deps,
  input: { shop: string; webhookId: string; dataRequestId: string; customer: CustomerRef },
): Promise<ComplianceOutcome> {
  const { shop, customer } = input;
  const id = await recordRequest(db, {
    shop,
    topic: COMPLIANCE_TOPICS.customersDataRequest,
    webhookId: input.webhookId,
    customerId: customer.customerId,
    orderIds: customer.orderIds,
  });
  if (!id) return "duplicate";
  const sources = [];
  for (const source of PERSONAL_DATA_SOURCES) {
    sources.push({ table: source.table, records: await source.describe(db, shop, customer) });
  }
  const report = {
    dataRequestId: input.dataRequestId,
    customerId: customer.customerId,
    ordersRequested: customer.orderIds,
    generatedAt: clock().toISOString(),
    sources,
  };
  await db.complianceRequest.update({
    where: { id },
    data: { report: JSON.stringify(report), completedAt: clock() },
  });
  const records = sources.reduce((sum, source) => sum + source.records.length, 0);
  log.info(
    { shop, event: "compliance.data_request", complianceRequestId: id, records },
    "customer data report ready",
  );
  return "done";
}

/** customers/redact: erases the customer's personal data from every table that holds any. */
export async function redactCustomer(
  { db, log, clock }: Deps,
  input: { shop: string; webhookId: string; customer: CustomerRef },
): Promise<ComplianceOutcome> {
  const { shop, customer } = input;
  const id = await recordRequest(db, {
    shop,
    topic: COMPLIANCE_TOPICS.customersRedact,
    webhookId: input.webhookId,
    customerId: customer.customerId,
    orderIds: customer.orderIds,
  });
  if (!id) return "duplicate";
  const erased: Record<string, number> = {};
  for (const source of PERSONAL_DATA_SOURCES) erased[source.table] = await source.erase(db, shop, customer);
  await db.complianceRequest.update({ where: { id }, data: { completedAt: clock() } });
  log.info(
    { shop, event: "compliance.customer_redacted", complianceRequestId: id, erased },
    "customer redacted",
  );
  return "done";
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

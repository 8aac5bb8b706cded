// Where we hold a customer's personal data, table by table. customers/data_request lists it and
// customers/redact erases it through this registry; test/compliance fails when a table is in neither
// PERSONAL_DATA_SOURCES nor TABLES_WITHOUT_CUSTOMER_DATA, so a new table cannot be forgotten.
import type { Db } from "../db.server";

export interface CustomerRef {
  customerId: string;
  email: string | null;
  phone: string | null;
  orderIds: string[];
}

export interface PersonalDataSource {
  /** The Prisma model that holds the data. */
  table: string;
  /** What this table holds about the customer, ready to hand to the merchant. */
  describe(db: Db, shop: string, customer: CustomerRef): Promise<Record<string, unknown>[]>;
  /** Erases it; answers how many records were changed or deleted. */
  erase(db: Db, shop: string, customer: CustomerRef): Promise<number>;
}

export const PERSONAL_DATA_SOURCES: PersonalDataSource[] = [
  {
    // A data request's report is a copy of the customer's data, so it goes when the customer is redacted.
    // The request itself stays (id, topic, dates) as the record that we answered it.
    table: "ComplianceRequest",
    async describe(db, shop, customer) {
      const requests = await db.complianceRequest.findMany({
        where: { shop, customerId: customer.customerId, report: { not: null } },
        select: { id: true, topic: true, receivedAt: true, completedAt: true },
        orderBy: { receivedAt: "asc" },
      });
      return requests.map((request) => ({ kind: "earlier data request report", ...request }));
    },
    async erase(db, shop, customer) {
      const { count } = await db.complianceRequest.updateMany({
        where: { shop, customerId: customer.customerId, report: { not: null } },
        data: { report: null },
      });
      return count;
    },
  },
];

/** Tables that hold no customer's personal data, each with the reason. */
export const TABLES_WITHOUT_CUSTOMER_DATA: Record<string, string> = {
  Session: "the merchant's staff sessions, not customers; deleted on uninstall and shop/redact",
  Shop: "the store's own facts (name, currency, time zone, locale)",
};

-- Reconciles of a fulfillment order's order that failed for that order alone, and when an owed row is next
-- tried (app/routing/failures.server.ts).
-- AlterTable
ALTER TABLE "ShopifyFulfillmentOrder" ADD COLUMN "reconcileFailures" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "ShopifyFulfillmentOrder" ADD COLUMN "reconcileRetryAt" DATETIME;

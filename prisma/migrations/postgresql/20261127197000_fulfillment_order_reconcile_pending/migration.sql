-- Fulfillment orders whose stored facts their order's reconcile has not yet taken (app/routing/work.server.ts).
-- AlterTable
ALTER TABLE "ShopifyFulfillmentOrder" ADD COLUMN "reconcilePending" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "ShopifyFulfillmentOrder_shop_reconcilePending_idx" ON "ShopifyFulfillmentOrder"("shop", "reconcilePending");

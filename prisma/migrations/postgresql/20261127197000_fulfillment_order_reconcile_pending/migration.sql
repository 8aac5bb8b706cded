-- Fulfillment orders whose stored facts their order's reconcile has not yet taken (app/routing/work.server.ts).
-- AlterTable
ALTER TABLE "ShopifyFulfillmentOrder" ADD COLUMN "reconcilePending" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "ShopifyFulfillmentOrder_shop_reconcilePending_idx" ON "ShopifyFulfillmentOrder"("shop", "reconcilePending");

-- Fulfillment orders a webhook named, read by id by the next read (app/routing/work.server.ts).
-- CreateTable
CREATE TABLE "RoutingHint" (
    "shop" TEXT NOT NULL,
    "fulfillmentOrderId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RoutingHint_pkey" PRIMARY KEY ("shop","fulfillmentOrderId")
);

-- CreateIndex
CREATE INDEX "RoutingHint_shop_at_idx" ON "RoutingHint"("shop", "at");

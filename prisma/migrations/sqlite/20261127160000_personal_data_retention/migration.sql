-- Keeping customers' details no longer than the work needs (app/compliance/retention.server.ts): how many
-- days a shop keeps them once an order is finished, and when an order's were removed.
-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "personalDataDays" INTEGER NOT NULL DEFAULT 90;

-- AlterTable
ALTER TABLE "WarehouseOrder" ADD COLUMN "dataErasedAt" DATETIME;

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_dataErasedAt_stage_stageAt_idx" ON "WarehouseOrder"("shop", "dataErasedAt", "stage", "stageAt");

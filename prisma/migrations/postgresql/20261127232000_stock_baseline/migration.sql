-- The baseline of the stock sync (docs/decisions/021-stock-sync-at-rest.md): a scheduled run with nothing
-- changed since the last sync that read Shopify skips reading it, for an hour at most. The index finds the
-- latest order change of a shop in one step.
-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "stockBaseline" TEXT,
ADD COLUMN     "stockBaselineAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "StockSync" ADD COLUMN     "shopifyRead" BOOLEAN NOT NULL DEFAULT true;

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_orderUpdatedAt_idx" ON "WarehouseOrder"("shop", "orderUpdatedAt");

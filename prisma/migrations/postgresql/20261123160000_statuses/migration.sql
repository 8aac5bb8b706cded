-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "locationId" TEXT,
ADD COLUMN     "locationName" TEXT,
ADD COLUMN     "notifyTokenCiphertext" TEXT,
ADD COLUMN     "notifyTokenDigest" TEXT,
ADD COLUMN     "statusSettings" TEXT NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "WarehouseOrder" ADD COLUMN     "carrierStatus" TEXT,
ADD COLUMN     "fulfilledTtn" TEXT,
ADD COLUMN     "fulfillmentAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "fulfillmentDueAt" TIMESTAMP(3),
ADD COLUMN     "fulfillmentEvent" TEXT,
ADD COLUMN     "fulfillmentId" TEXT,
ADD COLUMN     "fulfillmentProblem" TEXT,
ADD COLUMN     "statusCheckedAt" TIMESTAMP(3),
ADD COLUMN     "statusHintAt" TIMESTAMP(3),
ADD COLUMN     "warehouseStatus" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "ShopSettings_notifyTokenDigest_key" ON "ShopSettings"("notifyTokenDigest");

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_keyOrder_idx" ON "WarehouseOrder"("shop", "keyOrder");
CREATE INDEX "WarehouseOrder_shop_idOrderFF_idx" ON "WarehouseOrder"("shop", "idOrderFF");

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_state_statusCheckedAt_idx" ON "WarehouseOrder"("shop", "state", "statusCheckedAt");

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_fulfillmentDueAt_idx" ON "WarehouseOrder"("shop", "fulfillmentDueAt");


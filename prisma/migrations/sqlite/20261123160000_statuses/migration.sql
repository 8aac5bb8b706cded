-- Statuses back and the Shopify fulfillment (issue 13): columns added in place, no table rebuilt.
ALTER TABLE "ShopSettings" ADD COLUMN "notifyTokenDigest" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "notifyTokenCiphertext" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "locationId" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "locationName" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "statusSettings" TEXT NOT NULL DEFAULT '{}';
CREATE UNIQUE INDEX "ShopSettings_notifyTokenDigest_key" ON "ShopSettings"("notifyTokenDigest");

ALTER TABLE "WarehouseOrder" ADD COLUMN "statusHintAt" DATETIME;
ALTER TABLE "WarehouseOrder" ADD COLUMN "statusCheckedAt" DATETIME;
ALTER TABLE "WarehouseOrder" ADD COLUMN "warehouseStatus" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "carrierStatus" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "fulfillmentId" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "fulfilledTtn" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "fulfillmentEvent" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "fulfillmentDueAt" DATETIME;
ALTER TABLE "WarehouseOrder" ADD COLUMN "fulfillmentAttempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "WarehouseOrder" ADD COLUMN "fulfillmentProblem" TEXT;
CREATE INDEX "WarehouseOrder_shop_keyOrder_idx" ON "WarehouseOrder"("shop", "keyOrder");
CREATE INDEX "WarehouseOrder_shop_idOrderFF_idx" ON "WarehouseOrder"("shop", "idOrderFF");
CREATE INDEX "WarehouseOrder_shop_state_statusCheckedAt_idx" ON "WarehouseOrder"("shop", "state", "statusCheckedAt");
CREATE INDEX "WarehouseOrder_shop_fulfillmentDueAt_idx" ON "WarehouseOrder"("shop", "fulfillmentDueAt");

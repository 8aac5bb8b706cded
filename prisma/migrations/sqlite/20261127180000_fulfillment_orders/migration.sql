-- Fulfillment orders as the unit of work, and the two ways the warehouse appears in Shopify (app/routing/).
-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "fulfillmentMode" TEXT NOT NULL DEFAULT 'location';
ALTER TABLE "ShopSettings" ADD COLUMN "fulfillmentServiceId" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "onlineLocations" TEXT;
ALTER TABLE "ShopSettings" ADD COLUMN "onlineLocationsAt" DATETIME;

-- AlterTable
ALTER TABLE "WarehouseOrder" ADD COLUMN "fulfillmentMode" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "locationId" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "warehouseLines" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "waitReason" TEXT;

-- CreateTable
CREATE TABLE "ShopifyFulfillmentOrder" (
    "shop" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "shopifyOrderId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requestStatus" TEXT NOT NULL,
    "deliveryMethod" TEXT,
    "fulfillAt" DATETIME,
    "lines" TEXT NOT NULL,
    "holds" TEXT NOT NULL DEFAULT '[]',
    "shopifyUpdatedAt" DATETIME NOT NULL,
    "readAt" DATETIME NOT NULL,
    "answer" TEXT,
    "answerDueAt" DATETIME,
    "answerAttempts" INTEGER NOT NULL DEFAULT 0,
    "answered" TEXT,
    "answerProblem" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shop", "id")
);

-- CreateIndex
CREATE INDEX "ShopifyFulfillmentOrder_shop_shopifyOrderId_idx" ON "ShopifyFulfillmentOrder"("shop", "shopifyOrderId");

-- CreateIndex
CREATE INDEX "ShopifyFulfillmentOrder_shop_answerDueAt_idx" ON "ShopifyFulfillmentOrder"("shop", "answerDueAt");

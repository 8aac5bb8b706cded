-- AlterTable
ALTER TABLE "WarehouseOrder" ADD COLUMN "awaitingCards" TEXT;

-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "stockSettings" TEXT NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "CatalogueItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "inventoryItemId" TEXT,
    "productUpdatedAt" DATETIME,
    "tracked" BOOLEAN NOT NULL DEFAULT true,
    "sku" TEXT,
    "name" TEXT NOT NULL,
    "barcode" TEXT,
    "problem" TEXT,
    "problemMessage" TEXT,
    "sentSku" TEXT,
    "sentName" TEXT,
    "sentBarcode" TEXT,
    "sentAt" DATETIME,
    "dueAt" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "warehouseBarcode" TEXT,
    "warehouseQuantity" INTEGER,
    "warehouseAvailable" INTEGER,
    "reportedAt" DATETIME,
    "deletedAt" DATETIME,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "StockSync" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "quantityName" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "skus" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,
    "mutations" INTEGER NOT NULL DEFAULT 0,
    "activated" INTEGER NOT NULL DEFAULT 0,
    "problems" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "report" TEXT
);

-- CreateTable
CREATE TABLE "CatalogueSync" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME,
    "cursor" TEXT,
    "variantsRead" INTEGER NOT NULL DEFAULT 0,
    "alreadyThere" INTEGER NOT NULL DEFAULT 0,
    "toSend" INTEGER NOT NULL DEFAULT 0,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT
);

-- CreateIndex
CREATE INDEX "CatalogueItem_shop_sku_idx" ON "CatalogueItem"("shop", "sku");

-- CreateIndex
CREATE INDEX "CatalogueItem_shop_dueAt_idx" ON "CatalogueItem"("shop", "dueAt");

-- CreateIndex
CREATE UNIQUE INDEX "CatalogueItem_shop_variantId_key" ON "CatalogueItem"("shop", "variantId");

-- CreateIndex
CREATE INDEX "StockSync_shop_startedAt_idx" ON "StockSync"("shop", "startedAt");

-- CreateIndex
CREATE INDEX "CatalogueSync_shop_startedAt_idx" ON "CatalogueSync"("shop", "startedAt");

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_statusHintAt_idx" ON "WarehouseOrder"("shop", "statusHintAt");

-- AlterTable
ALTER TABLE "WarehouseOrder" ADD COLUMN "awaitingCards" TEXT;

-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "stockSettings" TEXT NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "CatalogueItem" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "variantId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "inventoryItemId" TEXT,
    "productUpdatedAt" TIMESTAMP(3),
    "tracked" BOOLEAN NOT NULL DEFAULT true,
    "sku" TEXT,
    "name" TEXT NOT NULL,
    "barcode" TEXT,
    "problem" TEXT,
    "problemMessage" TEXT,
    "sentSku" TEXT,
    "sentName" TEXT,
    "sentBarcode" TEXT,
    "sentAt" TIMESTAMP(3),
    "dueAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "warehouseBarcode" TEXT,
    "warehouseQuantity" INTEGER,
    "warehouseAvailable" INTEGER,
    "reportedAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CatalogueItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StockSync" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "quantityName" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "skus" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,
    "mutations" INTEGER NOT NULL DEFAULT 0,
    "activated" INTEGER NOT NULL DEFAULT 0,
    "problems" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "report" TEXT,

    CONSTRAINT "StockSync_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CatalogueSync" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "cursor" TEXT,
    "variantsRead" INTEGER NOT NULL DEFAULT 0,
    "alreadyThere" INTEGER NOT NULL DEFAULT 0,
    "toSend" INTEGER NOT NULL DEFAULT 0,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    CONSTRAINT "CatalogueSync_pkey" PRIMARY KEY ("id")
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

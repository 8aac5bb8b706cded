-- The registers: the returns the warehouse booked, and inbound delivery requests (app/returns/, app/deliveries/).
-- CreateTable
CREATE TABLE "WarehouseReturn" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "returnKey" TEXT NOT NULL,
    "idOrder" TEXT,
    "orderId" TEXT,
    "returnedAt" DATETIME,
    "ttn" TEXT,
    "lines" TEXT NOT NULL DEFAULT '[]',
    "units" INTEGER NOT NULL DEFAULT 0,
    "defective" BOOLEAN NOT NULL DEFAULT false,
    "raw" TEXT NOT NULL,
    "problem" TEXT,
    "restockRequestedAt" DATETIME,
    "firstSeenAt" DATETIME NOT NULL,
    "lastSeenAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "InboundDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "idRequest" TEXT NOT NULL,
    "warehouseId" TEXT,
    "state" TEXT NOT NULL,
    "status" INTEGER,
    "deliveryDate" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,
    "ttn" TEXT,
    "comment" TEXT,
    "lines" TEXT NOT NULL DEFAULT '[]',
    "raw" TEXT,
    "sentAt" DATETIME,
    "error" TEXT,
    "checkedAt" DATETIME,
    "version" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "WarehouseReturn_shop_returnedAt_idx" ON "WarehouseReturn"("shop", "returnedAt");

-- CreateIndex
CREATE INDEX "WarehouseReturn_shop_orderId_idx" ON "WarehouseReturn"("shop", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "WarehouseReturn_shop_returnKey_key" ON "WarehouseReturn"("shop", "returnKey");

-- CreateIndex
CREATE INDEX "InboundDelivery_shop_warehouseId_idx" ON "InboundDelivery"("shop", "warehouseId");

-- CreateIndex
CREATE INDEX "InboundDelivery_shop_createdAt_idx" ON "InboundDelivery"("shop", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "InboundDelivery_shop_idRequest_key" ON "InboundDelivery"("shop", "idRequest");


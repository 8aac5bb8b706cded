-- CreateTable
CREATE TABLE "OrderPayload" (
    "orderId" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    CONSTRAINT "OrderPayload_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "WarehouseOrder" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Move each order's Shopify payload to its own table before the column goes
INSERT INTO "OrderPayload" ("orderId", "shop", "payload") SELECT "id", "shop", "payload" FROM "WarehouseOrder";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WarehouseOrder" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "shopifyOrderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "customerId" TEXT,
    "idOrder" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "orderUpdatedAt" DATETIME NOT NULL,
    "orderCreatedAt" DATETIME NOT NULL,
    "cancelledAt" DATETIME,
    "mapped" TEXT,
    "holdReasons" TEXT,
    "overrides" TEXT NOT NULL DEFAULT '{}',
    "sentOrder" TEXT,
    "idOrderFF" TEXT,
    "keyOrder" TEXT,
    "pending" TEXT,
    "attention" TEXT,
    "attentionMessage" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "lastError" TEXT,
    "submittedAt" DATETIME,
    "acceptedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_WarehouseOrder" ("acceptedAt", "attempts", "attention", "attentionMessage", "cancelledAt", "createdAt", "customerId", "holdReasons", "id", "idOrder", "idOrderFF", "keyOrder", "lastError", "mapped", "nextAttemptAt", "orderCreatedAt", "orderName", "orderUpdatedAt", "overrides", "pending", "sentOrder", "shop", "shopifyOrderId", "state", "submittedAt", "updatedAt") SELECT "acceptedAt", "attempts", "attention", "attentionMessage", "cancelledAt", "createdAt", "customerId", "holdReasons", "id", "idOrder", "idOrderFF", "keyOrder", "lastError", "mapped", "nextAttemptAt", "orderCreatedAt", "orderName", "orderUpdatedAt", "overrides", "pending", "sentOrder", "shop", "shopifyOrderId", "state", "submittedAt", "updatedAt" FROM "WarehouseOrder";
DROP TABLE "WarehouseOrder";
ALTER TABLE "new_WarehouseOrder" RENAME TO "WarehouseOrder";
CREATE INDEX "WarehouseOrder_shop_state_nextAttemptAt_idx" ON "WarehouseOrder"("shop", "state", "nextAttemptAt");
CREATE INDEX "WarehouseOrder_nextAttemptAt_idx" ON "WarehouseOrder"("nextAttemptAt");
CREATE INDEX "WarehouseOrder_shop_updatedAt_idx" ON "WarehouseOrder"("shop", "updatedAt");
CREATE INDEX "WarehouseOrder_shop_customerId_idx" ON "WarehouseOrder"("shop", "customerId");
CREATE UNIQUE INDEX "WarehouseOrder_shop_shopifyOrderId_key" ON "WarehouseOrder"("shop", "shopifyOrderId");
CREATE UNIQUE INDEX "WarehouseOrder_shop_idOrder_key" ON "WarehouseOrder"("shop", "idOrder");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OrderPayload_shop_idx" ON "OrderPayload"("shop");


-- CreateTable
CREATE TABLE "ShopSettings" (
    "shop" TEXT NOT NULL,
    "apiKeyCiphertext" TEXT,
    "apiKeyHint" TEXT,
    "apiKeyDigest" TEXT,
    "environment" TEXT NOT NULL DEFAULT 'production',
    "batchAddOrder" BOOLEAN NOT NULL DEFAULT true,
    "mapping" TEXT NOT NULL DEFAULT '{}',
    "pausedAt" TIMESTAMP(3),
    "pauseReason" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ShopSettings_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "WarehouseOrder" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "shopifyOrderId" TEXT NOT NULL,
    "orderName" TEXT NOT NULL,
    "customerId" TEXT,
    "idOrder" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "orderUpdatedAt" TIMESTAMP(3) NOT NULL,
    "orderCreatedAt" TIMESTAMP(3) NOT NULL,
    "cancelledAt" TIMESTAMP(3),
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
    "nextAttemptAt" TIMESTAMP(3),
    "lastError" TEXT,
    "submittedAt" TIMESTAMP(3),
    "acceptedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WarehouseOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,

    CONSTRAINT "OrderEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "shop" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookEvent_pkey" PRIMARY KEY ("shop","eventId")
);

-- CreateTable
CREATE TABLE "WorkLease" (
    "shop" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkLease_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "RateLimitState" (
    "key" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RateLimitState_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_state_nextAttemptAt_idx" ON "WarehouseOrder"("shop", "state", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WarehouseOrder_nextAttemptAt_idx" ON "WarehouseOrder"("nextAttemptAt");

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_updatedAt_idx" ON "WarehouseOrder"("shop", "updatedAt");

-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_customerId_idx" ON "WarehouseOrder"("shop", "customerId");

-- CreateIndex
CREATE UNIQUE INDEX "WarehouseOrder_shop_shopifyOrderId_key" ON "WarehouseOrder"("shop", "shopifyOrderId");

-- CreateIndex
CREATE UNIQUE INDEX "WarehouseOrder_shop_idOrder_key" ON "WarehouseOrder"("shop", "idOrder");

-- CreateIndex
CREATE INDEX "OrderEvent_orderId_at_idx" ON "OrderEvent"("orderId", "at");

-- CreateIndex
CREATE INDEX "OrderEvent_shop_idx" ON "OrderEvent"("shop");

-- CreateIndex
CREATE INDEX "WebhookEvent_receivedAt_idx" ON "WebhookEvent"("receivedAt");

-- CreateIndex
CREATE INDEX "RateLimitState_shop_idx" ON "RateLimitState"("shop");

-- AddForeignKey
ALTER TABLE "OrderEvent" ADD CONSTRAINT "OrderEvent_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "WarehouseOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;


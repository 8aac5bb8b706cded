-- CreateTable
CREATE TABLE "OrderPayload" (
    "orderId" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "payload" TEXT NOT NULL,

    CONSTRAINT "OrderPayload_pkey" PRIMARY KEY ("orderId")
);

-- Move each order's Shopify payload to its own table before the column goes
INSERT INTO "OrderPayload" ("orderId", "shop", "payload") SELECT "id", "shop", "payload" FROM "WarehouseOrder";

-- AlterTable
ALTER TABLE "WarehouseOrder" DROP COLUMN "payload";

-- CreateIndex
CREATE INDEX "OrderPayload_shop_idx" ON "OrderPayload"("shop");

-- AddForeignKey
ALTER TABLE "OrderPayload" ADD CONSTRAINT "OrderPayload_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "WarehouseOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

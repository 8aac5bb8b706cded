-- The stock sync reads the orders accepted since its report was asked for (app/stock/promised.server.ts).
-- CreateIndex
CREATE INDEX "WarehouseOrder_shop_acceptedAt_idx" ON "WarehouseOrder"("shop", "acceptedAt");

-- Every waybill an order has had (JSON array), written before a fulfillment is asked for with one, so a
-- fulfillment whose answer was lost is found by any of them. And what the Shopify order still holds at the
-- warehouse location that the warehouse did not ship (JSON), shown to the merchant.
-- AlterTable
ALTER TABLE "WarehouseOrder" ADD COLUMN "waybills" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "unshipped" TEXT;

-- Batched AddOrder proves its wire shape per account before it is used (unproven | proven | failed).
ALTER TABLE "ShopSettings" ADD COLUMN "batchProof" TEXT NOT NULL DEFAULT 'unproven';

-- The warehouse stage and waybill, apart from the submission state, and the row version every write raises.
ALTER TABLE "WarehouseOrder" ADD COLUMN "stage" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "stageAt" TIMESTAMP(3);
ALTER TABLE "WarehouseOrder" ADD COLUMN "ttn" TEXT;
ALTER TABLE "WarehouseOrder" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;

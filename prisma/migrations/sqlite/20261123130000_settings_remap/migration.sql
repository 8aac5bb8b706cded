-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "remapRequestedAt" DATETIME;

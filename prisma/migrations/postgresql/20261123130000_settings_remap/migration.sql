-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN     "remapRequestedAt" TIMESTAMP(3);

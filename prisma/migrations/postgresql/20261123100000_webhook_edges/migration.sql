-- AlterTable
ALTER TABLE "ComplianceRequest" ADD COLUMN     "dataRequestId" TEXT;

-- CreateTable
CREATE TABLE "WebhookRefusal" (
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "firstAt" TIMESTAMP(3) NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookRefusal_pkey" PRIMARY KEY ("shop","topic")
);

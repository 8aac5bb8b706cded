-- AlterTable
ALTER TABLE "ComplianceRequest" ADD COLUMN "dataRequestId" TEXT;

-- CreateTable
CREATE TABLE "WebhookRefusal" (
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "firstAt" DATETIME NOT NULL,
    "lastAt" DATETIME NOT NULL,

    PRIMARY KEY ("shop", "topic")
);

-- CreateTable
CREATE TABLE "ShopSchedule" (
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "nextRunAt" DATETIME NOT NULL,
    "cursor" TEXT,
    "lastRunAt" DATETIME,
    "lastError" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shop", "kind")
);

-- CreateIndex
CREATE INDEX "ShopSchedule_nextRunAt_idx" ON "ShopSchedule"("nextRunAt");

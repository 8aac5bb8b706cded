-- CreateTable
CREATE TABLE "ShopSchedule" (
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "nextRunAt" TIMESTAMP(3) NOT NULL,
    "cursor" TEXT,
    "lastRunAt" TIMESTAMP(3),
    "lastError" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ShopSchedule_pkey" PRIMARY KEY ("shop","kind")
);

-- CreateIndex
CREATE INDEX "ShopSchedule_nextRunAt_idx" ON "ShopSchedule"("nextRunAt");


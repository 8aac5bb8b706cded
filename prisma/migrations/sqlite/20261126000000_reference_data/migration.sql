-- Carrier reference data per warehouse key (app/reference/).
-- CreateTable
CREATE TABLE "ReferenceSet" (
    "keyDigest" TEXT NOT NULL PRIMARY KEY,
    "refreshedAt" DATETIME,
    "cityCount" INTEGER NOT NULL DEFAULT 0,
    "branchCount" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "CarrierCity" (
    "keyDigest" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameRu" TEXT,
    "area" TEXT,
    "kind" TEXT,
    "describedAt" DATETIME,
    "seenAt" DATETIME NOT NULL,
    "branchCount" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("keyDigest", "ref")
);

-- CreateTable
CREATE TABLE "CarrierBranch" (
    "keyDigest" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "cityRef" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "descriptionRu" TEXT,
    "shortAddress" TEXT,
    "postcode" TEXT,
    "maxWeightKg" INTEGER,
    "working" BOOLEAN NOT NULL DEFAULT true,
    "seenAt" DATETIME NOT NULL,

    PRIMARY KEY ("keyDigest", "ref")
);

-- CreateTable
CREATE TABLE "CarrierStreetLookup" (
    "keyDigest" TEXT NOT NULL,
    "cityRef" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "streets" TEXT NOT NULL,
    "fetchedAt" DATETIME NOT NULL,

    PRIMARY KEY ("keyDigest", "cityRef", "query")
);

-- CreateIndex
CREATE INDEX "CarrierBranch_keyDigest_cityRef_idx" ON "CarrierBranch"("keyDigest", "cityRef");

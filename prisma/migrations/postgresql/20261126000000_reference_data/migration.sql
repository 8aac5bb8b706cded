-- Carrier reference data per warehouse key (app/reference/).
-- CreateTable
CREATE TABLE "ReferenceSet" (
    "keyDigest" TEXT NOT NULL,
    "refreshedAt" TIMESTAMP(3),
    "cityCount" INTEGER NOT NULL DEFAULT 0,
    "branchCount" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReferenceSet_pkey" PRIMARY KEY ("keyDigest")
);

-- CreateTable
CREATE TABLE "CarrierCity" (
    "keyDigest" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameRu" TEXT,
    "area" TEXT,
    "kind" TEXT,
    "describedAt" TIMESTAMP(3),
    "seenAt" TIMESTAMP(3) NOT NULL,
    "branchCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CarrierCity_pkey" PRIMARY KEY ("keyDigest","ref")
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
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CarrierBranch_pkey" PRIMARY KEY ("keyDigest","ref")
);

-- CreateTable
CREATE TABLE "CarrierStreetLookup" (
    "keyDigest" TEXT NOT NULL,
    "cityRef" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "streets" TEXT NOT NULL,
    "fetchedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CarrierStreetLookup_pkey" PRIMARY KEY ("keyDigest","cityRef","query")
);

-- CreateIndex
CREATE INDEX "CarrierBranch_keyDigest_cityRef_idx" ON "CarrierBranch"("keyDigest", "cityRef");


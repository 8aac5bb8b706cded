-- Carrier reference data becomes one set for the deployment (decision 020): the carrier's cities and branches
-- are the same whatever the warehouse key, so the sets kept per key (ReferenceSet.keyDigest) were copies.
-- The set kept is the most recently refreshed (then the one with the most branches, then the highest version);
-- the other keys' rows go. Street look-ups are merged: the latest answer for each city and text is kept.
-- The column naming the set is now "source", the constant 'novaposhta' (app/reference/kinds.ts).

-- The rows of every set but the one kept.
DELETE FROM "CarrierCity" WHERE "keyDigest" IS NOT (
    SELECT "keyDigest" FROM "ReferenceSet"
    ORDER BY "refreshedAt" IS NULL, "refreshedAt" DESC, "branchCount" DESC, "version" DESC, "keyDigest" LIMIT 1
);
DELETE FROM "CarrierBranch" WHERE "keyDigest" IS NOT (
    SELECT "keyDigest" FROM "ReferenceSet"
    ORDER BY "refreshedAt" IS NULL, "refreshedAt" DESC, "branchCount" DESC, "version" DESC, "keyDigest" LIMIT 1
);
DELETE FROM "ReferenceSet" WHERE "keyDigest" IS NOT (
    SELECT "keyDigest" FROM "ReferenceSet"
    ORDER BY "refreshedAt" IS NULL, "refreshedAt" DESC, "branchCount" DESC, "version" DESC, "keyDigest" LIMIT 1
);
DELETE FROM "CarrierStreetLookup" WHERE ("keyDigest", "cityRef", "query") IN (
    SELECT "keyDigest", "cityRef", "query" FROM (
        SELECT "keyDigest", "cityRef", "query", ROW_NUMBER() OVER (
            PARTITION BY "cityRef", "query" ORDER BY "fetchedAt" DESC, "keyDigest"
        ) AS "rank"
        FROM "CarrierStreetLookup"
    ) AS "ranked" WHERE "rank" > 1
);

-- AlterTable
ALTER TABLE "ReferenceSet" RENAME COLUMN "keyDigest" TO "source";
ALTER TABLE "ReferenceSet" ADD COLUMN "dueAt" DATETIME;
ALTER TABLE "ReferenceSet" ADD COLUMN "claimedBy" TEXT;
ALTER TABLE "ReferenceSet" ADD COLUMN "claimedUntil" DATETIME;
ALTER TABLE "CarrierCity" RENAME COLUMN "keyDigest" TO "source";
ALTER TABLE "CarrierBranch" RENAME COLUMN "keyDigest" TO "source";
ALTER TABLE "CarrierStreetLookup" RENAME COLUMN "keyDigest" TO "source";

UPDATE "ReferenceSet" SET "source" = 'novaposhta';
UPDATE "CarrierCity" SET "source" = 'novaposhta';
UPDATE "CarrierBranch" SET "source" = 'novaposhta';
UPDATE "CarrierStreetLookup" SET "source" = 'novaposhta';

-- RenameIndex
DROP INDEX "CarrierBranch_keyDigest_cityRef_idx";
CREATE INDEX "CarrierBranch_source_cityRef_idx" ON "CarrierBranch"("source", "cityRef");

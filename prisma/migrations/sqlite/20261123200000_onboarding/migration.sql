-- The first-run checklist's progress (app/onboarding/state.ts).
ALTER TABLE "ShopSettings" ADD COLUMN "onboarding" TEXT NOT NULL DEFAULT '{}';

-- The dashboard's chart: a shop's events of a kind in a day (app/dashboard/queries.server.ts).
DROP INDEX "OrderEvent_shop_idx";
CREATE INDEX "OrderEvent_shop_kind_at_idx" ON "OrderEvent"("shop", "kind", "at");

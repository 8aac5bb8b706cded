-- The first-run checklist's progress (app/onboarding/state.ts).
ALTER TABLE "ShopSettings" ADD COLUMN "onboarding" TEXT NOT NULL DEFAULT '{}';

-- Each settings form's version, so two saves at once are told apart (app/settings/versions.server.ts).
-- AlterTable
ALTER TABLE "ShopSettings" ADD COLUMN "settingsVersions" TEXT NOT NULL DEFAULT '{}';

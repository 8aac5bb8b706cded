// `npm run build:picker`: writes the branch picker's shipped script from its source (scripts/picker-build.ts).
// `--check` writes nothing and fails when the shipped file is not the build of the source, or is over
// Shopify's limit for an app block's script.
import { readFileSync, writeFileSync } from "node:fs";
import { APP_BLOCK_SCRIPT_LIMIT_BYTES, buildPicker, PICKER_SHIPPED, PICKER_SOURCE } from "./picker-build";

const built = await buildPicker();
const bytes = Buffer.byteLength(built);
if (bytes > APP_BLOCK_SCRIPT_LIMIT_BYTES) {
  console.error(
    `${PICKER_SHIPPED} would be ${bytes} B, over Shopify's ${APP_BLOCK_SCRIPT_LIMIT_BYTES} B for an app block's script`,
  );
  process.exit(1);
}
if (process.argv.includes("--check")) {
  let shipped = "";
  try {
    shipped = readFileSync(PICKER_SHIPPED, "utf8");
  } catch {
    // Missing: reported below like a stale file.
  }
  if (shipped !== built) {
    console.error(`${PICKER_SHIPPED} is not the build of ${PICKER_SOURCE}: run \`npm run build:picker\``);
    process.exit(1);
  }
  console.log(`${PICKER_SHIPPED} is the build of ${PICKER_SOURCE} (${bytes} B)`);
} else {
  writeFileSync(PICKER_SHIPPED, built);
  console.log(`${PICKER_SHIPPED}: ${bytes} B (limit ${APP_BLOCK_SCRIPT_LIMIT_BYTES} B)`);
}

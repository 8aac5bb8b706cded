// The branch picker's shipped script, built from its readable source: minified, because Shopify refuses an
// app block whose script is over 10 KB (the theme check's AssetSizeAppBlockJavaScript). Used by
// `npm run build:picker` (scripts/build-picker.ts) and by the test that the shipped file is this build.
import { readFileSync } from "node:fs";
import { transform } from "esbuild";

export const PICKER_SOURCE = "storefront/branch-picker.js";
export const PICKER_SHIPPED = "extensions/branch-picker/assets/branch-picker.js";
/** Shopify's limit for an app block's script (theme-check:theme-app-extension). */
export const APP_BLOCK_SCRIPT_LIMIT_BYTES = 10_000;

const BANNER = `/* Built from ${PICKER_SOURCE} by \`npm run build:picker\`: change that file, not this one. */`;

/** The shipped file's exact text. esbuild is pinned in package.json, so the same source gives the same bytes. */
export async function buildPicker(): Promise<string> {
  const source = readFileSync(PICKER_SOURCE, "utf8");
  const { code } = await transform(source, {
    loader: "js",
    minify: true,
    // The syntax the source is written in (storefront browsers of the last few years): nothing rewritten.
    target: "es2020",
    legalComments: "none",
    charset: "utf8",
    banner: BANNER,
  });
  return code;
}

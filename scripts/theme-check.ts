// `npm run theme-check`: Shopify's theme check on the theme app extension, with the configuration Shopify
// applies to app extensions (`theme-check:theme-app-extension`: app block rules, a block's script at most
// 10 KB, ...), as `shopify app build` and `shopify app deploy` run it. Fails on any error or warning, so what
// Shopify would refuse or flag fails here first; suggestions (info) are printed and pass.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Severity, themeCheckRun } from "@shopify/theme-check-node";

const EXTENSIONS = ["extensions/branch-picker"];
const SEVERITY = {
  [Severity.ERROR]: "error",
  [Severity.WARNING]: "warning",
  [Severity.INFO]: "info",
} as const;

let failed = 0;
for (const extension of EXTENSIONS) {
  const root = path.resolve(extension);
  // The checker's log only says which copy of Shopify's Liquid docs it read (its own, when offline).
  const { offenses } = await themeCheckRun(root, "theme-check:theme-app-extension", () => {});
  const counts = { error: 0, warning: 0, info: 0 };
  for (const offense of offenses) {
    const severity = SEVERITY[offense.severity];
    counts[severity]++;
    const file = path.relative(process.cwd(), fileURLToPath(offense.uri));
    const line = offense.start.line + 1;
    console.log(`${file}:${line} [${severity}] ${offense.check}: ${offense.message}`);
  }
  console.log(`${extension}: ${counts.error} errors, ${counts.warning} warnings, ${counts.info} suggestions`);
  if (counts.error + counts.warning > 0) failed++;
}
process.exit(failed ? 1 : 0);

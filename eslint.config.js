import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // The branch picker's shipped script is the minified build of storefront/branch-picker.js, linted there.
    ignores: [
      "build/",
      ".cache/",
      "node_modules/",
      "app/types/",
      "coverage/",
      "extensions/branch-picker/assets/branch-picker.js",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  {
    // An import circle makes a module's value undefined while its partner is still loading, depending on
    // which one is imported first; layers point one way (see ARCHITECTURE.md), so a circle is a mistake.
    // This rule does not follow type imports: scripts/check-layers.ts, run by `npm run lint` after eslint,
    // does, and keeps the layers and README's table of them.
    files: ["app/**", "scripts/**", "bench/**", "test/**"],
    plugins: { import: importPlugin },
    settings: {
      "import/extensions": [".ts", ".tsx", ".js", ".jsx"],
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js", ".jsx"] } },
    },
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    files: ["**/*.tsx"],
    plugins: { react, "react-hooks": reactHooks },
    settings: { react: { version: "detect" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // Command-line scripts and the server report progress on stdout.
    files: ["scripts/**", "server.js", "bench/**", "test/**"],
    rules: { "no-console": "off" },
  },
);

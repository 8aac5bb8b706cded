// No page says anything in one language only: every text a merchant reads comes from the translations.
// Finds, in the admin's pages and components, JSX text with a letter in it and string literals given to the
// props (and the props' objects, such as `primaryAction={{ content }}`) that Polaris shows as text.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** Props and object keys whose string becomes text on the page (Polaris's names). */
const TEXT_PROPS = new Set([
  "title",
  "subtitle",
  "label",
  "helpText",
  "placeholder",
  "content",
  "accessibilityLabel",
  "heading",
  "error",
  "emptyStateText",
  "queryPlaceholder",
  "tooltip",
  "alt",
  "prefix",
  "suffix",
  "resourceName",
  "singular",
  "plural",
  "message",
  "description",
]);

/** A component kept in a route folder beside its route.tsx (flat routes: only route.tsx is the route). */
const PAGE_PART = /^app\/routes\/[^/]+\/(?!route\.tsx$)[^/]+\.tsx$/;

function pages(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith(".tsx")) files.push(relative(ROOT, path));
    }
  };
  // Every component of the app, wherever it is kept (the checklist and the dashboard live beside their
  // services), so a page added in a new folder is checked too.
  walk(join(ROOT, "app"));
  // A route without a component (a webhook, a file download) answers machines. The login page is
  // Shopify's own flow, seen only outside the admin, with Polaris's translations. The server entry
  // and the document shell (a viewport for the browser) render what the routes give them. A file beside
  // route.tsx in a route folder is a part of its page (a card, a form) and is checked like any component.
  return files.filter((file) =>
    file.startsWith("app/routes/")
      ? !file.startsWith("app/routes/auth.") &&
        (PAGE_PART.test(file) || /^export default /m.test(readFileSync(join(ROOT, file), "utf8")))
      : file !== "app/entry.server.tsx" && file !== "app/root.tsx",
  );
}

const HAS_LETTER = /\p{L}/u;

export function literalsIn(file: string, source: string): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const textOf = (node: ts.Expression | undefined): string | null => {
    if (!node) return null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node))
      return node.head.text + node.templateSpans.map((s) => s.literal.text).join("");
    if (ts.isJsxExpression(node)) return textOf(node.expression);
    if (ts.isConditionalExpression(node)) return textOf(node.whenTrue) ?? textOf(node.whenFalse);
    if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
    return null;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && HAS_LETTER.test(node.text)) found.push(`${at(node)} ${node.text.trim()}`);
    // Prose anywhere else (a table of labels, a message built in a loader): words, not an identifier.
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) &&
      PROSE.test(node.text) &&
      !exempt(node)
    ) {
      found.push(`${at(node)} "${node.text}"`);
    }
    if (ts.isJsxAttribute(node) && TEXT_PROPS.has(node.name.getText())) {
      const text = textOf(node.initializer as ts.Expression | undefined);
      if (text && HAS_LETTER.test(text)) found.push(`${at(node)} ${node.name.getText()}="${text}"`);
    }
    if (ts.isPropertyAssignment(node) && TEXT_PROPS.has(node.name.getText()) && isInJsx(node)) {
      const text = textOf(node.initializer);
      if (text && HAS_LETTER.test(text)) found.push(`${at(node)} ${node.name.getText()}: "${text}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** Two words of letters with a space between: a sentence or a label, not a key, a path or a query name. */
const PROSE = /\p{L}{2,}[,.:;!?]?\s+\p{L}{2,}/u;
const NOT_TEXT_PROPS = new Set([
  "style",
  "className",
  "id",
  "href",
  "to",
  "url",
  "action",
  "method",
  "name",
  "type",
]);
/**
 * Calls whose strings are for developers and logs, or are keys: `t("a.b")`, `log.warn("…")`, and a log
 * reached through an expression, `appContext().log.warn("…")`.
 */
const DEVELOPER_CALLS =
  /^(t|i18n\.t|log\.\w+|console\.\w+|\w*[lL]og\.\w+|json|gql|graphql|invariant|.+\.log\.(trace|debug|info|warn|error|fatal))$/;

/** Strings that are not the merchant's: imports, keys, log lines, GraphQL, errors for developers. */
function exempt(node: ts.Node): boolean {
  for (let parent: ts.Node | undefined = node.parent; parent; parent = parent.parent) {
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) return true;
    if (ts.isCallExpression(parent) && DEVELOPER_CALLS.test(parent.expression.getText())) return true;
    if (ts.isTaggedTemplateExpression(parent)) return true;
    if (ts.isNewExpression(parent) && /Error$/.test(parent.expression.getText())) return true;
    if (ts.isJsxAttribute(parent)) {
      // A text prop is reported as such above; styles and addresses are not text.
      return TEXT_PROPS.has(parent.name.getText()) || NOT_TEXT_PROPS.has(parent.name.getText());
    }
    if (ts.isPropertyAssignment(parent) && TEXT_PROPS.has(parent.name.getText()) && isInJsx(parent))
      return true;
    if (ts.isBlock(parent) || ts.isSourceFile(parent)) return false;
  }
  return false;
}

/** An object literal inside a JSX expression (a prop's value), not a loader's data. */
function isInJsx(node: ts.Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (ts.isJsxExpression(parent)) return true;
    if (ts.isFunctionLike(parent)) return false;
  }
  return false;
}

describe("the admin's pages", () => {
  it("finds a literal where there is one (the check itself)", () => {
    const source = `const A = () => <Page title="Orders"><Text as="p">Hello</Text><Button onClick={f}>{t("ok")}</Button>
      <Card primaryAction={{ content: "Save", onAction: f }} /><Badge tone="success">{"Done"}</Badge></Page>;`;
    expect(literalsIn("x.tsx", source).map((line) => line.split(" ").slice(1).join(" "))).toEqual([
      'title="Orders"',
      "Hello",
      'content: "Save"',
    ]);
  });

  it("lets a log line through, however its logger is reached, but not other calls' prose", () => {
    const source = `export default function A() { appContext().log.warn({ event: "x" }, "the locations could not be read");
      deps.log.error("the key is gone"); context().logs.warn("Shown to the merchant"); notify("Saved your settings"); }`;
    expect(literalsIn("x.tsx", source).map((line) => line.split(" ").slice(1).join(" "))).toEqual([
      '"Shown to the merchant"',
      '"Saved your settings"',
    ]);
  });

  it.each(pages())("%s takes every text from the translations", (file) => {
    const found = literalsIn(file, readFileSync(join(ROOT, file), "utf8"));
    expect(found).toEqual([]);
  });
});

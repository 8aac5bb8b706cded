// `npm run lint` runs this after eslint: the import rules eslint cannot keep. import/no-cycle does not follow
// type imports, yet a type import is the first step of a value import; here every import counts (value,
// `import type`, inline `type` specifiers, `export … from`, `import("…")` types and calls), resolved by the
// TypeScript compiler with the project's own tsconfig. It fails on:
// - an import circle anywhere in the project (app/, scripts/, bench/, test/);
// - a lower module of app/ importing a capability folder, or anything of app/ importing the edges (routes);
// - a module of app/ that uses the database (imports db.server.ts or Prisma's client) without `.server` in
//   its name, which would let Remix bundle it for the browser;
// - README's "Where things are" table missing a folder of app/ or stating other imports than LAYERS allows.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The layers of app/, lowest first. A module may import its own layer and those below it, never above. A
 * folder of app/ is named with its slash, a module at app/'s top level by its file name.
 */
export const LAYERS = [
  {
    name: "lower",
    members: [
      "config/",
      "db/",
      "http/",
      "i18n/",
      "shopify/",
      "types/",
      "warehouse/",
      "api-version.ts",
      "db.server.ts",
      "env.server.ts",
      "logger.server.ts",
    ],
  },
  {
    // Every other folder: the capabilities, the engine (work/) and the shared admin components.
    name: "capability",
    members: ["*/", "context.server.ts", "shopify.server.ts"],
  },
  { name: "edge", members: ["routes/", "assembly/", "entry.server.tsx", "root.tsx", "routes.ts"] },
] as const;

type Layer = (typeof LAYERS)[number]["name"];

/** The member of LAYERS a file of app/ belongs to: its folder (`orders/`) or its own name at the top. */
function memberOf(appPath: string): string {
  const slash = appPath.indexOf("/");
  return slash === -1 ? appPath : appPath.slice(0, slash + 1);
}

function layerOf(appPath: string): Layer {
  const member = memberOf(appPath);
  for (const layer of LAYERS) {
    if ((layer.members as readonly string[]).includes(member)) return layer.name;
  }
  if (member.endsWith("/")) return "capability";
  throw new Error(`app/${appPath}: a module at app/'s top level that LAYERS does not place`);
}

/** What the README's table must say a member of `layer` may import. */
export function mayImport(layer: Layer): string {
  const index = LAYERS.findIndex((candidate) => candidate.name === layer);
  if (index === LAYERS.length - 1) return "anything";
  const named = LAYERS.slice(0, index + 1).map((below) => below.name);
  return named.length === 1 ? `${named[0]} only` : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

interface Edge {
  from: string;
  to: string;
  line: number;
}

/** Every project-internal import of every TypeScript file the tsconfig includes, type-only ones too. */
function importGraph(): { files: string[]; edges: Edge[] } {
  const configFile = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  const files = config.fileNames
    .map((file) => path.relative(ROOT, file))
    .filter((file) => !file.startsWith("app/types/") && !file.startsWith("build/"));
  const edges: Edge[] = [];
  for (const file of files) {
    const absolute = path.join(ROOT, file);
    const source = ts.createSourceFile(
      absolute,
      fs.readFileSync(absolute, "utf8"),
      ts.ScriptTarget.Latest,
      true,
    );
    const visit = (node: ts.Node): void => {
      const specifier = moduleSpecifier(node);
      if (specifier !== undefined) {
        const resolved = ts.resolveModuleName(specifier, absolute, config.options, ts.sys).resolvedModule;
        if (resolved && !resolved.isExternalLibraryImport) {
          const to = path.relative(ROOT, resolved.resolvedFileName);
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          if (!to.startsWith("..") && !to.startsWith("node_modules/")) edges.push({ from: file, to, line });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { files, edges };
}

function moduleSpecifier(node: ts.Node): string | undefined {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
    return ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;
  }
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
    return ts.isStringLiteral(node.argument.literal) ? node.argument.literal.text : undefined;
  }
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    const [first] = node.arguments;
    return first && ts.isStringLiteral(first) ? first.text : undefined;
  }
  return undefined;
}

/** One circle per strongly connected group of files (Tarjan), as a path that comes back to its start. */
function circles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== file);
      if (group.length > 1 || next.get(file)?.includes(file)) groups.push(group);
    }
  };
  for (const file of next.keys()) if (!index.has(file)) connect(file);
  // A shortest way round inside each group, from its first file back to it.
  return groups.map((group) => {
    const inGroup = new Set(group);
    const start = group.sort()[0]!;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const to of next.get(file) ?? []) {
        if (!inGroup.has(to)) continue;
        if (to === start) {
          const way = [file];
          while (way[0] !== start) way.unshift(cameFrom.get(way[0]!)!);
          return [...way, start];
        }
        if (!cameFrom.has(to)) {
          cameFrom.set(to, file);
          queue.push(to);
        }
      }
    }
    return group;
  });
}

function layerProblems(edges: Edge[]): string[] {
  const rank = (layer: Layer) => LAYERS.findIndex((candidate) => candidate.name === layer);
  const problems: string[] = [];
  for (const { from, to, line } of edges) {
    if (!from.startsWith("app/") || !to.startsWith("app/")) continue;
    const fromApp = from.slice("app/".length);
    const toApp = to.slice("app/".length);
    const [fromLayer, toLayer] = [layerOf(fromApp), layerOf(toApp)];
    if (rank(toLayer) > rank(fromLayer)) {
      problems.push(
        `${from}:${line} imports ${to}: ${memberOf(fromApp)} (${fromLayer}) may import ${mayImport(fromLayer)}, ` +
          `and ${memberOf(toApp)} is ${toLayer}`,
      );
    }
  }
  return problems;
}

/** Modules that use the database must be `.server`, so that Remix never bundles them for the browser. */
function serverNameProblems(files: string[], edges: Edge[]): string[] {
  const problems: string[] = [];
  const usesDb = new Set(edges.filter((edge) => edge.to === "app/db.server.ts").map((edge) => edge.from));
  for (const file of files) {
    if (!file.startsWith("app/") || file.startsWith("app/routes/") || /\.server\.tsx?$/.test(file)) continue;
    // A row's type from @prisma/client is plain data; its values (the client, `Prisma`) are the database.
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const prismaValues = [
      ...text.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+["']@prisma\/client["']/gm),
    ].some(([, names]) => !/^\{(\s*type\s[^,}]+,?)+\s*\}$/.test(names!));
    if (usesDb.has(file) || prismaValues) {
      problems.push(
        `${file} uses the database (db.server.ts or @prisma/client's values): name it *.server.ts`,
      );
    }
  }
  return problems;
}

/** README's "Where things are": a row per folder of app/ (and one per top-level module group). */
function readmeProblems(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = /^## Where things are\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (!section) return ['README.md has no "## Where things are" section'];
  const rows = new Map<string, string>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length < 5 || !cells[1]!.startsWith("`")) continue;
    for (const member of cells[1]!.matchAll(/`([^`]+)`/g)) rows.set(member[1]!, cells[3]!);
  }
  const problems: string[] = [];
  const topLevel = fs.readdirSync(path.join(ROOT, "app"), { withFileTypes: true });
  for (const entry of topLevel) {
    if (!entry.isDirectory() && !/\.tsx?$/.test(entry.name)) continue;
    const member = entry.isDirectory() ? `${entry.name}/` : entry.name;
    const stated = rows.get(member);
    const expected = mayImport(layerOf(member));
    if (stated === undefined) problems.push(`README.md "Where things are" has no row for app/${member}`);
    else if (stated !== expected) {
      problems.push(`README.md says app/${member} may import "${stated}"; the rule is "${expected}"`);
    }
    rows.delete(member);
  }
  for (const member of rows.keys())
    problems.push(`README.md "Where things are" names app/${member}, which is gone`);
  return problems;
}

const { files, edges } = importGraph();
const found = [
  ...circles(edges).map((circle) => `import circle: ${circle.join(" -> ")}`),
  ...layerProblems(edges),
  ...serverNameProblems(files, edges),
  ...readmeProblems(),
];
for (const problem of found) console.error(problem);
if (found.length > 0) {
  console.error(`check-layers: ${found.length} problem(s); the layers are in scripts/check-layers.ts`);
  process.exit(1);
}

// `tsx scripts/check-layers.ts --pairs`: the folders of app/ that import each other, with how many imports
// each way; a capability above another should not be imported back by it.
if (process.argv.includes("--pairs")) {
  const counts = new Map<string, number>();
  for (const { from, to } of edges) {
    if (!from.startsWith("app/") || !to.startsWith("app/")) continue;
    const [a, b] = [memberOf(from.slice(4)), memberOf(to.slice(4))];
    if (a !== b) counts.set(`${a} ${b}`, (counts.get(`${a} ${b}`) ?? 0) + 1);
  }
  for (const [pair, count] of [...counts].sort()) {
    const [a, b] = pair.split(" ") as [string, string];
    const back = counts.get(`${b} ${a}`);
    if (back !== undefined && a < b) console.log(`${a} <-> ${b}: ${count} / ${back}`);
  }
}

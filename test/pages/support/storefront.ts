// A storefront as Shopify's would serve the branch picker, on loopback: a theme page with the extension's
// block rendered by a Liquid engine (the `t` filter from the extension's locale files, `asset_url`, the
// block's schema read for the script and stylesheet Shopify adds), the extension's assets, the app proxy
// (/apps/sklad-sync/* signed as Shopify signs it and forwarded to the real app's /proxy/* routes) and the
// cart's /cart/update.js, which keeps the attributes as Shopify does (an empty value removes one).
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { API_SECRET_KEY } from "@shopify/shopify-api/test-helpers";
import { Liquid, type TagToken, type TopLevelToken } from "liquidjs";
import { PROXY_PREFIX, signedProxyQuery } from "../../support/app-proxy";

const EXTENSION = path.resolve("extensions/branch-picker");
// The same user agent a browser would send; the proxy passes the visitor's on.
const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

type Tree = { [key: string]: string | Tree };
const localeFile = (name: string) =>
  JSON.parse(readFileSync(path.join(EXTENSION, "locales", name), "utf8")) as Tree;

/** The theme's `t` filter over the extension's storefront texts: the page's language, else the default. */
function translate(locale: string, key: string, values: Record<string, unknown>): string {
  const lookup = (tree: Tree) =>
    key
      .split(".")
      .reduce<string | Tree | undefined>((at, part) => (typeof at === "object" ? at[part] : undefined), tree);
  const text = lookup(locale === "uk" ? localeFile("uk.json") : {}) ?? lookup(localeFile("en.default.json"));
  if (typeof text !== "string") return `translation missing: ${locale}.${key}`;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ""));
}

function liquidEngine(locale: string): Liquid {
  const engine = new Liquid({
    root: [path.join(EXTENSION, "snippets"), path.join(EXTENSION, "blocks")],
    extname: ".liquid",
    strictFilters: true,
  });
  engine.registerFilter("t", (key: string, ...args: unknown[]) => {
    // Keyword arguments (`t: count: 2`) arrive as [name, value] pairs.
    const values = Object.fromEntries(args.filter(Array.isArray) as [string, unknown][]);
    return translate(locale, key, values);
  });
  engine.registerFilter("asset_url", (name: string) => `/assets/${name}`);
  engine.registerTag("schema", {
    parse(_token: TagToken, remaining: TopLevelToken[]) {
      for (let token = remaining.shift(); token; token = remaining.shift()) {
        if ((token as Partial<TagToken>).name === "endschema") return;
      }
      throw new Error("{% schema %} without {% endschema %}");
    },
    render: () => "",
  });
  return engine;
}

interface BlockSchema {
  javascript?: string;
  stylesheet?: string;
  settings: { id: string; default?: unknown }[];
}

function schemaOf(blockFile: string): BlockSchema {
  const source = readFileSync(path.join(EXTENSION, "blocks", blockFile), "utf8");
  const json = /\{%\s*schema\s*%\}([\s\S]*?)\{%\s*endschema\s*%\}/.exec(source)?.[1];
  if (!json) throw new Error(`${blockFile} has no schema`);
  return JSON.parse(json) as BlockSchema;
}

export interface Storefront {
  url: string;
  /** The cart's attributes now. */
  attributes: Record<string, string>;
  /** Every /cart/update.js body, in order. */
  updates: Record<string, string>[];
  /** Storefront requests to the proxy and what the app answered. */
  proxied: { path: string; status: number }[];
  close(): Promise<void>;
}

export async function startStorefront(options: { appUrl: string; shop: string }): Promise<Storefront> {
  const state: Storefront = { url: "", attributes: {}, updates: [], proxied: [], close: async () => {} };

  async function page(locale: string, template: "cart" | "product"): Promise<string> {
    const blockFile = template === "cart" ? "cart-branch.liquid" : "product-branch.liquid";
    const schema = schemaOf(blockFile);
    const settings = Object.fromEntries(
      schema.settings.map((setting) => [setting.id, setting.default ?? ""]),
    );
    const block = await liquidEngine(locale).renderFile(blockFile, {
      block: { id: "AbC123", settings, shopify_attributes: "" },
      cart: { attributes: { ...state.attributes }, item_count: 1 },
      request: { locale: { iso_code: locale } },
      routes: { cart_update_url: "/cart/update", root_url: locale === "en" ? "/" : `/${locale}` },
    });
    // Shopify puts the block's stylesheet in the head and its script at the end, once per page.
    return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${template}</title>
${schema.stylesheet ? `<link rel="stylesheet" href="/assets/${schema.stylesheet}">` : ""}
</head><body>
<main>
  <h1>${template === "cart" ? "Cart" : "Product"}</h1>
  <form action="/cart" method="post" data-theme-cart-form>
    ${block}
    <button type="submit" name="checkout">Check out</button>
  </form>
</main>
${schema.javascript ? `<script src="/assets/${schema.javascript}" defer></script>` : ""}
</body></html>`;
  }

  async function proxy(req: IncomingMessage, url: URL, res: ServerResponse) {
    const rest = url.pathname.slice(PROXY_PREFIX.length);
    const query = signedProxyQuery(url.searchParams, { shop: options.shop }, API_SECRET_KEY);
    const response = await fetch(`${options.appUrl}/proxy${rest}?${query}`, {
      headers: {
        "User-Agent": req.headers["user-agent"] ?? USER_AGENT,
        Accept: req.headers.accept ?? "*/*",
        "X-Forwarded-For": req.socket.remoteAddress ?? "127.0.0.1",
      },
    });
    state.proxied.push({ path: `${rest}${url.search}`, status: response.status });
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "cache-control", "etag", "retry-after"]) {
      const value = response.headers.get(name);
      if (value) headers[name] = value;
    }
    res.writeHead(response.status, headers);
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  async function cartUpdate(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      attributes?: Record<string, string>;
    };
    const attributes = body.attributes ?? {};
    state.updates.push(attributes);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === "" || value === null) delete state.attributes[name];
      else state.attributes[name] = String(value);
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ attributes: state.attributes, item_count: 1 }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", state.url);
    const pageMatch = /^\/(?:(uk|en)\/)?(cart|products\/[\w-]+)$/.exec(url.pathname);
    if (req.method === "GET" && pageMatch) {
      const template = pageMatch[2] === "cart" ? "cart" : "product";
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(await page(pageMatch[1] ?? "en", template));
    } else if (req.method === "GET" && url.pathname.startsWith("/assets/")) {
      const name = path.basename(url.pathname);
      const type = name.endsWith(".js") ? "text/javascript" : "text/css";
      res.writeHead(200, { "content-type": `${type}; charset=utf-8` });
      res.end(readFileSync(path.join(EXTENSION, "assets", name)));
    } else if (req.method === "GET" && url.pathname.startsWith(`${PROXY_PREFIX}/`)) {
      await proxy(req, url, res);
    } else if (req.method === "POST" && url.pathname === "/cart/update.js") {
      await cartUpdate(req, res);
    } else if (url.pathname === "/favicon.ico") {
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Longer than a client's idle keep-alive: a pooled connection is never closed under a request reusing it.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

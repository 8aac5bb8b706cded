// The demo's stand-in for the Shopify admin around the app: a page that embeds the app in an iframe, the
// stand-in for App Bridge the app's pages load, and the session tokens it hands them. Served only by the demo
// (scripts/demo/server.ts; main.ts refuses to start it with NODE_ENV=production); nothing in app/ or the
// production server (server.js) imports this file, so a deployed app has no route that mints a token.
// See docs/decisions/013-the-demo-stands-in-for-shopify.md.
import { createHmac, randomUUID } from "node:crypto";

/** Where the app's pages look for App Bridge; the demo serves its stand-in instead (see server.ts). */
export const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";
export const APP_BRIDGE_STAND_IN_PATH = "/__demo/app-bridge.js";
export const SESSION_TOKEN_PATH = "/__demo/session-token";
export const STORE_VIEW_PATH = "/__demo/store";

const base64url = (input: string | Buffer) => Buffer.from(input).toString("base64url");

/**
 * A session token as the Shopify admin makes one for an embedded app: an HS256 JWT signed with the app's
 * secret, naming the shop (`dest`) and the app (`aud`), valid for a minute.
 */
export function mintSessionToken(options: { shop: string; apiKey: string; apiSecret: string; now?: number }) {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iss: `https://${options.shop}/admin`,
      dest: `https://${options.shop}`,
      aud: options.apiKey,
      sub: "1",
      exp: now + 60,
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      sid: randomUUID(),
    }),
  );
  const signature = createHmac("sha256", options.apiSecret)
    .update(`${header}.${payload}`)
    .digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/**
 * Stands in for App Bridge inside the app's iframe: the `shopify` global App Bridge React reads, with
 * `idToken()` asking the demo for a fresh session token, and `fetch` patched so that the app's own requests
 * carry it as `Authorization: Bearer`, as App Bridge does. No DOM node is added (the page is hydrated by
 * React after this runs); the admin's navigation menu, which the real admin shows outside the frame, is
 * hidden by an adopted style sheet.
 */
export function appBridgeStandIn(apiKey: string): string {
  return `// Sklad Sync demo: a stand-in for App Bridge. Served by \`npm run demo\` only.
(() => {
  const realFetch = window.fetch.bind(window);
  let cached = null;
  const idToken = async () => {
    if (cached && cached.until > Date.now()) return cached.token;
    const answer = await realFetch(${JSON.stringify(SESSION_TOKEN_PATH)}, { cache: "no-store" });
    const token = await answer.text();
    cached = { token, until: Date.now() + 30000 };
    return token;
  };
  window.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (new URL(request.url, location.href).origin !== location.origin) return realFetch(request);
    const headers = new Headers(request.headers);
    headers.set("Authorization", "Bearer " + (await idToken()));
    return realFetch(new Request(request, { headers }));
  };
  const toast = {
    show(message) {
      try { window.parent.postMessage({ demoToast: String(message) }, location.origin); } catch {}
    },
    hide() {},
  };
  const noop = () => Promise.resolve();
  const known = {
    config: { apiKey: ${JSON.stringify(apiKey)}, locale: new URL(location.href).searchParams.get("locale") || "uk" },
    idToken,
    toast,
    loading: () => {},
    environment: { embedded: true, mobile: false, pos: false },
  };
  window.shopify = new Proxy(known, {
    get: (target, name) => (name in target ? target[name] : new Proxy(noop, { get: () => noop })),
  });
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync("ui-nav-menu, ui-title-bar, ui-save-bar { display: none !important; }");
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } catch {}
})();
`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The page the demo's address opens: the store's name, the app's pages, and the app in a frame. */
export function adminFramePage(options: { shop: string; shopName: string }): string {
  const pages = [
    ["/app", "Головна · Home"],
    ["/app/orders", "Замовлення · Orders"],
    ["/app/stock", "Залишки · Stock"],
    ["/app/returns", "Повернення · Returns"],
    ["/app/deliveries", "Поставки на склад · Inbound deliveries"],
    ["/app/catalogue", "Каталог · Catalogue"],
    ["/app/settings", "Налаштування · Settings"],
  ];
  const host = Buffer.from(
    `admin.shopify.com/store/${options.shop.replace(/\.myshopify\.com$/, "")}`,
  ).toString("base64");
  return `<!doctype html>
<html lang="uk">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(options.shopName)} · Sklad Sync demo</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 14px/1.4 system-ui, sans-serif; display: grid; grid-template-columns: 220px 1fr; height: 100vh; background: #f1f1f1; }
  nav { background: #1a1a1a; color: #e3e3e3; padding: 12px; display: flex; flex-direction: column; gap: 4px; }
  nav strong { color: #fff; margin-bottom: 8px; }
  nav a { color: #e3e3e3; text-decoration: none; padding: 6px 8px; border-radius: 6px; }
  nav a[aria-current], nav a:hover { background: #303030; color: #fff; }
  nav small { margin-top: auto; color: #9a9a9a; }
  .langs { display: flex; gap: 4px; margin: 8px 0; }
  main { display: flex; flex-direction: column; }
  header { padding: 8px 16px; background: #fff; border-bottom: 1px solid #ddd; font-size: 13px; }
  iframe { border: 0; flex: 1; width: 100%; background: #f1f1f1; }
  #toast { position: fixed; bottom: 16px; left: 50%; transform: translateX(-50%); background: #1a1a1a; color: #fff; padding: 8px 16px; border-radius: 8px; display: none; }
</style>
</head>
<body>
<nav>
  <strong>${escapeHtml(options.shopName)}</strong>
  ${pages.map(([path, label]) => `<a href="#${path}" data-path="${path}">${escapeHtml(label!)}</a>`).join("\n  ")}
  <div class="langs"><a href="#" data-locale="uk">Українська</a><a href="#" data-locale="en">English</a></div>
  <a href="${STORE_VIEW_PATH}" target="_blank" rel="noopener">Магазин (Shopify fake) · Store view</a>
  <small>Sklad Sync demo: a stand-in for the Shopify admin, served by <code>npm run demo</code> only.</small>
</nav>
<main>
  <header>Sklad Sync · ${escapeHtml(options.shop)}</header>
  <iframe id="app" title="Sklad Sync"></iframe>
</main>
<div id="toast" role="status"></div>
<script>
  const shop = ${JSON.stringify(options.shop)};
  const host = ${JSON.stringify(host)};
  let locale = new URLSearchParams(location.search).get("locale") || "uk";
  const frame = document.getElementById("app");
  async function open(path) {
    const token = await (await fetch(${JSON.stringify(SESSION_TOKEN_PATH)}, { cache: "no-store" })).text();
    const url = new URL(path, location.origin);
    for (const [name, value] of Object.entries({ embedded: "1", shop, host, locale, id_token: token }))
      url.searchParams.set(name, value);
    frame.src = url.href;
    for (const link of document.querySelectorAll("nav a[data-path]"))
      link.toggleAttribute("aria-current", link.dataset.path === url.pathname);
  }
  const current = () => (location.hash.slice(1) || "/app");
  window.addEventListener("hashchange", () => open(current()));
  for (const link of document.querySelectorAll("a[data-locale]"))
    link.addEventListener("click", (event) => { event.preventDefault(); locale = link.dataset.locale; open(current()); });
  window.addEventListener("message", (event) => {
    if (event.origin !== location.origin || !event.data || !event.data.demoToast) return;
    const toast = document.getElementById("toast");
    toast.textContent = event.data.demoToast;
    toast.style.display = "block";
    setTimeout(() => (toast.style.display = "none"), 3000);
  });
  open(current());
</script>
</body>
</html>
`;
}

export interface StoreViewData {
  shopName: string;
  orders: Array<{
    name: string;
    createdAt: string;
    fulfillmentOrderStatus: string;
    fulfillments: Array<{
      status: string;
      tracking: Array<{ company: string | null; number: string | null; url: string | null }>;
      events: string[];
    }>;
  }>;
  inventory: Array<{ product: string; variant: string; sku: string; available: number; onHand: number }>;
  location: string;
}

/** The fake store seen as a merchant would see it in Shopify: its orders with their fulfillments, and its stock. */
export function storeViewPage(data: StoreViewData): string {
  const cell = (text: string | number | null) => `<td>${escapeHtml(String(text ?? "—"))}</td>`;
  const orders = data.orders
    .map((order) => {
      const fulfillments = order.fulfillments
        .map((fulfillment) => {
          const tracking = fulfillment.tracking
            .map((info) =>
              info.url
                ? `${escapeHtml(info.company ?? "")} <a href="${escapeHtml(info.url)}">${escapeHtml(info.number ?? "")}</a>`
                : `${escapeHtml(info.company ?? "")} ${escapeHtml(info.number ?? "")}`,
            )
            .join("<br>");
          return `${escapeHtml(fulfillment.status)}: ${tracking || "—"}${fulfillment.events.length ? ` (${escapeHtml(fulfillment.events.join(" → "))})` : ""}`;
        })
        .join("<br>");
      return `<tr>${cell(order.name)}${cell(order.createdAt)}${cell(order.fulfillmentOrderStatus)}<td>${fulfillments || "—"}</td></tr>`;
    })
    .join("\n");
  const inventory = data.inventory
    .map(
      (row) =>
        `<tr>${cell(row.product)}${cell(row.variant)}${cell(row.sku)}${cell(row.available)}${cell(row.onHand)}</tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="uk">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="5">
<title>${escapeHtml(data.shopName)}: store view</title>
<link rel="icon" href="data:,">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; }
  table { border-collapse: collapse; margin-bottom: 24px; }
  td, th { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
</style>
</head>
<body>
<h1>${escapeHtml(data.shopName)}</h1>
<p>What the Shopify fake holds (refreshes every 5 s). / Що зберігає імітація Shopify.</p>
<h2>Orders · Замовлення</h2>
<table><tr><th>Order</th><th>Created</th><th>Fulfillment order</th><th>Fulfillments, tracking</th></tr>
${orders}
</table>
<h2>Inventory at ${escapeHtml(data.location)} · Залишки</h2>
<table><tr><th>Product</th><th>Variant</th><th>SKU</th><th>available</th><th>on_hand</th></tr>
${inventory}
</table>
</body>
</html>
`;
}

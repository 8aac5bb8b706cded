// Shopify's GET <callbackUrl>/fetch_tracking_numbers, asked of a fulfillment service with trackingSupport:
// the waybills of the orders it names, answered from what the app recorded (never a warehouse call on
// Shopify's request). Shopify signs these GETs as its fulfillment-service client does: the query string as
// sent (shop, timestamp, the order names) is HMAC-SHA256'd with the app's secret, base64, in
// X-Shopify-Hmac-Sha256, with X-Shopify-Shop-Domain; a request older or newer than 90 seconds (the library's
// tolerance for signed queries) is refused, so a captured one cannot be replayed later.
//
// fetch_stock is not answered: the service is registered with inventoryManagement off (register.server.ts),
// so Shopify never asks; the stock sync writes the warehouse's figures itself, net of what the store promised.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ServiceDeps } from "../context.server";
import { waybillsOf } from "../fulfillment/need";

/** How far a signed request's timestamp may be from now. */
export const SIGNED_GET_TOLERANCE_S = 90;
/** Orders answered in one request: Shopify asks for a few; more is not a request it makes. */
const MAX_ORDERS = 250;

/** Whether the request carries Shopify's signature of its query string, for `shop`, made just now. */
export function signedByShopify(
  request: Request,
  secret: string,
  now: Date,
): { ok: true; shop: string } | { ok: false } {
  const url = new URL(request.url);
  const query = url.search.replace(/^\?/, "");
  const given = request.headers.get("X-Shopify-Hmac-Sha256") ?? "";
  const expected = createHmac("sha256", secret).update(query, "utf8").digest();
  const givenBytes = Buffer.from(given, "base64");
  if (givenBytes.length !== expected.length || !timingSafeEqual(givenBytes, expected)) return { ok: false };
  const shop = url.searchParams.get("shop") ?? "";
  const header = request.headers.get("X-Shopify-Shop-Domain");
  if (!shop || (header !== null && header !== shop)) return { ok: false };
  const timestamp = Number(url.searchParams.get("timestamp"));
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > SIGNED_GET_TOLERANCE_S) {
    return { ok: false };
  }
  return { ok: true, shop };
}

/** The names Shopify asks about ("#1001.1" is the first fulfillment of order #1001), by either form it uses. */
function namesAsked(url: URL): string[] {
  return [...url.searchParams.getAll("order_names[]"), ...url.searchParams.getAll("order_names")]
    .map((name) => name.trim())
    .filter(Boolean)
    .slice(0, MAX_ORDERS);
}

/** The answer Shopify reads: each name with the order's waybill; a name without one is left out. */
export async function trackingNumbers(
  deps: ServiceDeps,
  shop: string,
  url: URL,
): Promise<{ tracking_numbers: Record<string, string>; message: string; success: true }> {
  const names = namesAsked(url);
  const orderNameOf = (name: string) => name.replace(/\.\d+$/, "");
  const ids = url.searchParams
    .getAll("order_ids[]")
    .concat(url.searchParams.getAll("order_ids"))
    .filter((id) => /^\d+$/.test(id))
    .slice(0, MAX_ORDERS);
  const rows = await deps.db.warehouseOrder.findMany({
    where: {
      shop,
      OR: [{ orderName: { in: [...new Set(names.map(orderNameOf))] } }, { shopifyOrderId: { in: ids } }],
    },
    select: { orderName: true, shopifyOrderId: true, ttn: true, fulfilledTtn: true, waybills: true },
  });
  const tracking: Record<string, string> = {};
  const waybillOf = (row: (typeof rows)[number]) =>
    row.fulfilledTtn ?? row.ttn ?? waybillsOf(row).at(-1) ?? null;
  for (const name of names) {
    const row = rows.find((candidate) => candidate.orderName === orderNameOf(name));
    const waybill = row && waybillOf(row);
    if (waybill) tracking[name] = waybill;
  }
  for (const id of ids) {
    const row = rows.find((candidate) => candidate.shopifyOrderId === id);
    const waybill = row && waybillOf(row);
    if (waybill) tracking[id] = waybill;
  }
  return { tracking_numbers: tracking, message: "Successfully received the tracking numbers", success: true };
}

/** The whole answer to the GET: 401 unsigned, 404 for a shop not in service mode, else the waybills. */
export async function answerTrackingRequest(
  deps: ServiceDeps,
  request: Request,
  secret: string,
): Promise<Response> {
  const signed = signedByShopify(request, secret, deps.clock());
  if (!signed.ok) return new Response(null, { status: 401 });
  const settings = await deps.db.shopSettings.findUnique({
    where: { shop: signed.shop },
    select: { fulfillmentServiceId: true },
  });
  if (!settings?.fulfillmentServiceId) return new Response(null, { status: 404 });
  return Response.json(await trackingNumbers(deps, signed.shop, new URL(request.url)));
}

// The storefront's branch picker (extensions/branch-picker) asks for cities and branches through Shopify's app
// proxy: /apps/sklad-sync/cities and /apps/sklad-sync/branches on the shop's domain reach app/routes/proxy.*.ts,
// with the query signed by Shopify for the shop (the library checks the signature before this runs). The
// answers are small (a page of hits with only what the picker shows), cacheable (the same question gets the
// same answer until the data changes), rate limited per visitor, and never another shop's data: the shop
// comes from the signed query. A request never builds the search (store.server.ts): while the shop's set is
// being built it is answered 202 "not ready, try again" with Retry-After, which the picker asks again after
// (202, not 503: a browser logs every 4xx and 5xx answer as an error in the shop's console).
import { createHash } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../context.server";
import type { Db } from "../db.server";
import type { Log } from "../logger.server";
import { TokenBuckets } from "../http/token-buckets";
import { i18nFor } from "../i18n/i18n";
import { DEFAULT_LOCALE, supportedLocale, type Locale } from "../i18n/locales";
import { CARRIER_REF_PATTERN } from "../warehouse/wire";
import { referenceSearchStateFor, type SearchState } from "./store.server";
import type { BranchKind, CarrierBranch, CarrierCity, ReferenceSearch } from "./types";

export interface ProxyDeps {
  db: Db;
  clock: Clock;
  log?: Log;
  /** Proxies in front of the app that append to X-Forwarded-For (env TRUSTED_PROXY_HOPS); 0 by default. */
  trustedProxyHops?: number;
}

/** What the connection itself says of the request (not its headers): the address it came from. */
export interface Connection {
  /** The address of whoever opened the TCP connection to the app; undefined where unknown (dev server). */
  socketAddress?: string;
}

/** At most this many hits in one answer: a screenful in the picker's list. */
export const MAX_HITS = 20;
const MAX_TEXT = 100;

// Type-ahead after a 250 ms pause: a fast typist's word is a burst of a few searches, a person choosing a
// city and a branch a few dozen in a minute. The shop's bucket caps what many addresses can ask of one
// shop's data in all.
const visitorBuckets = new TokenBuckets({ capacity: 40, refillPerSecond: 2, maxKeys: 20_000 });
const shopBuckets = new TokenBuckets({ capacity: 2_000, refillPerSecond: 200, maxKeys: 5_000 });

// A found answer stays as long as the data behind it, which is refreshed daily; "not ready yet" is asked
// again soon, since the first refresh may be a minute away.
const CACHE_READY = "public, max-age=600";
const CACHE_NOT_READY = "public, max-age=60";
/** While the shop's search builds (a second or two per key, one key at a time): ask again after this. */
export const BUILDING_RETRY_SECONDS = 2;

const text = z.string().trim().max(MAX_TEXT, `at most ${MAX_TEXT} characters`);
const limit = z.coerce
  .number()
  .int("must be a whole number")
  .min(1, "at least 1")
  .max(MAX_HITS, `at most ${MAX_HITS}`);
// The proxy's own parameters and the locale are read elsewhere; unknown ones are ignored.
const citiesQuery = z.object({
  q: text.min(1, "type at least one letter"),
  limit: limit.default(10),
});
const branchesQuery = z.object({
  city: z.string().regex(CARRIER_REF_PATTERN, "must be a carrier Ref (36-character lowercase uuid)"),
  q: text.default(""),
  kind: z.enum(["branch", "postomat"]).optional(),
  limit: limit.default(MAX_HITS),
});

/** What the picker shows of a city: the carrier's Ukrainian name, and the kind and region that tell
 * same-named ones apart ("Іванівка, село, Херсонська обл."). */
export interface CityAnswer {
  ref: string;
  name: string;
  label: string;
}

export interface BranchAnswer {
  ref: string;
  number: string;
  kind: BranchKind;
  /** The carrier's own description. */
  label: string;
  city: { name: string; area?: string };
}

/** The delivery types' kinds: a "branch" is a staffed branch or a small in-store one; a parcel locker is itself. */
const KINDS: Record<"branch" | "postomat", readonly BranchKind[]> = {
  branch: ["branch", "store"],
  postomat: ["postomat"],
};

function localeOf(url: URL): Locale {
  return supportedLocale(url.searchParams.get("locale")?.slice(0, 16)) ?? DEFAULT_LOCALE;
}

function queryObject(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  // The first of a repeated parameter, as the signature check took them joined; ours are single.
  for (const [key, value] of url.searchParams) query[key] ??= value;
  return query;
}

/**
 * The address the request came from, as far as a client cannot forge it: the connection's own address, or,
 * behind `trustedHops` proxies of ours that each append the address they were reached from to
 * X-Forwarded-For, the entry the farthest of them appended. Entries to its left are whatever the client
 * wrote and are never read. Undefined when the connection's address is unknown.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | null,
  trustedHops: number,
): string | undefined {
  if (!socketAddress) return undefined;
  const chain = [
    ...(forwardedFor ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
    socketAddress,
  ];
  return chain[Math.max(0, chain.length - 1 - trustedHops)];
}

/**
 * Who is asking, per shop, in terms a visitor cannot forge: the logged-in customer Shopify named in the
 * signed query, else the address the request came from (clientAddress).
 */
export function visitorKey(shop: string, url: URL, address: string | undefined): string {
  const customer = url.searchParams.get("logged_in_customer_id");
  if (customer) return `${shop} customer:${customer.slice(0, 32)}`;
  return `${shop} ip:${(address || "unknown").slice(0, 64)}`;
}

function json(body: unknown, init: { status: number; headers: Record<string, string> }): Response {
  return new Response(JSON.stringify(body), {
    status: init.status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...init.headers },
  });
}

/** A cacheable answer: an ETag of its bytes, and 304 when the browser already has them. */
function cacheable(request: Request, body: unknown, cacheControl: string): Response {
  const bytes = JSON.stringify(body);
  const etag = `W/"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  const headers = { "Cache-Control": cacheControl, ETag: etag };
  const known = request.headers.get("if-none-match");
  if (known && known.split(",").some((tag) => tag.trim() === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(bytes, {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
}

function badRequest(locale: Locale, error: z.ZodError): Response {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join(".") || "query"] ??= issue.message;
  return json(
    { error: i18nFor(locale).t("storefront:badRequest"), fields },
    { status: 400, headers: { "Cache-Control": "no-store" } },
  );
}

/** 429 when the visitor (or the shop as a whole) has asked too much, else null. */
function refusedForRate(
  deps: ProxyDeps,
  shop: string,
  request: Request,
  connection: Connection,
  locale: Locale,
): Response | null {
  const now = deps.clock().getTime();
  const address = clientAddress(
    connection.socketAddress,
    request.headers.get("x-forwarded-for"),
    deps.trustedProxyHops ?? 0,
  );
  const taken = visitorBuckets.take(visitorKey(shop, new URL(request.url), address), now);
  const result = taken.ok ? shopBuckets.take(shop, now) : taken;
  if (result.ok) return null;
  const seconds = result.retryAfterSeconds;
  return json(
    { error: i18nFor(locale).t("storefront:tooManyRequests", { seconds }) },
    { status: 429, headers: { "Retry-After": String(seconds), "Cache-Control": "no-store" } },
  );
}

/** "Київська обл." per locale and oblast: a translation costs more than the rest of a city's answer, and
 * Ukraine has a few dozen oblasts (bounded anyway, should a set bring odd ones). */
const areaLabels = new Map<string, string>();

function areaLabel(area: string, locale: Locale): string {
  const key = `${locale}|${area}`;
  let label = areaLabels.get(key);
  if (label === undefined) {
    label = i18nFor(locale).t("storefront:area", { area });
    if (areaLabels.size >= 1_000) areaLabels.clear();
    areaLabels.set(key, label);
  }
  return label;
}

export function cityLabel(city: CarrierCity, locale: Locale): string {
  const area = city.area ? areaLabel(city.area, locale) : undefined;
  return [city.name, city.kind, area].filter(Boolean).join(", ");
}

function branchAnswer(branch: CarrierBranch, city: CarrierCity | undefined): BranchAnswer {
  return {
    ref: branch.ref,
    number: branch.number,
    kind: branch.kind,
    label: branch.description,
    city: { name: city?.name ?? "", ...(city?.area && { area: city.area }) },
  };
}

interface Asked {
  shop: string;
  locale: Locale;
  query: Record<string, string>;
  /** The shop's reference data as it stands: ready, being built, or none before the first refresh. */
  search: () => Promise<SearchState>;
}

/** The checks both questions share: rate, then input; the answer's words in the `locale` asked for. */
async function answer(
  deps: ProxyDeps,
  request: Request,
  connection: Connection,
  respond: (asked: Asked) => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url);
  // The library has checked the signature over the whole query, `shop` included.
  const shop = url.searchParams.get("shop") ?? "";
  const locale = localeOf(url);
  const refused = refusedForRate(deps, shop, request, connection, locale);
  if (refused) return refused;
  return respond({
    shop,
    locale,
    query: queryObject(url),
    search: () => referenceSearchStateFor(deps.db, shop, deps.log),
  });
}

function notReady(request: Request, locale: Locale, list: "cities" | "branches"): Response {
  return cacheable(
    request,
    { ready: false, [list]: [], message: i18nFor(locale).t("storefront:notReady") },
    CACHE_NOT_READY,
  );
}

/**
 * The shop's set is there but its search is still being built: 202 Accepted with Retry-After, never cached,
 * and the body the picker reads (`ready: false` with `retryAfterSeconds`): it asks again after that many
 * seconds. A picker that knows only `ready: false` lets the buyer type, as for a shop without data.
 */
function building(locale: Locale, list: "cities" | "branches"): Response {
  return json(
    {
      ready: false,
      retryAfterSeconds: BUILDING_RETRY_SECONDS,
      [list]: [],
      message: i18nFor(locale).t("storefront:building"),
    },
    {
      status: 202,
      headers: { "Retry-After": String(BUILDING_RETRY_SECONDS), "Cache-Control": "no-store" },
    },
  );
}

/** The search, or the answer to give when there is none to search yet. */
async function searchOrWait(
  request: Request,
  locale: Locale,
  list: "cities" | "branches",
  search: Asked["search"],
): Promise<ReferenceSearch | Response> {
  const found = await search();
  if (found.state === "ready") return found.search;
  return found.state === "building" ? building(locale, list) : notReady(request, locale, list);
}

/** GET /proxy/cities?q=Київ&limit=10&locale=uk */
export function answerCities(
  deps: ProxyDeps,
  request: Request,
  connection: Connection = {},
): Promise<Response> {
  return answer(deps, request, connection, async ({ locale, query, search }) => {
    const parsed = citiesQuery.safeParse(query);
    if (!parsed.success) return badRequest(locale, parsed.error);
    const data = await searchOrWait(request, locale, "cities", search);
    if (data instanceof Response) return data;
    const cities: CityAnswer[] = data
      .searchCities(parsed.data.q, parsed.data.limit)
      .slice(0, parsed.data.limit)
      .map(({ city }) => ({ ref: city.ref, name: city.name, label: cityLabel(city, locale) }));
    return cacheable(request, { ready: true, cities }, CACHE_READY);
  });
}

/** GET /proxy/branches?city=<Ref>&q=12&kind=postomat&limit=20&locale=uk; without `q`, the city's first ones. */
export function answerBranches(
  deps: ProxyDeps,
  request: Request,
  connection: Connection = {},
): Promise<Response> {
  return answer(deps, request, connection, async ({ locale, query, search }) => {
    const parsed = branchesQuery.safeParse(query);
    if (!parsed.success) return badRequest(locale, parsed.error);
    const { city: cityRef, q, kind, limit: count } = parsed.data;
    const data = await searchOrWait(request, locale, "branches", search);
    if (data instanceof Response) return data;
    const kinds = kind ? KINDS[kind] : undefined;
    const city = data.city(cityRef);
    const found = q
      ? data
          .searchBranches({ cityRef, text: q, ...(kinds && { kinds }), limit: count })
          .map((hit) => hit.branch)
      : data
          .branchesOf(cityRef)
          .filter((branch) => branch.working && (!kinds || kinds.includes(branch.kind)))
          .slice(0, count);
    const branches = found.slice(0, count).map((branch) => branchAnswer(branch, city));
    return cacheable(request, { ready: true, branches }, CACHE_READY);
  });
}

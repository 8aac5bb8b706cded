// Courier orders: the city (with how sure it is, and up to three candidates) and the street, house and flat
// as written; the warehouse takes the street as text. Never throws: odd input gives a match with nothing
// in it.
import type { ShopifyOrder } from "../../orders/payload";
import { readStructuredHints } from "../structured";
import type { CarrierCity, CityMatch, ReferenceSearch } from "../types";
import { addressCities, structuredCities, type CityChoice } from "./cities";
import { AMBIGUOUS_CITY_CAP, CONTRADICTION_CAP, round } from "./confidence";
import { MAX_TEXT } from "./reading";

export function matchCity(order: ShopifyOrder, search: ReferenceSearch): CityMatch {
  try {
    return matchCityOrThrow(order, search);
  } catch {
    return { cityRef: null, confidence: 0, candidates: [], source: "none" };
  }
}

function matchCityOrThrow(order: ShopifyOrder, search: ReferenceSearch): CityMatch {
  const hints = readStructuredHints(order, search);
  for (const hint of hints) {
    const cities = structuredCities(hint, search);
    if (cities.length === 0) continue;
    return cityResult(cities, "structured", {
      street: hint.streets[0],
      house: hint.houses[0],
      flat: hint.flats[0],
    });
  }
  const address = order.shipping_address ?? undefined;
  const cities = addressCities(address, [], search, order.note ?? "");
  if (cities.length === 0) return { cityRef: null, confidence: 0, candidates: [], source: "none" };
  return cityResult(cities, "address", streetOf(address?.address1 ?? "", address?.address2 ?? ""));
}

function cityResult(
  cities: readonly CityChoice[],
  source: CityMatch["source"],
  street: { street?: string | undefined; house?: string | undefined; flat?: string | undefined },
): CityMatch {
  const scored = cities.map((choice) => ({
    city: choice.city,
    score: round(
      Math.min(
        choice.ambiguous
          ? Math.min(choice.certainty, AMBIGUOUS_CITY_CAP) / Math.sqrt(cities.length)
          : choice.certainty,
        choice.contradicted ? CONTRADICTION_CAP : 1,
      ),
    ),
  }));
  const top = scored[0]!;
  const result: CityMatch = {
    cityRef: top.city.ref,
    confidence: top.score,
    candidates: scored
      .slice(0, 3)
      .map(({ city, score }) => ({ ref: city.ref, label: cityLabel(city), score })),
    source,
  };
  if (street.street) result.street = street.street;
  if (street.house) result.house = street.house;
  if (street.flat) result.flat = street.flat;
  return result;
}

/** "Миколаївка (Івано-Франківська обл.)". */
export function cityLabel(city: CarrierCity): string {
  return city.area ? `${city.name} (${city.area} обл.)` : city.name;
}

const STREET_PATTERN =
  /^\s*(?:(?:вул|вулиця|ул|улица|просп|проспект|пр|пров|провулок|пер|переулок|бульв|бульвар|бул|пл|площа|площадь|наб|шосе|шоссе|street|str|st|vul|ulitsa|vulytsia|prosp|ave)\.?\s+)?([^\d,]+?)[\s,]+(?:буд\.?|будинок|дом|д\.?|house|bud\.?)?\s*(\d+[\p{L}]?(?:\/\d+)?)(?:[\s,]+(?:кв\.?|квартира|flat|apt\.?|kv\.?)\s*(\d+))?/iu;

/** "вул. Хрещатик, 22, кв. 5" → street "Хрещатик", house "22", flat "5". */
export function streetOf(
  address1: string,
  address2 = "",
): { street?: string; house?: string; flat?: string } {
  const text = `${address1.slice(0, MAX_TEXT)} ${address2.slice(0, MAX_TEXT)}`.trim();
  const match = STREET_PATTERN.exec(text);
  if (!match) return {};
  const result: { street?: string; house?: string; flat?: string } = { street: match[1]!.trim() };
  if (match[2]) result.house = match[2];
  const flat = match[3] ?? /(?:кв\.?|квартира|flat|apt\.?|kv\.?)\s*(\d+)/iu.exec(text)?.[1];
  if (flat) result.flat = flat;
  return result;
}

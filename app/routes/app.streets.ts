// The admin's street search (the order page's courier address): the carrier's streets of a city, through
// the shop's warehouse key and kept a week (app/reference/street-search.server.ts). A resource route: JSON
// only, for the signed-in admin's own shop.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { appContext } from "../context.server";
import { searchStreets, type StreetSearchAnswer } from "../reference/street-search.server";
import { authenticate } from "../shopify.server";
import { CARRIER_REF_PATTERN } from "../warehouse/wire";

export type { StreetSearchAnswer };

const querySchema = z.object({
  q: z.string().trim().min(2).max(100),
  cityRef: z.string().trim().toLowerCase().regex(CARRIER_REF_PATTERN),
});

export const loader = async ({ request }: LoaderFunctionArgs): Promise<StreetSearchAnswer> => {
  const { session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const query = querySchema.safeParse({ q: params.get("q") ?? "", cityRef: params.get("cityRef") ?? "" });
  if (!query.success) return { available: true, streets: [], invalid: true };
  return searchStreets(appContext(), session.shop, query.data.cityRef, query.data.q);
};

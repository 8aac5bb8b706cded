// The delivery form's SKU picker: the shop's catalogue SKUs holding what was typed, twenty at most, those
// whose card the warehouse has first. A resource route: JSON only, for the signed-in admin's own shop.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { appContext } from "../context.server";
import { searchSkus, type SkuHit } from "../deliveries/queries.server";
import { authenticate } from "../shopify.server";

export interface SkuSearchAnswer {
  hits: SkuHit[];
}

const querySchema = z.string().trim().min(1).max(100);

export const loader = async ({ request }: LoaderFunctionArgs): Promise<SkuSearchAnswer> => {
  const { session } = await authenticate.admin(request);
  const query = querySchema.safeParse(new URL(request.url).searchParams.get("q") ?? "");
  if (!query.success) return { hits: [] };
  return { hits: await searchSkus(appContext().db, session.shop, query.data) };
};

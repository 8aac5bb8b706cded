// The admin's branch search (the order page's branch choice): the shop's reference data searched by city,
// number, address words or name. A resource route: JSON only, for the signed-in admin's own shop.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { appContext } from "../context.server";
import { referenceSearchFor } from "../reference/store.server";
import { branchLabel } from "../reference/types";
import { authenticate } from "../shopify.server";
import { CARRIER_REF_PATTERN } from "../warehouse/wire";

const querySchema = z.object({
  q: z.string().trim().min(1).max(100),
  cityRef: z.string().trim().toLowerCase().regex(CARRIER_REF_PATTERN).optional(),
});

export interface BranchSearchAnswer {
  /** False until the shop's reference data is in (no key yet, or the first refresh still running). */
  available: boolean;
  hits: { ref: string; label: string; kind: string }[];
  /** The query could not be read (empty, too long, a malformed city). */
  invalid?: true;
}

export const loader = async ({ request }: LoaderFunctionArgs): Promise<BranchSearchAnswer> => {
  const { session } = await authenticate.admin(request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = querySchema.safeParse({ q: params.q, cityRef: params.cityRef || undefined });
  const { db, log } = appContext();
  const search = await referenceSearchFor(db, session.shop, { log });
  if (!search) return { available: false, hits: [] };
  if (!query.success) return { available: true, hits: [], invalid: true };
  const hits = search.searchBranches({ text: query.data.q, cityRef: query.data.cityRef, limit: 10 });
  return {
    available: true,
    hits: hits.map(({ branch, city }) => ({
      ref: branch.ref,
      label: branchLabel(branch, city),
      kind: branch.kind,
    })),
  };
};

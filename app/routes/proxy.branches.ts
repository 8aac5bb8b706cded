// The branch picker's branch and parcel-locker search in a chosen city, reached through Shopify's app proxy
// (/apps/sklad-sync/branches on the shop's domain). The library verifies Shopify's signature first: a
// missing or wrong one gets 400 and no data.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { answerBranches } from "../reference/proxy.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.public.appProxy(request);
  return answerBranches(appContext(), request);
};

// The branch picker's branch and parcel-locker search in a chosen city, reached through Shopify's app proxy
// (/apps/sklad-sync/branches on the shop's domain). The library verifies Shopify's signature first: a
// missing or wrong one gets 400 and no data.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { env } from "../env.server";
import { socketAddressOf } from "../http/connection";
import { answerBranches } from "../reference/proxy.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request, context }: LoaderFunctionArgs) => {
  await authenticate.public.appProxy(request);
  return answerBranches({ ...appContext(), trustedProxyHops: env().TRUSTED_PROXY_HOPS }, request, {
    socketAddress: socketAddressOf(context),
  });
};

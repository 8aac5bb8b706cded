// Inbound delivery requests as a CSV file, for a spreadsheet: one row per line of each request (request,
// the warehouse's number, date, method, status, SKU, planned, received), newest first, with the list's filters.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { deliveriesCsv, deliveryListQueryOf } from "../deliveries/queries.server";
import { csvResponse } from "../http/csv";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const { status, search } = deliveryListQueryOf(new URL(request.url));
  const csv = await deliveriesCsv(appContext().db, session.shop, { status, search });
  return csvResponse(csv, "deliveries.csv");
};

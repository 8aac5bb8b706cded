// The newest stock sync's drift as a CSV file, for a spreadsheet: one row per SKU that does not match.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { csvResponse } from "../http/csv";
import { authenticate } from "../shopify.server";
import { driftCsv } from "../stock/queries.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const csv = await driftCsv(appContext().db, session.shop);
  return csvResponse(csv, "stock-drift.csv");
};

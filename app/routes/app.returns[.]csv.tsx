// The returns register as a CSV file, for a spreadsheet: one row per line of each return, with the Returns
// page's filters and search (its URL's query). Column names are fixed English words, as the stock drift's.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { csvDocument, csvResponse, type CsvValue } from "../http/csv";
import { returnsCsvRows, returnsQueryOf } from "../returns/queries.server";
import { authenticate } from "../shopify.server";
import { kyivDay } from "../warehouse/dates";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const rows = await returnsCsvRows(appContext().db, session.shop, returnsQueryOf(new URL(request.url)));
  const table: CsvValue[][] = [["date", "order", "id_order", "ttn", "sku", "count", "defective"]];
  for (const row of rows)
    table.push([
      row.returnedAt ? kyivDay(row.returnedAt) : "",
      row.orderName,
      row.idOrder,
      row.ttn,
      row.sku,
      row.count,
      row.unreadable ? "unreadable" : row.defective ? "yes" : "no",
    ]);
  return csvResponse(csvDocument(table), "returns.csv");
};

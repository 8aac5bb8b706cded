// A SKU's movements over a period as a CSV file (sku, date, document, quantity, balance), asked of the
// warehouse as the SKU page asks: the same query, the same period rules. A query that names no SKU or no
// period answers 400, a warehouse that cannot answer 503, each with a sentence and no file.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { appContext } from "../context.server";
import { csvDocument, csvResponse } from "../http/csv";
import { authenticate } from "../shopify.server";
import { movementCsvRows, readPeriod, readSkuQuery } from "../stock/movements";
import { skuMovements } from "../stock/movements.server";

const refusal = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const deps = appContext();
  const query = readSkuQuery(new URL(request.url).searchParams);
  if (!query.success) return refusal(400, "Name the SKU: ?sku=…");
  const asked = readPeriod(query.data, deps.clock());
  if (!asked.ok) return refusal(400, "The period is not one the page shows: check its dates.");
  const movements = await skuMovements(deps, session.shop, query.data.sku, asked.period);
  if (!movements.ok) return refusal(503, "The warehouse could not give the movements now; try again.");
  const { from, to } = asked.period;
  return csvResponse(
    csvDocument(movementCsvRows(query.data.sku, movements.report)),
    `movements-${from}-${to}.csv`,
  );
};

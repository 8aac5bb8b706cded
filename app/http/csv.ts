// CSV for the admin's exports (stock drift, returns, inbound deliveries, movements): every field quoted, and a
// field that a spreadsheet would read as a formula neutralised, since SKUs, comments and waybills come from
// merchants, buyers and the warehouse.

export type CsvValue = string | number | boolean | null | undefined;

/** A CSV field: quoted, quotes doubled, and a leading formula character neutralised for spreadsheets. */
export function csvField(value: CsvValue): string {
  const text = value === null || value === undefined ? "" : String(value);
  // A number is written as itself: "-3" (a quantity out) is a number to a spreadsheet, never a formula.
  const formula = typeof value !== "number" && /^[=+\-@\t\r]/.test(text);
  const safe = formula ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** Rows (the first one the header) as a CSV document, CRLF line ends as RFC 4180 has them. */
export function csvDocument(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** The document as a download named `filename` (ASCII letters, digits, dots and dashes only). */
export function csvResponse(csv: string, filename: string): Response {
  if (!/^[\w.-]+\.csv$/.test(filename)) throw new Error(`not a safe CSV file name: ${filename}`);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

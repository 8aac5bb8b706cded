// A file the app makes (the CSV exports) downloaded from an admin page. Through fetch, which App Bridge
// authenticates with the session token; a plain link would reach the app without one and be refused.

/** Fetches `path` and saves the answer as `filename`; answers whether it was saved. */
export async function downloadFile(path: string, filename: string): Promise<boolean> {
  const response = await fetch(path).catch(() => null);
  if (!response?.ok) return false;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = filename;
  anchor.click();
  URL.revokeObjectURL(url);
  return true;
}

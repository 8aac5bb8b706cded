// A file the app makes (the CSV exports) downloaded from an admin page. Through fetch, which App Bridge
// authenticates with the session token; a plain link would reach the app without one and be refused.
import { useCallback, useState } from "react";

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

/** A page's download, and whether its last try failed (for the page to say so, in its own words). */
export function useDownload(): { download: (path: string, filename: string) => void; failed: boolean } {
  const [failed, setFailed] = useState(false);
  const download = useCallback((path: string, filename: string) => {
    void downloadFile(path, filename).then((done) => setFailed(!done));
  }, []);
  return { download, failed };
}

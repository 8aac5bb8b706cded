// Whether the page's script has taken over the server's HTML. A field that only works through the script
// (a search that opens a list as the merchant types) is read-only until then: typed into the server's HTML,
// the words were lost when the script took over (it renders the field again with its own, empty value) and
// the list never opened, since it opens on a focus or a change the script itself sees.
import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/** False on the server and while the page hydrates; true afterwards, and at once after a navigation. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

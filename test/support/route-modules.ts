// The app's route modules by URI, each imported once, as Remix holds its routes. Imports nothing of the app
// itself until a route is called, so the demo (scripts/demo) may load it before the app's environment is set;
// the tests' route server (route-server.ts) and the demo both call routes through it.
import path from "node:path";
import { routeFor } from "./webhooks";

type Action = (args: {
  request: Request;
  params: Record<string, string>;
  context: object;
}) => Promise<Response>;

// Each route module imported once, as Remix holds its routes: an import() per request went through tsx's
// loader hooks on their own thread every time, about 0.4 ms of CPU a webhook that bench:intake counted.
const routes = new Map<string, Promise<{ action: Action }>>();

/**
 * The route module that serves `pathname` (the request's own unless given), called with the request; what it
 * throws is thrown as it is, and the caller answers a failure its own way.
 */
export async function callRoute(
  request: Request,
  pathname: string = new URL(request.url).pathname,
): Promise<Response> {
  const route = routeFor(pathname);
  const file = path.resolve(route.file);
  let module = routes.get(file);
  if (!module) {
    module = import(/* @vite-ignore */ file) as Promise<{ action: Action }>;
    // A route that failed to load is tried again on the next request, as before.
    module.catch(() => routes.delete(file));
    routes.set(file, module);
  }
  return (await module).action({ request, params: route.params, context: {} });
}

// `npm run demo`: the app, the warehouse simulator and a Shopify stand-in on this machine, with sample orders
// flowing end to end; no account, no network. `npm run demo -- --check` runs the same flow headless and exits
// 0 once an order has gone from its webhook to delivered with its fulfillment in the fake store. The demo
// mints session tokens for its shop, so it refuses to run in production before anything else is loaded.
if (process.env.NODE_ENV === "production") {
  console.error(
    "npm run demo refuses to start with NODE_ENV=production: it serves a stand-in for the Shopify admin that " +
      "signs session tokens, which must never run beside a deployed app. Unset NODE_ENV (or set it to " +
      "development) to run the demo; deploy the app with `npm start`.",
  );
  process.exit(1);
}

await import("./run");

export {};

// Loaded with `--import` into a child process a test starts (a worker, say): the same network guard as the
// test process, with Admin API traffic sent to the Shopify fake the test names in TEST_SHOPIFY_FAKE_URL.
import { installNetworkGuard, routeShopifyTo } from "./network";

installNetworkGuard();
routeShopifyTo(process.env.TEST_SHOPIFY_FAKE_URL);

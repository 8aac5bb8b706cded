import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import graphqlConfig from "../../.graphqlrc";
import { ADMIN_API_VERSION } from "../../app/api-version";
import { apiVersion } from "../../app/shopify.server";
import { appToml, routeFileFor } from "../support/webhooks";

describe("the Admin API version", () => {
  it("is the same in app/shopify.server.ts, shopify.app.toml and the codegen config", () => {
    expect(apiVersion).toBe(ADMIN_API_VERSION);
    expect(appToml().webhooks.api_version).toBe(apiVersion);
    const targets = Object.values(graphqlConfig.extensions.codegen.generates) as { schema: string }[];
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(path.basename(target.schema)).toBe(`admin-${apiVersion}.json`);
  });
});

describe("shopify.app.toml", () => {
  const { webhooks, access_scopes } = appToml();
  const source = readFileSync("shopify.app.toml", "utf8");

  it.each(webhooks.subscriptions.map((subscription) => [subscription.uri, subscription] as const))(
    "%s has a route with an action and a `# Handled by:` comment naming it",
    async (uri) => {
      const file = routeFileFor(uri);
      const route = (await import(/* @vite-ignore */ path.resolve(file))) as { action?: unknown };
      expect(typeof route.action).toBe("function");
      const block = source.slice(0, source.indexOf(`uri = "${uri}"`));
      const comment = block.slice(block.lastIndexOf("# Handled by:"));
      expect(comment.split("\n")[0]).toBe(`# Handled by: /${file}`);
    },
  );

  it("subscribes to the three mandatory compliance topics", () => {
    const compliance = webhooks.subscriptions.flatMap((subscription) => subscription.compliance_topics ?? []);
    expect(compliance.sort()).toEqual(["customers/data_request", "customers/redact", "shop/redact"]);
  });

  it("declares the app proxy the branch picker calls, served by the proxy routes under the app's URL", async () => {
    const { app_proxy, application_url } = appToml();
    expect(app_proxy).toEqual({ url: `${application_url}/proxy`, subpath: "sklad-sync", prefix: "apps" });
    for (const file of ["app/routes/proxy.cities.ts", "app/routes/proxy.branches.ts"]) {
      const route = (await import(/* @vite-ignore */ path.resolve(file))) as { loader?: unknown };
      expect(typeof route.loader, file).toBe("function");
    }
    // The blocks call the storefront path the proxy gives.
    const block = readFileSync("extensions/branch-picker/snippets/branch-picker.liquid", "utf8");
    expect(block).toContain(`/${app_proxy.prefix}/${app_proxy.subpath}`);
  });

  it("justifies every requested scope in a comment", () => {
    const scopes = access_scopes.scopes.split(",");
    const comments = source.slice(source.indexOf("[access_scopes]"), source.indexOf("scopes = "));
    for (const scope of scopes) expect(comments, scope).toContain(scope);
  });
});

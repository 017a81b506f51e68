import { describe, expect, it } from "vitest";
import { apiRoutes } from "./app.ts";
import { openApiDocument } from "./openapi.ts";

describe("the OpenAPI document", () => {
  it("describes every call the API serves, and no call it does not serve", () => {
    // Building the routes registers their documentation; no request runs, so no runtime is needed.
    const app = apiRoutes({ runtime: undefined as never, clientIp: () => null, publicUrl: "http://crown.test" });
    const toOpenApi = (path: string) => path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "{$1}");
    const served = new Set(
      app.routes
        .filter((r) => r.method === "GET" || r.method === "POST")
        .map((r) => `${r.method.toLowerCase()} ${toOpenApi(r.path)}`)
        .filter((call) => call !== "get /openapi.json"),
    );
    const doc = openApiDocument("http://crown.test/api/v1/en");
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`)));
    expect([...served].filter((call) => !documented.has(call)).sort()).toEqual([]);
    expect([...documented].filter((call) => !served.has(call)).sort()).toEqual([]);
  });
});

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The browser apps read the lifecycles (and the rules beside them) from core itself (ADR 41, 42, 68):
 * those modules must import values from xstate or from other plain modules of core only (type
 * imports are erased), so no Effect runtime reaches the portal's or the kiosk's bundles through them
 * (the sign-in page's budget is tested in tests/e2e/web-public.spec.ts).
 */
const core = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../core/src");
const BROWSER_MODULES = [
  "report/lifecycle.ts",
  "report/entities.ts",
  "accounts/lifecycle.ts",
  "accounts/statuses.ts",
  "onboarding/lifecycle.ts",
  "onboarding/steps.ts",
  "kiosk/machine.ts",
  "kiosk/revocation.ts",
  "capture/machine.ts",
  "shared/phone.ts",
  "measurement/correction.ts",
];

const valueImports = (file: string) =>
  [...readFileSync(path.join(core, file), "utf8").matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gm)].map((m) => m[1] ?? "");

/** Every core module a browser module reaches by value imports, and the packages they import. */
const reach = (start: string) => {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const from of valueImports(file)) {
      if (from.startsWith(".")) visit(path.relative(core, path.resolve(path.dirname(path.join(core, file)), from)));
      else packages.add(from);
    }
  };
  visit(start);
  return { modules: [...modules], packages: [...packages] };
};

describe("the core modules the browser imports stay plain", () => {
  it.each(BROWSER_MODULES)("core/src/%s reaches values from xstate only", (file) => {
    expect(reach(file).packages.filter((from) => from !== "xstate")).toEqual([]);
  });

  it("follows relative imports (the onboarding lifecycle reads the account machine)", () => {
    expect(reach("onboarding/lifecycle.ts").modules).toContain("accounts/lifecycle.ts");
  });
});

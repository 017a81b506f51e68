import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The portal and the kiosk call the API through @crown/client only (ADR 0143): `hc<AppType>`, so each
 * call names a route and its request and answer types come from the server. These checks fail on a
 * hand-written call (fetch, XMLHttpRequest, an API path written as a string) or a copied wire shape,
 * and prove that a renamed field in a route's schema fails the apps' typecheck.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const APPS = ["apps/web/src", "apps/kiosk/src"];

const sources = (dir: string): string[] =>
  readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return sources(rel);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
const appFiles = APPS.flatMap(sources);
const text = (file: string) => readFileSync(path.join(root, file), "utf8");
/** The code without its comments (a comment may name a route or XMLHttpRequest). */
const code = (file: string) => text(file).replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").replace(/\s\/\/ .*$/gm, "");

/** Every route path the API serves, as the routes write them (`/user/profile`, `/report/:id/download`). */
const routePaths = () => {
  const dir = "adapters/http/src/routes";
  const files = [...readdirSync(path.join(root, dir)).map((f) => `${dir}/${f}`), "adapters/http/src/app.ts"];
  return new Set(files.flatMap((f) => [...text(f).matchAll(/\.(?:get|post|put|delete|all)\(\s*"(\/[^"]+)"/g)].map((m) => m[1] ?? "")));
};
/** The fixed part of a path: up to its first parameter. */
const fixedPart = (route: string) => route.split("/:")[0] ?? route;

describe("the apps call the API through the typed client only", () => {
  it("no fetch, XMLHttpRequest or API address outside @crown/client (static files excepted)", () => {
    const offences: string[] = [];
    for (const file of appFiles) {
      const src = code(file);
      // Static files the server serves beside the API (the quiz's manifest, the model card) are not API calls.
      for (const m of src.matchAll(/\bfetch\(\s*([^)\n]*)/g)) if (!/^"\/(quiz|models)\//.test(m[1] ?? "")) offences.push(`${file}: fetch(${m[1]}`);
      if (/\bXMLHttpRequest\b/.test(src)) offences.push(`${file}: XMLHttpRequest`);
      if (/\/api\/v1\//.test(src)) offences.push(`${file}: an /api/v1/ address`);
    }
    expect(offences).toEqual([]);
  });

  it("no API path written as a string in the apps (a call names its route through hc)", () => {
    const paths = [...routePaths()].map(fixedPart).filter((p) => p.split("/").length > 2);
    expect(paths.length).toBeGreaterThan(50);
    const offences: string[] = [];
    for (const file of appFiles) {
      const src = code(file);
      for (const p of paths) if (src.includes(`"${p}"`) || src.includes(`\`${p}`) || src.includes(`"${p}/`) || src.includes(`\`${p}/`)) offences.push(`${file}: "${p}"`);
    }
    expect(offences).toEqual([]);
  });

  it("no copied wire shape: an app's types with the answers' snake_case fields are the routes' types or listed here", () => {
    // Form states (what a person types, checked by core's schemas before sending) and a static file's shape.
    const FORM_STATES = new Set([
      "apps/web/src/forms/BabyFields.tsx",
      "apps/web/src/forms/ChildFields.tsx",
      "apps/web/src/practice/MyPatients.tsx",
      "apps/web/src/pages/profile/MyProfile.tsx",
      "apps/web/src/help/HelpCenter.tsx",
    ]);
    const offences: string[] = [];
    for (const file of appFiles) {
      if (FORM_STATES.has(file)) continue;
      const fields = [...code(file).matchAll(/^\s*(?:readonly\s+)?([a-z]+(?:_[a-z0-9]+)+)\??:\s*[^,]*;\s*(?:\/\/.*)?$/gm)].map((m) => m[1]);
      if (fields.length > 0) offences.push(`${file}: ${fields.join(", ")}`);
    }
    expect(offences).toEqual([]);
  });
});

/** Type-checks the apps' `roots` with files' texts replaced; their diagnostics. */
const appErrors = (roots: string[], replacements: ReadonlyArray<{ file: string; from: string; to: string }> = []) => {
  const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => {
    const content = read(name);
    const replace = replacements.find((r) => path.resolve(name) === path.join(root, r.file));
    if (!replace || content === undefined) return content;
    if (!content.includes(replace.from)) throw new Error(`${replace.file} no longer holds ${replace.from}`);
    return content.replace(replace.from, replace.to);
  };
  const program = ts.createProgram({ rootNames: roots.map((r) => path.join(root, r)), options, host });
  // Only the apps' files are checked: the checker then resolves just the types they reach (fast).
  return roots
    .filter((r) => r.startsWith("apps/") && !r.endsWith(".d.ts"))
    .flatMap((r) => program.getSemanticDiagnostics(program.getSourceFile(path.join(root, r))))
    .map((d) => `${path.relative(root, d.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`);
};

describe("a route's schema is the apps' compile-time contract", () => {
  const roots = ["apps/web/src/vite-env.d.ts", "apps/web/src/api/accounts.ts", "apps/kiosk/src/crown.ts"];

  it(
    "a field renamed in the sign-in's and the kiosk's pairing schemas fails the portal's and the kiosk's typecheck",
    () => {
      // Unchanged, these files pass \`pnpm typecheck\`; renamed, they fail on the very field.
      const renamed = appErrors(roots, [
        { file: "core/src/accounts/schemas.ts", from: "  remember_me: Schema.optional(Schema.Boolean),", to: "  stay_signed_in: Schema.optional(Schema.Boolean)," },
        { file: "core/src/kiosk/requests.ts", from: "Schema.Struct({ pairing_code: Required(", to: "Schema.Struct({ device_code: Required(" },
      ]);
      expect(renamed.some((e) => e.startsWith("apps/web/src/api/accounts.ts") && e.includes("remember_me"))).toBe(true);
      expect(renamed.some((e) => e.startsWith("apps/kiosk/src/crown.ts") && e.includes("pairing_code"))).toBe(true);
    },
    600_000,
  );
});

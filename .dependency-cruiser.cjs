/** The layer rule: core is framework-free; adapters never reach into apps; apps compose. */
const frameworks = "^(hono|@hono/|kysely|pg|pg-boss|graphile-worker|@electric-sql/|minio|onnxruntime-node|onnxruntime-web|react|react-dom|react-router|react-router-dom|react-aria-components|@xstate/react|@react-pdf/|nodemailer|sharp|file-type|@node-rs/|s3rver|ulid)($|/)";

/**
 * The feature rule (ADR 0144): a core feature imports only `shared/` (and the e-mails' copy in
 * `i18n/mails`) and the neighbours named here, and each pair of features in one direction only: the
 * list is checked below to hold no loop, so no chain of imports between features comes back to where
 * it started. What several features use lives in `shared/` or in the feature that owns it, imported one
 * way. A new neighbour is a design decision: add it here, in the same change.
 */
const neighbours = {
  accounts: [],
  audit: ["accounts"],
  capture: ["accounts", "measurement"],
  chat: ["accounts", "live", "notifications", "onboarding", "report"],
  // A family's own data reads every feature's rows of that family (issue 44).
  "family-data": ["accounts", "fhir", "learning", "report"],
  fhir: ["accounts", "measurement", "onboarding", "report"],
  // The message catalogues gather every feature's message constants (ADR 76); no feature imports them
  // (the e-mails' copy, i18n/mails, is apart: every feature's, importing only shared/).
  i18n: ["accounts", "audit", "chat", "family-data", "kiosk", "learning", "measurement", "notifications", "onboarding", "practice", "report"],
  kiosk: ["accounts", "capture", "onboarding", "practice", "report"],
  live: ["accounts"],
  learning: ["accounts", "measurement", "onboarding", "report"],
  measurement: [],
  notifications: ["accounts", "live"],
  onboarding: ["accounts", "notifications"],
  practice: ["accounts", "notifications", "onboarding"],
  report: ["accounts", "capture", "live", "measurement", "notifications", "onboarding", "practice"],
};

/** The neighbour list's loops, as paths (`a -> b -> a`); none may exist. */
const loops = (graph) => {
  const found = [];
  const visit = (node, path) => {
    for (const next of graph[node] ?? []) {
      if (next === path[0]) found.push([...path, next].join(" -> "));
      else if (!path.includes(next) && next > path[0]) visit(next, [...path, next]);
    }
  };
  for (const start of Object.keys(graph)) visit(start, [start]);
  return found;
};
const neighbourLoops = loops(neighbours);
if (neighbourLoops.length > 0) throw new Error(`.dependency-cruiser.cjs: the features' neighbour list has loops: ${neighbourLoops.join("; ")}`);

/** Tests and test support may drive any feature: nothing imports them, so they close no loop. */
const testSupport = "(\\.test\\.ts|\\.test-d\\.ts|/testing\\.ts)$";
const featureRules = Object.entries(neighbours).flatMap(([feature, allowed]) => [
  {
    name: `core-${feature}-imports-only-its-neighbours`,
    comment: `core/src/${feature} may import shared/ and: ${allowed.join(", ") || "nothing else"} (.dependency-cruiser.cjs, ADR 0041).`,
    severity: "error",
    from: { path: `^core/src/${feature}/`, pathNot: testSupport },
    // The e-mails' copy (core/src/i18n/mails) is every feature's to use, like shared/ (ADR 77).
    to: { path: "^core/src/", pathNot: `^core/src/(${[feature, "shared", "i18n/mails", ...allowed].join("|")})/` },
  },
]);

module.exports = {
  forbidden: [
    ...featureRules,
    {
      name: "no-circular-between-core-folders",
      comment: "no import cycle passes from one core folder to another (ADR 0144): the neighbour list allows each pair one way only.",
      severity: "error",
      from: { path: "^core/src/([^/]+)/", pathNot: testSupport },
      to: { path: "^core/src/", pathNot: "^core/src/$1/", circular: true },
    },
    {
      name: "web-ui-is-presentational",
      comment:
        "apps/web/src/ui holds presentational components only (issue 43, ADR 0163): it imports ui/, the i18n helpers and config.ts, never api/, session/ or a feature's folder. Wiring (a header that reads the session, a flow that uploads) lives in its feature's folder or shell/.",
      severity: "error",
      from: { path: "^apps/web/src/ui/" },
      to: { path: "^apps/web/src/", pathNot: "^apps/web/src/(ui/|i18n/|config\\.ts$)" },
    },
    {
      name: "no-circular-in-the-apps",
      comment: "no import cycle in the web app or the kiosk (issue 43): two modules that need each other become one, or what both need moves to where both import it (the session's rules in session/, the header's in shell/).",
      severity: "error",
      from: { path: "^apps/(web|kiosk)/src/" },
      to: { circular: true },
    },
    {
      name: "apps-import-adapters-through-their-package-exports",
      comment: "an app reaches an adapter as @crown/<adapter>[/<export>], never by a relative path into adapters/*/src.",
      severity: "error",
      from: { path: "^apps/" },
      to: { path: "^adapters/", dependencyTypes: ["local"] },
    },
    {
      name: "mail-copy-imports-only-shared",
      comment: "core/src/i18n/mails is imported by the features; it imports only shared/ (ADR 77).",
      severity: "error",
      from: { path: "^core/src/i18n/mails/" },
      to: { path: "^core/src/", pathNot: "^core/src/(shared|i18n/mails)/" },
    },
    {
      name: "shared-imports-no-feature",
      comment: "core/src/shared is what every feature may use; it depends on no feature.",
      severity: "error",
      from: { path: "^core/src/shared/" },
      to: { path: "^core/src/", pathNot: "^core/src/shared/" },
    },
    {
      name: "core-is-framework-free",
      comment: "core must not import a framework or an I/O module; put it behind a port in adapters/.",
      severity: "error",
      from: { path: "^core/" },
      to: { dependencyTypes: ["npm", "npm-dev", "npm-peer", "npm-optional", "core", "unknown", "undetermined"], pathNot: "node_modules/(effect|xstate|fast-check|@fast-check/vitest|vitest)/" },
    },
    {
      name: "core-no-node-builtins",
      severity: "error",
      from: { path: "^core/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "core-imports-only-core",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^(adapters|apps)/" },
    },
    {
      name: "adapters-never-import-apps",
      severity: "error",
      from: { path: "^adapters/" },
      to: { path: "^apps/" },
    },
    {
      name: "no-framework-in-core-by-name",
      severity: "error",
      from: { path: "^core/" },
      to: { path: frameworks },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(node_modules|dist|\\.crown-data)" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};

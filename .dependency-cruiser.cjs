/** The layer rule: core is framework-free; adapters never reach into apps; apps compose. */
const frameworks = "^(hono|@hono/|kysely|pg|pg-boss|graphile-worker|@electric-sql/|minio|onnxruntime-node|onnxruntime-web|react|react-dom|react-router|react-router-dom|react-aria-components|@xstate/react|@react-pdf/|nodemailer|sharp|file-type|@node-rs/|s3rver|ulid)($|/)";
module.exports = {
  forbidden: [
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

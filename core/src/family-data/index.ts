/** A family's own data (issue 44): the export archive and the erasure carried out. */
export * from "./lifecycle.ts";
export * from "./model.ts";
export * from "./requests.ts";
export * from "./exports.ts";
export * from "./erasure.ts";

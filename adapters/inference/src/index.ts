// Server-side entry; the browser imports `@crown/inference/web` (web.ts), which starts worker.ts.
export * from "./card.ts";
export * from "./node.ts";
export * from "./frames.ts";
export * from "./media.ts";
export * from "./installed-models.ts";

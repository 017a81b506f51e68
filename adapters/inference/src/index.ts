// Server-side entry; the browser imports web.ts, worker.ts and worker-protocol.ts directly.
export * from "./card.ts";
export * from "./node.ts";
export * from "./frames.ts";
export * from "./media.ts";

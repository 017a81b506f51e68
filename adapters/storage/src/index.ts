export * from "./keys.ts";
export * from "./local.ts";
export * from "./s3.ts";
export * from "./storage.ts";
export * from "./pending.ts";
export * from "./lifecycle.ts";
export * from "./archive.ts";
export * from "./set-files.ts";

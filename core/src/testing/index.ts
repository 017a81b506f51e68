export * from "./memory.ts";
export * from "./mothers.ts";
export * from "./accounts.ts";
export * from "./heads.ts";

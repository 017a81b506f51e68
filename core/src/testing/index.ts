export * from "./memory.ts";
export * from "./mothers.ts";
export * from "./accounts.ts";
export * from "./heads.ts";
export * from "./babies.ts";
export * from "./second-factors.ts";

export * from "./crypto.ts";
export * from "./second-factor.ts";

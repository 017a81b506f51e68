export * from "./crypto.ts";

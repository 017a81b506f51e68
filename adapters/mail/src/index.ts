export * from "./mail.ts";
export * from "./outbox.ts";

export * from "./shared/errors.ts";
export * from "./shared/ports.ts";
export * from "./shared/validation.ts";
export * from "./shared/mail.ts";
export * from "./accounts/status.ts";
export * from "./accounts/model.ts";
export * from "./accounts/schemas.ts";
export * as Accounts from "./accounts/service.ts";

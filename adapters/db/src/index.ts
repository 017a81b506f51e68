import { AuditLog, LiveEvents, OneTimeTokens, RateLimiter, Sessions, Transactor, Users } from "@crown/core";
import { Layer } from "effect";
import type { Kysely } from "kysely";
import { DatabaseClient } from "./executor.ts";
import { makeLiveEvents } from "./live.ts";
import { makeChatLayer } from "./repositories/chat.ts";
import { makeKioskLayer } from "./repositories/kiosk.ts";
import { makeOnboardingLayer } from "./repositories/onboarding.ts";
import { makeRemovalLayer } from "./repositories/removal.ts";
import { makeSignedInDevicesLayer } from "./repositories/devices.ts";
import { makeFamilyDataLayer } from "./repositories/family-data.ts";
import { makeSecondFactorsLayer } from "./repositories/second-factors.ts";
import { makeAuditTrailLayer } from "./repositories/audit-trail.ts";
import { makeReportsLayer } from "./repositories/reports.ts";
import { makeIdempotencyLayer } from "./repositories/idempotency.ts";
import { makeLearningLayer } from "./repositories/learning.ts";
import { makeAuditLog, makeOneTimeTokens, makeRateLimiter, makeSessions, makeTransactor, makeUsers } from "./repositories/accounts.ts";
import type { Database } from "./schema.ts";

export { connectDatabase, connectPglite, connectPostgres, pingDatabase, processIsAlive, type ConnectOptions, type DatabaseConnection, type DatabaseKind } from "./connect.ts";
export { currentExecutor, DatabaseClient, type Executor, executor, inTransaction, type OpenTransactions, run } from "./executor.ts";
export { listMigrations, migrateTo, migrateToLatest, migrations } from "./migrations/index.ts";
export { readPgliteTemplate, writePgliteTemplate } from "./pglite-template.ts";
export * from "./repositories/accounts.ts";
export * from "./repositories/onboarding.ts";
export * from "./repositories/reports.ts";
export * from "./repositories/chat.ts";
export * from "./repositories/kiosk.ts";
export * from "./repositories/removal.ts";
export * from "./repositories/devices.ts";
export * from "./repositories/family-data.ts";
export * from "./repositories/second-factors.ts";
export * from "./repositories/audit-trail.ts";
export * from "./repositories/idempotency.ts";
export * from "./repositories/learning.ts";
export * from "./live.ts";
export type * from "./schema.ts";

/** Every port this adapter implements, over `db`, plus `DatabaseClient` for later repositories. */
export const makeDatabaseLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(
    Layer.succeed(DatabaseClient, db),
    Layer.succeed(Users, makeUsers(db)),
    Layer.succeed(Sessions, makeSessions(db)),
    Layer.succeed(OneTimeTokens, makeOneTimeTokens(db)),
    Layer.succeed(AuditLog, makeAuditLog(db)),
    Layer.succeed(RateLimiter, makeRateLimiter(db)),
    Layer.succeed(Transactor, makeTransactor(db)),
    makeOnboardingLayer(db),
    makeChatLayer(db),
    Layer.succeed(LiveEvents, makeLiveEvents(db)),
    makeReportsLayer(db),
    makeKioskLayer(db),
    makeRemovalLayer(db),
    makeSignedInDevicesLayer(db),
    makeFamilyDataLayer(db),
    makeSecondFactorsLayer(db),
    makeAuditTrailLayer(db),
    makeIdempotencyLayer(db),
    makeLearningLayer(db),
  );

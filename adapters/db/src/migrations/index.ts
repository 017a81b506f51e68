import { type Kysely, type Migration, type MigrationResultSet, Migrator } from "kysely";
import * as m20261122T0400Accounts from "./2026-11-22T0400-accounts.ts";
import * as m20261122T0500Onboarding from "./2026-11-22T0500-onboarding.ts";
import * as m20261122T0600Reports from "./2026-11-22T0600-reports.ts";
import * as m20261122T0700Chat from "./2026-11-22T0700-chat.ts";
import * as m20261122T0800Kiosk from "./2026-11-22T0800-kiosk.ts";
import * as m20261122T0900AccountRemoval from "./2026-11-22T0900-account-removal.ts";
import * as m20261123T1900Security from "./2026-11-23T1900-security.ts";
import * as m20261123T1910UploadCut from "./2026-11-23T1910-upload-cut.ts";
import * as m20261123T1920AuditView from "./2026-11-23T1920-audit-view.ts";
import * as m20261123T1930MeasurementVerdict from "./2026-11-23T1930-measurement-verdict.ts";
import * as m20261123T1940KioskBabyCodes from "./2026-11-23T1940-kiosk-baby-codes.ts";
import * as m20261123T1950PracticeVerification from "./2026-11-23T1950-practice-verification.ts";
import * as m20261124T0110BlobLeases from "./2026-11-24T0110-blob-leases.ts";
import * as m20261124T1500LinkConsent from "./2026-11-24T1500-link-consent.ts";
import * as m20261124T1510PracticesAwaitingVerification from "./2026-11-24T1510-practices-awaiting-verification.ts";
import * as m20261124T1520MeasurementModel from "./2026-11-24T1520-measurement-model.ts";
import * as m20261124T1540ListIndexes from "./2026-11-24T1540-list-indexes.ts";
import * as m20261124T1550UserLanguage from "./2026-11-24T1550-user-language.ts";
import * as m20261124T1600NotificationMessages from "./2026-11-24T1600-notification-messages.ts";
import * as m20261124T1620SearchablePatientsAndQueueOrder from "./2026-11-24T1620-searchable-patients-and-queue-order.ts";
import * as m20261125T0600ResultsSearchFromTheIndex from "./2026-11-25T0600-results-search-from-the-index.ts";
import * as m20261128T2020SessionProof from "./2026-11-28T2020-session-proof.ts";
import * as m20261128T2021SecondFactors from "./2026-11-28T2021-second-factors.ts";
import * as m20261128T2031SignedInDevices from "./2026-11-28T2031-signed-in-devices.ts";
import * as m20261128T2032DataExports from "./2026-11-28T2032-data-exports.ts";
import * as m20261128T2033AccountErasure from "./2026-11-28T2033-account-erasure.ts";
import * as m20261128T2045IdempotencyKeys from "./2026-11-28T2045-idempotency-keys.ts";
import * as m20261128T2010ReviewerCorrections from "./2026-11-28T2010-reviewer-corrections.ts";
import * as m20261128T2011ResearchConsentAndReviewedSets from "./2026-11-28T2011-research-consent-and-reviewed-sets.ts";
import * as m20261129T0100ShadowModel from "./2026-11-29T0100-shadow-model.ts";
import * as m20261129T0300KioskRevocationReason from "./2026-11-29T0300-kiosk-revocation-reason.ts";

/**
 * Every migration, by name. A static list rather than a folder scan, so it works under tsx,
 * vitest and bundlers alike. To add one: create `YYYY-MM-DDTHHMM-what.ts` beside this file
 * (exporting `up` and `down`, importing only `kysely`), import it here and add one entry below.
 * Names sort by date, which is the order they run in.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22T0400-accounts": m20261122T0400Accounts,
  "2026-11-22T0500-onboarding": m20261122T0500Onboarding,
  "2026-11-22T0600-reports": m20261122T0600Reports,
  "2026-11-22T0700-chat": m20261122T0700Chat,
  "2026-11-22T0800-kiosk": m20261122T0800Kiosk,
  "2026-11-22T0900-account-removal": m20261122T0900AccountRemoval,
  "2026-11-23T1900-security": m20261123T1900Security,
  "2026-11-23T1910-upload-cut": m20261123T1910UploadCut,
  "2026-11-23T1920-audit-view": m20261123T1920AuditView,
  "2026-11-23T1930-measurement-verdict": m20261123T1930MeasurementVerdict,
  "2026-11-23T1940-kiosk-baby-codes": m20261123T1940KioskBabyCodes,
  "2026-11-23T1950-practice-verification": m20261123T1950PracticeVerification,
  "2026-11-24T0110-blob-leases": m20261124T0110BlobLeases,
  "2026-11-24T1500-link-consent": m20261124T1500LinkConsent,
  "2026-11-24T1510-practices-awaiting-verification": m20261124T1510PracticesAwaitingVerification,
  "2026-11-24T1520-measurement-model": m20261124T1520MeasurementModel,
  "2026-11-24T1540-list-indexes": m20261124T1540ListIndexes,
  "2026-11-24T1550-user-language": m20261124T1550UserLanguage,
  "2026-11-24T1600-notification-messages": m20261124T1600NotificationMessages,
  "2026-11-24T1620-searchable-patients-and-queue-order": m20261124T1620SearchablePatientsAndQueueOrder,
  "2026-11-25T0600-results-search-from-the-index": m20261125T0600ResultsSearchFromTheIndex,
  "2026-11-28T2010-reviewer-corrections": m20261128T2010ReviewerCorrections,
  "2026-11-28T2011-research-consent-and-reviewed-sets": m20261128T2011ResearchConsentAndReviewedSets,
  "2026-11-28T2020-session-proof": m20261128T2020SessionProof,
  "2026-11-28T2021-second-factors": m20261128T2021SecondFactors,
  "2026-11-28T2031-signed-in-devices": m20261128T2031SignedInDevices,
  "2026-11-28T2032-data-exports": m20261128T2032DataExports,
  "2026-11-28T2033-account-erasure": m20261128T2033AccountErasure,
  "2026-11-28T2045-idempotency-keys": m20261128T2045IdempotencyKeys,
  "2026-11-29T0100-shadow-model": m20261129T0100ShadowModel,
  "2026-11-29T0300-kiosk-revocation-reason": m20261129T0300KioskRevocationReason,
};

const migratorFor = (db: Kysely<any>) =>
  new Migrator({ db, provider: { getMigrations: async () => migrations } });

/** Applies every pending migration, in order, under Kysely's lock; throws on the first failure. */
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationResultSet> {
  const result = await migratorFor(db).migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}

/**
 * Migrates up or down to `name` (applied last afterwards), running each `down` on the way back: how an
 * operator rolls the schema back before starting an older release (docs/OPERATIONS.md).
 */
export async function migrateTo(db: Kysely<any>, name: string): Promise<MigrationResultSet> {
  if (!(name in migrations)) throw new Error(`No migration is named ${name}.`);
  const result = await migratorFor(db).migrateTo(name);
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${String(result.error)}`, { cause: result.error });
  }
  return result;
}

/** Every known migration with the time it was applied (undefined: pending). */
export async function listMigrations(db: Kysely<any>): Promise<ReadonlyArray<{ name: string; executedAt: Date | undefined }>> {
  const all = await migratorFor(db).getMigrations();
  return all.map((m) => ({ name: m.name, executedAt: m.executedAt }));
}

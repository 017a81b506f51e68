import { Effect, Option } from "effect";
import { type Caller, type User, Users } from "../accounts/model.ts";
import type { Baby } from "../onboarding/model.ts";
import { reportNotFound } from "../report/access.ts";
import { type Report, Reports, type ReportVersion, ReportVersions } from "../report/model.ts";
import { BlobStore } from "../shared/ports.ts";
import { AttachmentEncoder } from "./model.ts";
import { exportableReports, isPractitioner, visiblePublishedReport } from "./policy.ts";

/** A published report with everything its FHIR resources show: the version's figures, its baby and people. */
export interface PublishedRecord {
  readonly report: Report;
  readonly baby: Baby;
  readonly version: ReportVersion;
  /** The baby's physician when the report was prepared (null: 'No Physician'). */
  readonly physician: User | null;
  /** Who published this version. */
  readonly reviewer: User | null;
}

/** The published PDF as FHIR's Attachment describes it. */
export interface PublishedPdf {
  readonly bytes: Uint8Array;
  readonly size: number;
  /** SHA-1 of the bytes, base64 (Attachment.hash). */
  readonly sha1: string;
}

const userOrNull = (id: string | null) =>
  id === null ? Effect.succeed(null) : Effect.map(Effect.flatMap(Users, (u) => u.findById(id)), Option.getOrNull);

const recordOf = (report: Report, baby: Baby, version: ReportVersion) =>
  Effect.map(Effect.all([userOrNull(report.physicianId), userOrNull(version.publishedBy)]), ([physician, reviewer]): PublishedRecord => ({
    report,
    baby,
    version,
    physician: physician && isPractitioner(physician) ? physician : null,
    reviewer,
  }));

/** The published report the caller may export, or 404. */
export const publishedRecord = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, baby, report, relation, version } = yield* visiblePublishedReport(reportId);
    return { caller, relation, record: yield* recordOf(report, baby, version) };
  });

/** A baby's published reports the caller may export, each with its latest version, oldest first. */
export const babyRecords = (caller: Caller, baby: Baby) =>
  Effect.gen(function* () {
    const published = (yield* (yield* Reports).publishedForBaby(baby.id)).filter((r) => r.version > 0);
    const reports = yield* exportableReports(caller, baby, published);
    const versions = yield* (yield* ReportVersions).listByReports(reports.map((r) => r.id));
    const latest = new Map<string, ReportVersion>();
    for (const v of versions) if ((latest.get(v.reportId)?.version ?? 0) < v.version) latest.set(v.reportId, v);
    const records: PublishedRecord[] = [];
    for (const report of reports) {
      const version = latest.get(report.id);
      if (version) records.push(yield* recordOf(report, baby, version));
    }
    return records;
  });

/** The bytes of a published version's PDF, its size and SHA-1 (computed from what is stored, never trusted from elsewhere). */
export const publishedPdf = (version: ReportVersion) =>
  Effect.gen(function* () {
    const blob = yield* (yield* BlobStore).get(version.blobKey);
    if (Option.isNone(blob)) return yield* reportNotFound();
    const bytes = new Uint8Array(yield* Effect.promise(() => new Response(blob.value.body).arrayBuffer()));
    return { bytes, size: bytes.byteLength, sha1: (yield* AttachmentEncoder).sha1Base64(bytes) } satisfies PublishedPdf;
  });


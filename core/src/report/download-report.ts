import { Effect, Option } from "effect";
import { audit, BlobStore, now, transaction } from "../shared/ports.ts";
import { reportNotFound, visibleReport } from "./access.ts";
import { ReadFlags, type Report, ReportVersions } from "./model.ts";
import { localizedPdfKey } from "./notices.ts";
import type { Language } from "../shared/i18n.ts";

/** Downloading a report's latest published PDF, by its physician's practice or by its parent. */

/** In the reader's language when the version has that copy (rendered for its readers at publish, ADR 77), else English. */
const latestPdf = (report: Report, language: Language) =>
  Effect.gen(function* () {
    if (report.version === 0) return yield* reportNotFound();
    const version = yield* (yield* ReportVersions).latest(report.id);
    if (Option.isNone(version)) return yield* reportNotFound();
    const blobs = yield* BlobStore;
    const translated = language === "en" ? Option.none() : yield* blobs.get(localizedPdfKey(version.value.blobKey, language));
    const blob = Option.isSome(translated) ? translated : yield* blobs.get(version.value.blobKey);
    if (Option.isNone(blob)) return yield* reportNotFound();
    return { blob: blob.value, version: version.value };
  });

/**
 * `GET /report/{id}/download`: the latest published PDF for the report's physician (or staff
 * acting for them), which marks it read for that physician; reviewers and admins may read it too.
 */
export const providerDownload = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report, relation } = yield* visibleReport(reportId, ["physician", "staff", "reviewer", "admin"]);
    const file = yield* latestPdf(report, caller.user.language);
    if ((relation === "physician" || relation === "staff") && report.physicianId !== null) {
      const physicianId = report.physicianId;
      yield* transaction(
        Effect.gen(function* () {
          yield* (yield* ReadFlags).markRead(report.id, physicianId, caller.user.id, yield* now);
          yield* audit({ action: "report.download", actorId: caller.user.id, subjectId: report.id, details: { version: file.version.version, for: physicianId } });
        }),
      );
    } else {
      yield* audit({ action: "report.download", actorId: caller.user.id, subjectId: report.id, details: { version: file.version.version } });
    }
    return file.blob;
  });

/** `GET /report/{id}/parent-download`: the latest published PDF for the baby's parent. */
export const parentDownload = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report } = yield* visibleReport(reportId, ["parent"]);
    const file = yield* latestPdf(report, caller.user.language);
    yield* audit({ action: "report.download", actorId: caller.user.id, subjectId: report.id, details: { version: file.version.version } });
    return file.blob;
  });

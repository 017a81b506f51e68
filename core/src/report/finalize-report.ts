import { Effect, Option } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { JobQueue } from "../shared/jobs.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { capturesInto, reportNotFound, visibleReport } from "./access.ts";
import { advance } from "./advance.ts";
import { acceptsFiles, roundForFiles } from "./lifecycle.ts";
import { ANALYZE_REPORT_JOB, analysisJobKey, Reports } from "./model.ts";
import { roundCounts } from "./queries.ts";
import { ReportIdentifierRequest, UPLOAD_MESSAGES } from "./requests.ts";

/**
 * `POST /report/finalize`: the report is submitted and its analysis job enqueued in the same
 * transaction. Finalizing again is harmless: it answers the same and enqueues nothing. A report
 * waiting for a recapture has no photo in its next round yet.
 */
export const finalizeReport = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ReportIdentifierRequest, input);
    const { caller, report: seen, baby, relation } = yield* visibleReport(request.report_identifier);
    if (!capturesInto(caller, seen, baby, relation)) return yield* reportNotFound();
    const reports = yield* Reports;
    return yield* transaction(
      Effect.gen(function* () {
        const report = Option.getOrThrow(yield* reports.lock(seen.id));
        if (!acceptsFiles(report.status)) return { report_identifier: report.id, status: report.status, repeated: true };
        const counts = yield* roundCounts(report.id, roundForFiles(report.status, report.round));
        if (counts.photos === 0) return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.noPhoto);
        const status = yield* advance(report, { type: "FINALIZE" }, counts.photos);
        const at = yield* now;
        yield* reports.update(report.id, { status, submittedAt: at, updatedAt: at, analysis: null });
        yield* (yield* JobQueue).enqueue({
          name: ANALYZE_REPORT_JOB,
          payload: { reportId: report.id, round: report.round },
          key: analysisJobKey(report.id, report.round),
        });
        yield* audit({ action: "report.finalize", actorId: caller.user.id, subjectId: report.id, details: { round: report.round, files: counts.files } });
        return { report_identifier: report.id, status, repeated: false };
      }),
    );
  });

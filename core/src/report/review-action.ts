import { Effect, Option } from "effect";
import type { User } from "../accounts/model.ts";
import { Conflict, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, transaction } from "../shared/ports.ts";
import { reportNotFound } from "./access.ts";
import { advance } from "./advance.ts";
import { nextReportStatus, type ReportStatus, reviewable } from "./lifecycle.ts";
import { measurementError } from "./photo-agreement.ts";
import { summarize } from "./measure.ts";
import type { ReviewActionName } from "./entities.ts";
import { Measurements, type Report, Reports, ReviewActions } from "./model.ts";
import { requireReviewer } from "./policy.ts";
import { REVIEW_MESSAGES } from "./requests.ts";

/** What every review use case shares: the reviewer and the report, one action in one transaction, the figures after a change. */

export const reportForReview = (reportId: string) =>
  Effect.gen(function* () {
    const caller = yield* requireReviewer;
    const report = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(report)) return yield* reportNotFound();
    return { caller, report: report.value };
  });

/** The lifecycle refuses a review call in this status: a state conflict (409), as api-contract.md has it. */
export const notReviewable = () => new Conflict({ message: REVIEW_MESSAGES.notReviewable });

/**
 * Runs one review action on a locked report in one transaction: the lifecycle must allow it now
 * (`allowed`: by default, the report is waiting for review, and an analyzed report enters review
 * with its first action), and the action is written to the review log and the audit log with the
 * reviewer and the time.
 */
export const reviewAction = <A, E, R>(
  reportId: string,
  action: ReviewActionName,
  details: Record<string, unknown>,
  body: (report: Report, reviewer: User) => Effect.Effect<A, E, R>,
  allowed: (status: ReportStatus) => boolean = reviewable,
) =>
  Effect.gen(function* () {
    const { caller } = yield* reportForReview(reportId);
    const reports = yield* Reports;
    return yield* transaction(
      Effect.gen(function* () {
        const locked = yield* reports.lock(reportId);
        if (Option.isNone(locked)) return yield* reportNotFound();
        let report = locked.value;
        if (!allowed(report.status)) return yield* notReviewable();
        const at = yield* now;
        const start = { type: "REVIEW_STARTED", reviewerId: caller.user.id } as const;
        const started = nextReportStatus(report.status, { photos: 0, round: report.round }, start);
        // An analyzed report enters review with its first action (a published one is reopened first).
        if (started !== null && started !== report.status) {
          const status = yield* advance(report, start);
          yield* reports.update(report.id, { status, reviewerId: caller.user.id, updatedAt: at });
          report = { ...report, status, reviewerId: caller.user.id };
        }
        const result = yield* body(report, caller.user);
        yield* (yield* ReviewActions).insert({ id: (yield* Random).identifier(), reportId, reviewerId: caller.user.id, action, details, at });
        yield* audit({ action: `review.${action}`, actorId: caller.user.id, subjectId: reportId, details });
        return result;
      }),
    );
  });

/** Recomputes the report's figures after a reviewer changed a photo. */
export const refreshSummary = (report: Report) =>
  Effect.gen(function* () {
    const all = (yield* (yield* Measurements).listByReport(report.id)).filter((m) => m.round === report.round);
    const kept = (report.analysis?.problems ?? []).filter((p) => !p.startsWith("No photo passed"));
    const summary = summarize(all, kept, yield* measurementError);
    yield* (yield* Reports).update(report.id, { analysis: summary, updatedAt: yield* now });
    return summary;
  });

/** The measurement of one of the report's photos (422 for an attachment of another report). */
export const measurementOfReport = (report: Report, attachmentId: string) =>
  Effect.gen(function* () {
    const m = yield* (yield* Measurements).find(attachmentId);
    if (Option.isNone(m) || m.value.reportId !== report.id) return yield* new ValidationFailed({ message: "Attachment not found", errors: { attachment_identifier: ["Attachment not found"] } });
    return m.value;
  });

import { Data, Effect, Option } from "effect";
import { AccountsConfig, type User } from "../accounts/model.ts";
import { notify } from "../notifications/service.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { queueMail } from "../shared/mail-jobs.ts";
import { now, Random } from "../shared/ports.ts";
import { discardBlobs, keepBlobs, putPending } from "../shared/pending-blobs.ts";
import { reportNotFound } from "./access.ts";
import { advance } from "./advance.ts";
import { reviewable } from "./lifecycle.ts";
import { ContentHasher, type Report, ReadFlags, ReportRenderer, Reports, ReportVersions } from "./model.ts";
import { localizedPdfKey, publishedMail, readerLanguages, recipients, resultsPath } from "./notices.ts";
import { requireConfirmedWhenDisagreeing } from "./photo-agreement.ts";
import { PUBLISH_ATTEMPTS } from "./policy.ts";
import { presentSummary } from "./present.ts";
import { babyOf } from "./queries.ts";
import { REVIEW_MESSAGES } from "./requests.ts";
import { documentInputs, fingerprintOf, reportDocument } from "./report-document.ts";
import { notReviewable, reportForReview, reviewAction } from "./review-action.ts";

/** The checks before rendering: waiting for review, with at least one accepted, measured photo. */
export const requirePublishable = (report: Report) =>
  Effect.gen(function* () {
    if (!reviewable(report.status)) return yield* notReviewable();
    if (!report.analysis || report.analysis.accepted === 0 || report.analysis.ci === null) return yield* ValidationFailed.field("report_identifier", REVIEW_MESSAGES.noAccepted);
  });

/** The report changed between the read its PDF was rendered from and the lock: render again. */
class ChangedWhilePublishing extends Data.TaggedError("ChangedWhilePublishing")<{}> {}

/**
 * One attempt: renders the PDF from the report as read now, stores it once under a new key, then
 * in one transaction, with the report locked, checks that nothing the PDF prints has changed since
 * that read (else the attempt is undone, the file removed, and the caller renders again), records
 * the version with the very summary the PDF prints, moves the report to `published`, makes it
 * unread again for its physician, notifies the parent and the physician, and queues their e-mails.
 */
const publishOnce = (reportId: string, reviewerUser: User) =>
  Effect.gen(function* () {
    const found = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(found)) return yield* reportNotFound();
    const seen = found.value;
    yield* requirePublishable(seen);
    const at = yield* now;
    const version = seen.version + 1;
    const inputs = yield* documentInputs(seen);
    yield* requireConfirmedWhenDisagreeing(inputs.measurements);
    const document = yield* reportDocument(inputs, reviewerUser, at, version);
    const renderer = yield* ReportRenderer;
    const pdf = yield* renderer.render(document);
    const digest = (yield* ContentHasher).sha256();
    digest.update(pdf);
    const versionId = (yield* Random).identifier();
    const blobKey = `reports/${seen.id}/v${version}-${versionId}.pdf`;
    // The version is the English PDF; its readers' other languages get a copy beside it (ADR 77).
    const translations = yield* Effect.forEach(yield* readerLanguages(seen), (language) =>
      Effect.map(renderer.render({ ...document, language }), (bytes) => ({ key: localizedPdfKey(blobKey, language), bytes })),
    );
    const blobKeys = [blobKey, ...translations.map((t) => t.key)];
    // Pending until the version names it (ADR 0051): a process killed before that leaves it to the sweep.
    yield* putPending(blobKey, pdf, "application/pdf");
    for (const t of translations) yield* putPending(t.key, t.bytes, "application/pdf");
    const config = yield* AccountsConfig;
    const published = reviewAction(reportId, "published", { version, sha256: digest.hex() }, (report, reviewer) =>
      Effect.gen(function* () {
        // Re-read under the lock: another publish or a review action in between means this PDF is stale.
        if (report.version + 1 !== version || fingerprintOf(yield* documentInputs(report)) !== fingerprintOf(inputs)) {
          return yield* new ChangedWhilePublishing();
        }
        const status = yield* advance(report, { type: "PUBLISH", reviewerId: reviewer.id });
        yield* keepBlobs(blobKeys);
        yield* (yield* ReportVersions).insert({
          id: versionId,
          reportId: report.id,
          version,
          blobKey,
          sha256: digest.hex(),
          size: pdf.byteLength,
          publishedBy: reviewer.id,
          publishedAt: at,
          summary: document.summary,
        });
        yield* (yield* Reports).update(report.id, { status, version, publishedAt: at, reviewerId: reviewer.id, babyName: document.baby.name, updatedAt: at });
        // A corrected version is news to the physician: it shows unread again until downloaded.
        yield* (yield* ReadFlags).clear(report.id);
        const baby = yield* babyOf(report);
        for (const user of yield* recipients(report, baby)) {
          yield* notify(user.id, "report_published", "reportPublished", { baby: document.baby.name }, report.id);
          yield* queueMail(publishedMail(user, document.baby.name, `${config.publicUrl}${resultsPath(user)}`));
        }
        return { report_identifier: report.id, status, version, summary: presentSummary(document.summary) };
      }),
    );
    return yield* Effect.tapErrorCause(published, () => discardBlobs(blobKeys));
  });

/**
 * Publishes: the stored PDF always prints the figures saved with its version (a republish makes a
 * new version; none is ever overwritten). A review action that lands while the PDF renders makes
 * the publish render again from the new state, a few times at most.
 */
export const publishReport = (reportId: string) =>
  Effect.gen(function* () {
    const { caller } = yield* reportForReview(reportId);
    for (let attempt = 1; ; attempt++) {
      const published = yield* publishOnce(reportId, caller.user).pipe(
        Effect.map(Option.some),
        Effect.catchTag("ChangedWhilePublishing", () => Effect.succeed(Option.none())),
      );
      if (Option.isSome(published)) return published.value;
      if (attempt >= PUBLISH_ATTEMPTS) return yield* ValidationFailed.field("report_identifier", REVIEW_MESSAGES.changedWhilePublishing);
    }
  });


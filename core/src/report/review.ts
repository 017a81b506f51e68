import { Data, Effect, Option, Schema } from "effect";
import { AccountsConfig, type User, Users } from "../accounts/model.ts";
import { measureHead } from "../measurement/geometry.ts";
import { CI_BANDS, CVAI_BANDS, bandOf, SEVERITY_CITATION } from "../measurement/bands.ts";
import { cvaMillimetres } from "../measurement/geometry.ts";
import { QUALITY_REASONS } from "../measurement/verdict.ts";
import { notify } from "../notifications/service.ts";
import { addMonths, parseDay, wholeMonthsBetween, dayOf, compareDays } from "../onboarding/dates.ts";
import { type Baby, Babies, babyName } from "../onboarding/model.ts";
import { displayName, physicianName, requireActive } from "../practice/access.ts";
import { composeMail } from "../shared/mail.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { audit, BlobStore, now, Random, transaction } from "../shared/ports.ts";
import { discardBlobs, keepBlobs, putPending } from "../shared/pending-blobs.ts";
import { OptionalText, Required, validate } from "../shared/validation.ts";
import { reportNotFound } from "./access.ts";
import { geometryOf, summarize } from "./analysis.ts";
import { advance, presentAttachment } from "./capture.ts";
import { queueMail } from "./mail-jobs.ts";
import { measurementError, presentAgreement, requireConfirmedWhenDisagreeing, withAgreement } from "./photo-agreement.ts";
import type { ReportStatus } from "./lifecycle.ts";
import {
  type Attachment,
  Attachments,
  ContentHasher,
  defaultReportSettings,
  Images,
  ReportConfig,
  isCounted,
  type Measurement,
  Measurements,
  ReadFlags,
  type Report,
  type ReportDocument,
  ReportRenderer,
  Reports,
  ReportVersions,
  ReviewActions,
} from "./model.ts";

export const REVIEW_MESSAGES = {
  queue: "Review queue fetched successfully",
  detail: "Report fetched successfully",
  decided: "Photo decision saved",
  corrected: "Nose tip corrected and photo re-measured",
  noted: "Note saved",
  published: "Report published successfully",
  previewed: "Report preview rendered",
  recapture: "Recapture requested successfully",
  reopened: "Report reopened for review",
  noAccepted: "At least one accepted, measured photo is needed to publish the report.",
  badNose: "The head cannot be measured with the nose tip there: place it at the front of the head, away from its centre.",
  notReviewable: "This report is not waiting for a review.",
  noGeometry: "This photo has no head outline to re-measure.",
  reasonsRequired: "Please choose at least one reason for the recapture.",
  reasonUnknown: "Each reason must be one of the quiz's bad-image reasons.",
  changedWhilePublishing: "The report kept changing while it was being published. Please publish again.",
} as const;

/** The disclaimer printed on every report. */
export const REPORT_DISCLAIMER =
  "This report is a screening aid computed from photos. It is not a diagnosis and not a substitute for an examination by a doctor. " +
  "Please talk to your baby's doctor about these results and about any concern for your baby's head shape.";

const requireReviewer = requireActive("reviewer");
const reportSettings = Effect.map(Effect.serviceOption(ReportConfig), Option.getOrElse(() => defaultReportSettings));

const REVIEWABLE: ReadonlyArray<ReportStatus> = ["analyzed", "in_review"];

const present2 = (n: number | null | undefined) => (n === null || n === undefined ? null : Math.round(n * 100) / 100);

/** `4 months 12 days` at `at` for a baby born on `dateOfBirth` (YYYY-MM-DD). */
export const ageAt = (dateOfBirth: string, at: Date): string => {
  const born = parseDay(dateOfBirth);
  if (!born) return "unknown";
  const today = dayOf(at);
  if (compareDays(today, born) < 0) return "0 days";
  const months = Math.max(0, wholeMonthsBetween(born, today));
  const from = addMonths(born, months);
  const days = Math.round((Date.UTC(today.year, today.month - 1, today.day) - Date.UTC(from.year, from.month - 1, from.day)) / 86_400_000);
  return `${months} month${months === 1 ? "" : "s"} ${days} day${days === 1 ? "" : "s"}`;
};

export const presentMeasurement = (m: Measurement) => ({
  attachment_identifier: m.attachmentId,
  automatic: { accepted: m.accepted, verdict: m.verdict, reasons: m.reasons, quality_margin: present2(m.qualityMargin) },
  decision: m.decision,
  counted: isCounted(m),
  nose_corrected: m.noseCorrected,
  ci: present2(m.ci),
  cvai: present2(m.cvai),
  cva_mm: present2(m.cvaMm),
  error: m.error,
  overlay: m.geometry,
});

const presentSummary = (s: Report["analysis"]) =>
  s === null
    ? null
    : {
        accepted: s.accepted,
        measured: s.measured,
        ci: s.ci && { median: present2(s.ci.median), min: present2(s.ci.min), max: present2(s.ci.max), count: s.ci.count },
        cvai: s.cvai && { median: present2(s.cvai.median), min: present2(s.cvai.min), max: present2(s.cvai.max), count: s.cvai.count },
        cva_mm: s.cva_mm && { median: present2(s.cva_mm.median), min: present2(s.cva_mm.min), max: present2(s.cva_mm.max), count: s.cva_mm.count },
        problems: s.problems,
        ...presentAgreement(s),
      };
export { presentSummary };

const babyOf = (report: Report) => Effect.flatMap(Babies, (b) => b.findById(report.babyId));

const previousResults = (report: Report) =>
  Effect.gen(function* () {
    const published = yield* (yield* Reports).publishedForBaby(report.babyId);
    return published
      .filter((r) => r.id !== report.id)
      .map((r) => ({
        report_identifier: r.id,
        captured_at: (r.submittedAt ?? r.createdAt).toISOString(),
        ci: present2(r.analysis?.ci?.median),
        cvai: present2(r.analysis?.cvai?.median),
      }));
  });

// ---- Queue and detail ---------------------------------------------------------------------------

const PageRequestSchema = Schema.Struct({
  per_page: Schema.optionalWith(Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.int(), Schema.between(1, 100)), { nullable: true }),
});

/** Reports waiting for review, oldest submission first, with the baby's age and previous results. */
export const reviewQueue = (page: number, input: unknown) =>
  Effect.gen(function* () {
    yield* requireReviewer;
    const perPage = (yield* validate(PageRequestSchema, input)).per_page ?? 10;
    const result = yield* (yield* Reports).reviewQueue({ page, perPage });
    const data = yield* Effect.forEach(result.data, (report) =>
      Effect.gen(function* () {
        const baby = yield* babyOf(report);
        return {
          report_identifier: report.id,
          status: report.status,
          baby_name: Option.isSome(baby) ? babyName(baby.value) : report.babyName,
          baby_age: Option.isSome(baby) ? ageAt(baby.value.dateOfBirth, report.submittedAt ?? report.createdAt) : null,
          submitted_at: report.submittedAt?.toISOString() ?? null,
          reviewer_identifier: report.reviewerId,
          summary: presentSummary(report.analysis),
          previous_results: yield* previousResults(report),
        };
      }),
    );
    return { data, current_page: page, last_page: Math.max(1, Math.ceil(result.total / perPage)), per_page: perPage, total: result.total };
  });

const reportForReview = (reportId: string) =>
  Effect.gen(function* () {
    const caller = yield* requireReviewer;
    const report = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(report)) return yield* reportNotFound();
    return { caller, report: report.value };
  });

/** Everything a reviewer looks at: each photo and frame with its overlay and measurement. */
export const reviewDetail = (reportId: string) =>
  Effect.gen(function* () {
    const { report } = yield* reportForReview(reportId);
    const baby = yield* babyOf(report);
    const attachments = yield* (yield* Attachments).listByReport(report.id);
    const measurements = new Map((yield* (yield* Measurements).listByReport(report.id)).map((m) => [m.attachmentId, m]));
    const actions = yield* (yield* ReviewActions).listByReport(report.id);
    return {
      report_identifier: report.id,
      status: report.status,
      round: report.round,
      baby_name: Option.isSome(baby) ? babyName(baby.value) : report.babyName,
      baby_age: Option.isSome(baby) ? ageAt(baby.value.dateOfBirth, report.submittedAt ?? report.createdAt) : null,
      submitted_at: report.submittedAt?.toISOString() ?? null,
      reviewer_identifier: report.reviewerId,
      note: report.reviewNote,
      recapture_reasons: report.recaptureReasons,
      version: report.version,
      summary: presentSummary(report.analysis),
      previous_results: yield* previousResults(report),
      attachments: attachments
        .filter((a) => a.round === report.round)
        .map((a) => {
          const m = measurements.get(a.id);
          return { ...presentAttachment(a), kind: a.kind, source_identifier: a.sourceId, frame_time: a.frameTime, measurement: m ? presentMeasurement(m) : null };
        }),
      actions: actions.map((a) => ({ action: a.action, reviewer_identifier: a.reviewerId, details: a.details, at: a.at.toISOString() })),
      recapture_reason_options: QUALITY_REASONS,
    };
  });

// ---- Actions ----------------------------------------------------------------------------------------

/**
 * Runs one review action on a locked report in one transaction: the report must be waiting for
 * review (an analyzed report enters review with its first action), and the action is written to
 * the review log and the audit log with the reviewer and the time.
 */
const reviewAction = <A, E, R>(
  reportId: string,
  action: string,
  details: Record<string, unknown>,
  body: (report: Report, reviewer: User) => Effect.Effect<A, E, R>,
  statuses: ReadonlyArray<ReportStatus> = REVIEWABLE,
) =>
  Effect.gen(function* () {
    const { caller } = yield* reportForReview(reportId);
    const reports = yield* Reports;
    return yield* transaction(
      Effect.gen(function* () {
        const locked = yield* reports.lock(reportId);
        if (Option.isNone(locked)) return yield* reportNotFound();
        let report = locked.value;
        if (!statuses.includes(report.status)) return yield* ValidationFailed.field("report_identifier", REVIEW_MESSAGES.notReviewable);
        const at = yield* now;
        if (report.status === "analyzed" && statuses.includes("in_review")) {
          const status = yield* advance(report, { type: "REVIEW_STARTED", reviewerId: caller.user.id });
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
const refreshSummary = (report: Report) =>
  Effect.gen(function* () {
    const all = (yield* (yield* Measurements).listByReport(report.id)).filter((m) => m.round === report.round);
    const kept = (report.analysis?.problems ?? []).filter((p) => !p.startsWith("No photo passed"));
    const summary = summarize(all, kept, yield* measurementError);
    yield* (yield* Reports).update(report.id, { analysis: summary, updatedAt: yield* now });
    return summary;
  });

const measurementOfReport = (report: Report, attachmentId: string) =>
  Effect.gen(function* () {
    const m = yield* (yield* Measurements).find(attachmentId);
    if (Option.isNone(m) || m.value.reportId !== report.id) return yield* new ValidationFailed({ message: "Attachment not found", errors: { attachment_identifier: ["Attachment not found"] } });
    return m.value;
  });

export const DecisionRequest = Schema.Struct({
  attachment_identifier: Required("Attachment"),
  decision: Schema.Literal("accept", "reject", "accepted", "rejected").annotations({ message: () => "Decision must be accept or reject" }),
});

export const decidePhoto = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(DecisionRequest, input);
    const decision = request.decision.startsWith("accept") ? ("accepted" as const) : ("rejected" as const);
    return yield* reviewAction(reportId, "photo_decision", { attachment: request.attachment_identifier, decision }, (report) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        yield* (yield* Measurements).upsert({ ...m, decision, updatedAt: yield* now });
        return presentSummary(yield* refreshSummary(report));
      }),
    );
  });

export const NoseTipRequest = Schema.Struct({
  attachment_identifier: Required("Attachment"),
  x: Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.finite()).annotations({ message: () => "x must be a number" }),
  y: Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.finite()).annotations({ message: () => "y must be a number" }),
});

/** Moves the nose tip (photo pixels of the overlay) and re-measures with core's geometry. */
export const correctNoseTip = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(NoseTipRequest, input);
    const noseTip = { x: request.x, y: request.y };
    return yield* reviewAction(reportId, "nose_tip_corrected", { attachment: request.attachment_identifier, nose_tip: noseTip }, (report) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        const g = m.geometry;
        if (g === null || g.outline.length < 3) return yield* ValidationFailed.field("attachment_identifier", REVIEW_MESSAGES.noGeometry);
        const head = measureHead(g.outline, noseTip);
        if (head === null) return yield* ValidationFailed.field("x", REVIEW_MESSAGES.badNose);
        const geometry = geometryOf({ outline: g.outline, noseTip, sticker: g.sticker }, { width: g.imageWidth, height: g.imageHeight });
        const sticker = g.sticker ? 2 * g.sticker.radius : null;
        const updated: Measurement = {
          ...m,
          ci: head.ci,
          cvai: head.cvai,
          cvaMm: cvaMillimetres(head, sticker, (yield* reportSettings).analyze.stickerDiameterMm ?? 30),
          geometry,
          noseCorrected: true,
          updatedAt: yield* now,
        };
        yield* (yield* Measurements).upsert(updated);
        return { measurement: presentMeasurement(updated), summary: presentSummary(yield* refreshSummary(report)) };
      }),
    );
  });

export const NoteRequest = Schema.Struct({ note: OptionalText(2000) });

export const addNote = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(NoteRequest, input);
    const note = request.note?.trim() || null;
    return yield* reviewAction(reportId, "note", { note }, (report) =>
      Effect.gen(function* () {
        yield* (yield* Reports).update(report.id, { reviewNote: note, updatedAt: yield* now });
        return { note };
      }),
    );
  });

export const RecaptureRequest = Schema.Struct({
  reasons: Schema.Array(Schema.String),
  note: OptionalText(2000),
});

const recaptureMail = (to: User, baby: string, reasons: ReadonlyArray<string>, note: string | null, url: string) =>
  composeMail({
    to: to.email,
    subject: `Please take new photos of ${baby}`,
    greeting: to.firstName ? `Hello ${to.firstName},` : "Hello,",
    paragraphs: [
      `Our reviewers looked at the photos and video of ${baby} and need a new capture to measure the head reliably.`,
      `What to redo: ${reasons.join("; ")}.`,
      ...(note ? [`Reviewer's note: ${note}`] : []),
      "Please follow the capture instructions again and upload new photos and a short video.",
    ],
    action: { label: "Upload again", url },
  });

const publishedMail = (to: User, baby: string, url: string) =>
  composeMail({
    to: to.email,
    subject: `The head-shape report of ${baby} is ready`,
    greeting: to.firstName ? `Hello ${to.firstName},` : "Hello,",
    paragraphs: [`The report of ${baby} has been reviewed and is ready to download.`, "It is a screening aid, not a diagnosis: please talk to your doctor about it."],
    action: { label: "See the results", url },
  });

/** The parent and the physician of a report (each once), to notify. */
const recipients = (report: Report, baby: Option.Option<Baby>) =>
  Effect.gen(function* () {
    const users = yield* Users;
    const ids = [...new Set([Option.isSome(baby) ? baby.value.parentId : report.uploaderId, report.physicianId].filter((x): x is string => x !== null))];
    const found = yield* Effect.forEach(ids, (id) => users.findById(id));
    return found.filter(Option.isSome).map((u) => u.value);
  });

const resultsPath = (user: User) => (user.type === "parent" ? "/parent-results" : "/results");

export const requestRecapture = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(RecaptureRequest, input);
    const reasons = [...new Set(request.reasons.map((r) => r.trim()).filter((r) => r !== ""))];
    if (reasons.length === 0) return yield* ValidationFailed.field("reasons", REVIEW_MESSAGES.reasonsRequired);
    if (reasons.some((r) => !(QUALITY_REASONS as ReadonlyArray<string>).includes(r))) return yield* ValidationFailed.field("reasons", REVIEW_MESSAGES.reasonUnknown);
    const note = request.note?.trim() || null;
    const config = yield* AccountsConfig;
    return yield* reviewAction(reportId, "recapture_requested", { reasons, note }, (report, reviewer) =>
      Effect.gen(function* () {
        const status = yield* advance(report, { type: "REQUEST_RECAPTURE", reviewerId: reviewer.id });
        yield* (yield* Reports).update(report.id, { status, recaptureReasons: reasons, reviewNote: note ?? report.reviewNote, reviewerId: reviewer.id, updatedAt: yield* now });
        const baby = yield* babyOf(report);
        const name = Option.isSome(baby) ? babyName(baby.value) : report.babyName;
        for (const user of yield* recipients(report, baby)) {
          yield* notify(user.id, "recapture_requested", `A new capture of ${name} is needed: ${reasons.join("; ")}.`, report.id);
          // Queued with the change: sent by the worker once committed, retried until the mail server takes it.
          yield* queueMail(recaptureMail(user, name, reasons, note, `${config.publicUrl}/uploads`));
        }
        return { status, reasons };
      }),
    );
  });

export const reopenReport = (reportId: string) =>
  reviewAction(
    reportId,
    "reopened",
    {},
    (report, reviewer) =>
      Effect.gen(function* () {
        const status = yield* advance(report, { type: "REOPEN", reviewerId: reviewer.id });
        yield* (yield* Reports).update(report.id, { status, reviewerId: reviewer.id, updatedAt: yield* now });
        return { status };
      }),
    ["published"],
  );

// ---- Publish ----------------------------------------------------------------------------------------

const readBytes = (key: string) =>
  Effect.gen(function* () {
    const blob = yield* (yield* BlobStore).get(key);
    if (Option.isNone(blob)) return Option.none<Uint8Array>();
    return Option.some(new Uint8Array(yield* Effect.promise(() => new Response(blob.value.body).arrayBuffer())));
  });

/** Photos printed in a report: the counted ones, most central CI first, at most six. */
const MAX_PHOTOS_IN_REPORT = 6;

/** What a report's PDF is made of, read together: the report and the counted measurements of its round. */
interface DocumentInputs {
  readonly report: Report;
  readonly measurements: ReadonlyArray<Measurement>;
}

const documentInputs = (report: Report) =>
  Effect.map(Effect.flatMap(Measurements, (m) => m.listByReport(report.id)), (all): DocumentInputs => ({
    report,
    measurements: all.filter((m) => m.round === report.round && isCounted(m)).sort((a, b) => a.attachmentId.localeCompare(b.attachmentId)),
  }));

/**
 * Everything of the inputs that the PDF prints: two equal fingerprints render the same figures.
 * Compared under the report's lock before a publish commits (a review action may have changed the
 * report while its PDF was being rendered).
 */
const fingerprintOf = ({ report, measurements }: DocumentInputs) =>
  JSON.stringify({
    round: report.round,
    analysis: report.analysis,
    note: report.reviewNote,
    babyName: report.babyName,
    physician: report.physicianId,
    photos: measurements.map((m) => [m.attachmentId, m.ci, m.cvai, m.geometry, m.decision]),
  });

/** Gathers what the PDF shows, from the report and its measurements, the baby, and the baby's published versions. */
export const reportDocument = (inputs: DocumentInputs, reviewer: User, at: Date, version: number, kind: ReportDocument["kind"] = "published") =>
  Effect.gen(function* () {
    const { report, measurements } = inputs;
    const baby = yield* babyOf(report);
    const users = yield* Users;
    const attachments = new Map((yield* (yield* Attachments).listByReport(report.id)).map((a) => [a.id, a] as const));
    const summary = withAgreement(report.analysis!, yield* measurementError);
    const median = summary.ci?.median ?? 0;
    const chosen = [...measurements].sort((a, b) => Math.abs((a.ci ?? 0) - median) - Math.abs((b.ci ?? 0) - median)).slice(0, MAX_PHOTOS_IN_REPORT);
    const images = yield* Images;
    const photos: Array<ReportDocument["photos"][number]> = [];
    for (const m of chosen) {
      const a = attachments.get(m.attachmentId) as Attachment | undefined;
      if (!a || m.geometry === null) continue;
      const bytes = yield* readBytes(a.blobKey);
      if (Option.isNone(bytes)) continue;
      const clean = yield* images.clean(bytes.value, Math.max(m.geometry.imageWidth, m.geometry.imageHeight));
      if (Option.isNone(clean)) continue;
      photos.push({ label: a.kind === "frame" ? `Video frame ${a.frameTime?.toFixed(1)} s` : a.fileName, jpeg: clean.value, geometry: m.geometry, ci: m.ci, cvai: m.cvai });
    }
    const physician = report.physicianId ? yield* users.findById(report.physicianId) : Option.none<User>();
    // The chart shows what was published: each earlier report's latest version, never figures under review.
    const earlier = (yield* (yield* Reports).publishedForBaby(report.babyId)).filter((r) => r.id !== report.id);
    const versions = yield* (yield* ReportVersions).listByReports(earlier.map((r) => r.id));
    const latest = new Map<string, (typeof versions)[number]>();
    for (const v of versions) if ((latest.get(v.reportId)?.version ?? 0) < v.version) latest.set(v.reportId, v);
    const capturedAt = report.submittedAt ?? report.createdAt;
    const history = [
      ...earlier.flatMap((r) => {
        const v = latest.get(r.id);
        return v ? [{ date: r.submittedAt ?? r.createdAt, ci: v.summary.ci?.median ?? null, cvai: v.summary.cvai?.median ?? null }] : [];
      }),
      { date: capturedAt, ci: summary.ci?.median ?? null, cvai: summary.cvai?.median ?? null },
    ].sort((x, y) => x.date.getTime() - y.date.getTime());
    const doc: ReportDocument = {
      title: "Head shape screening report",
      kind,
      baby: {
        name: Option.isSome(baby) ? babyName(baby.value) : report.babyName,
        dateOfBirth: Option.isSome(baby) ? baby.value.dateOfBirth : "",
        ageAtCapture: Option.isSome(baby) ? ageAt(baby.value.dateOfBirth, capturedAt) : "unknown",
        gender: Option.isSome(baby) ? baby.value.gender : null,
      },
      capturedAt,
      publishedAt: at,
      version,
      provider: Option.isSome(physician) ? physicianName(physician.value) : "No Physician",
      reviewer: displayName(reviewer),
      note: report.reviewNote,
      summary,
      bands: {
        ci: summary.ci ? bandOf(summary.ci.median, CI_BANDS).label : null,
        cvai: summary.cvai ? bandOf(summary.cvai.median, CVAI_BANDS).label : null,
      },
      photos,
      history,
      disclaimer: REPORT_DISCLAIMER,
      citation: SEVERITY_CITATION,
    };
    return doc;
  });

/** The checks before rendering: waiting for review, with at least one accepted, measured photo. */
const requirePublishable = (report: Report) =>
  Effect.gen(function* () {
    if (!REVIEWABLE.includes(report.status)) return yield* ValidationFailed.field("report_identifier", REVIEW_MESSAGES.notReviewable);
    if (!report.analysis || report.analysis.accepted === 0 || report.analysis.ci === null) return yield* ValidationFailed.field("report_identifier", REVIEW_MESSAGES.noAccepted);
  });

/** The report changed between the read its PDF was rendered from and the lock: render again. */
class ChangedWhilePublishing extends Data.TaggedError("ChangedWhilePublishing")<{}> {}

/** Renders from a fresh read at most this many times while review actions keep changing the report. */
const PUBLISH_ATTEMPTS = 3;

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
    const pdf = yield* (yield* ReportRenderer).render(document);
    const digest = (yield* ContentHasher).sha256();
    digest.update(pdf);
    const versionId = (yield* Random).identifier();
    const blobKey = `reports/${seen.id}/v${version}-${versionId}.pdf`;
    // Pending until the version names it (ADR 0051): a process killed before that leaves it to the sweep.
    yield* putPending(blobKey, pdf, "application/pdf");
    const config = yield* AccountsConfig;
    const published = reviewAction(reportId, "published", { version, sha256: digest.hex() }, (report, reviewer) =>
      Effect.gen(function* () {
        // Re-read under the lock: another publish or a review action in between means this PDF is stale.
        if (report.version + 1 !== version || fingerprintOf(yield* documentInputs(report)) !== fingerprintOf(inputs)) {
          return yield* new ChangedWhilePublishing();
        }
        const status = yield* advance(report, { type: "PUBLISH", reviewerId: reviewer.id });
        yield* keepBlobs([blobKey]);
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
          yield* notify(user.id, "report_published", `The head-shape report of ${document.baby.name} is ready.`, report.id);
          yield* queueMail(publishedMail(user, document.baby.name, `${config.publicUrl}${resultsPath(user)}`));
        }
        return { report_identifier: report.id, status, version, summary: presentSummary(document.summary) };
      }),
    );
    return yield* Effect.tapErrorCause(published, () => discardBlobs([blobKey]));
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

/**
 * A reviewer's preview: the PDF as publishing would render it now, marked as a preview, never
 * stored. Audited like every review read of a report.
 */
export const previewReport = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report } = yield* reportForReview(reportId);
    yield* requirePublishable(report);
    const document = yield* reportDocument(yield* documentInputs(report), caller.user, yield* now, report.version + 1, "preview");
    const pdf = yield* (yield* ReportRenderer).render(document);
    yield* audit({ action: "review.previewed", actorId: caller.user.id, subjectId: report.id, details: { version: report.version + 1 } });
    return pdf;
  });

import { Option } from "effect";
import { type Baby, babyName } from "../onboarding/model.ts";
import { addMonths, compareDays, dayOf, parseDay, wholeMonthsBetween } from "../shared/days.ts";
import { isCounted, type Attachment, type Measurement, type Report, type ReportListing } from "./model.ts";
import { awaitsRecapture } from "./lifecycle.ts";
import { presentAgreement } from "./photo-agreement.ts";

/** How the report feature's answers are written on the wire (api-contract.md), each shape once. */

export const present2 = (n: number | null | undefined) => (n === null || n === undefined ? null : Math.round(n * 100) / 100);

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

export const presentAttachment = (a: Attachment) => ({
  identifier: a.id,
  report_identifier: a.reportId,
  file_type: a.kind === "video" ? "video" : "image",
  file_name: a.fileName,
  extension: a.extension,
  size: a.size,
  sha256: a.sha256,
  uploaded_at: a.createdAt.toISOString(),
});

export const presentMeasurement = (m: Measurement) => ({
  attachment_identifier: m.attachmentId,
  automatic: { accepted: m.accepted, verdict: m.verdict, reasons: m.reasons, quality_margin: present2(m.qualityMargin) },
  decision: m.decision,
  counted: isCounted(m),
  nose_corrected: m.noseCorrected,
  outline_corrected: m.outlineCorrected,
  decision_reason: m.decisionReason,
  ci: present2(m.ci),
  cvai: present2(m.cvai),
  cva_mm: present2(m.cvaMm),
  error: m.error,
  overlay: m.geometry,
  /** The model that measured the photo, and its own answer when a reviewer corrected it (issue 41). */
  model: m.model,
  model_answer:
    m.modelAnswer === null
      ? null
      : { ci: present2(m.modelAnswer.ci), cvai: present2(m.modelAnswer.cvai), cva_mm: present2(m.modelAnswer.cvaMm), overlay: m.modelAnswer.geometry },
  corrected_at: m.correctedAt?.toISOString() ?? null,
});

export const presentSummary = (s: Report["analysis"]) =>
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

export const uploadedDate = (r: Pick<ReportListing, "submittedAt" | "createdAt">) => (r.submittedAt ?? r.createdAt).toISOString();

/** One upload in the dashboards and /uploads: the report with its files. */
export const uploadItem = (report: ReportListing, attachments: ReadonlyArray<Attachment>, parentName: string | null, caregiverEmail: string | null = null) => ({
  identifier: report.id,
  report_identifier: report.id,
  baby_name: report.babyName,
  upload_date: uploadedDate(report),
  uploaded_date: uploadedDate(report),
  status: report.status,
  parent_name: parentName,
  // No caregiver account linked yet (none given, or one asked and not answered): whom the practice named (issue 46).
  caregiver_email: parentName === null ? caregiverEmail : null,
  attachments: attachments.map(presentAttachment),
  attachment_count: attachments.length,
  recapture_reasons: awaitsRecapture(report.status) ? report.recaptureReasons : [],
});

/** What the review queue and a report's review page both show of the report and its baby. */
export const presentForReview = (report: ReportListing, baby: Option.Option<Pick<Baby, "firstName" | "middleName" | "lastName" | "dateOfBirth">>) => ({
  report_identifier: report.id,
  status: report.status,
  baby_name: Option.isSome(baby) ? babyName(baby.value) : report.babyName,
  baby_age: Option.isSome(baby) ? ageAt(baby.value.dateOfBirth, report.submittedAt ?? report.createdAt) : null,
  submitted_at: report.submittedAt?.toISOString() ?? null,
  reviewer_identifier: report.reviewerId,
});

import { Effect, Option } from "effect";
import { type User, Users } from "../accounts/model.ts";
import { CI_BANDS, CVAI_BANDS, bandOf, SEVERITY_CITATION } from "../measurement/bands.ts";
import { babyName } from "../onboarding/model.ts";
import { displayName, physicianName } from "../accounts/access.ts";
import { BlobStore } from "../shared/ports.ts";
import { type Attachment, Attachments, Images, isCounted, type Measurement, Measurements, type Report, type ReportDocument, Reports, ReportVersions } from "./model.ts";
import { measurementError, withAgreement } from "./photo-agreement.ts";
import { MAX_PHOTOS_IN_REPORT, REPORT_DISCLAIMER } from "./policy.ts";
import { ageAt } from "./present.ts";
import { babyOf } from "./queries.ts";

/** What a report's PDF prints, gathered from the report, its photos and the baby's published history. */

const readBytes = (key: string) =>
  Effect.gen(function* () {
    const blob = yield* (yield* BlobStore).get(key);
    if (Option.isNone(blob)) return Option.none<Uint8Array>();
    return Option.some(new Uint8Array(yield* Effect.promise(() => new Response(blob.value.body).arrayBuffer())));
  });

/** What a report's PDF is made of, read together: the report and the counted measurements of its round. */
export interface DocumentInputs {
  readonly report: Report;
  readonly measurements: ReadonlyArray<Measurement>;
}

export const documentInputs = (report: Report) =>
  Effect.map(Effect.flatMap(Measurements, (m) => m.listByReport(report.id)), (all): DocumentInputs => ({
    report,
    measurements: all.filter((m) => m.round === report.round && isCounted(m)).sort((a, b) => a.attachmentId.localeCompare(b.attachmentId)),
  }));

/**
 * Everything of the inputs that the PDF prints: two equal fingerprints render the same figures.
 * Compared under the report's lock before a publish commits (a review action may have changed the
 * report while its PDF was being rendered).
 */
export const fingerprintOf = ({ report, measurements }: DocumentInputs) =>
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


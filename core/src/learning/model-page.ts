import { Effect } from "effect";
import { QUALITY_REASONS } from "../measurement/verdict.ts";
import { requireType } from "../accounts/access.ts";
import { now } from "../shared/ports.ts";
import { type AgreementRow, agreementOf, agreementRowOf } from "./agreement.ts";
import { reviewedPhotos } from "./reviewed-set.ts";
import { installedModels, InstalledModels, ShadowMeasurements } from "./shadow-model.ts";
import { Option } from "effect";

/** How much a photo's model answer and reviewer differ: a verdict crossed first, then the figures. */
const disagreement = (r: AgreementRow) =>
  (r.truth.accepted !== (r.model.verdict === "accept") ? 100 : 0) +
  (r.truth.ci !== null && r.model.ci !== null ? Math.abs(r.truth.ci - r.model.ci) : 0) +
  (r.truth.cvai !== null && r.model.cvai !== null ? Math.abs(r.truth.cvai - r.model.cvai) : 0);

export const RECENT_DAYS = 30;
export const WORST_SHOWN = 10;

const round = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);

/**
 * `GET /admin/model`: the shipped model against the reviewers on the reviewed set (consented photos),
 * over the last 30 days and in total, and the photos where they disagree most (for the review console).
 */
export const modelPage = Effect.gen(function* () {
  yield* requireType("admin", "reviewer");
  const usable = (yield* reviewedPhotos).filter((x) => x.usable).map((x) => x.photo);
  const since = new Date((yield* now).getTime() - RECENT_DAYS * 86_400_000);
  const rows = usable.map((p) => ({ photo: p, row: agreementRowOf(p) }));
  const models = new Map<string, { name: string | null; version: string | null; photos: number }>();
  for (const { photo } of rows) {
    const key = `${photo.measurement.model?.name}@${photo.measurement.model?.version}`;
    const entry = models.get(key) ?? { name: photo.measurement.model?.name ?? null, version: photo.measurement.model?.version ?? null, photos: 0 };
    models.set(key, { ...entry, photos: entry.photos + 1 });
  }
  const worst = [...rows]
    .map((x) => ({ ...x, score: disagreement(x.row) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, WORST_SHOWN)
    .map(({ photo, row }) => ({
      report_identifier: photo.measurement.reportId,
      attachment_identifier: photo.attachmentId,
      reviewed_at: photo.reviewedAt.toISOString(),
      model: { verdict: row.model.verdict, reasons: row.model.reasons, ci: round(row.model.ci), cvai: round(row.model.cvai) },
      reviewer: { accepted: row.truth.accepted, reasons: row.truth.reasons.map((i) => QUALITY_REASONS[i]!), ci: round(row.truth.ci), cvai: round(row.truth.cvai) },
    }));
  // The shadow against the same reviewers, on the photos it measured, beside the shipped answers for those photos.
  const shadowModel = yield* (yield* InstalledModels).inRole("shadow");
  let shadow = null;
  if (Option.isSome(shadowModel)) {
    const answers = yield* (yield* ShadowMeasurements).listByModel(shadowModel.value.id);
    const byPhoto = new Map(answers.map((a) => [a.attachmentId, a]));
    const paired = rows.flatMap(({ photo, row }) => {
      const a = byPhoto.get(photo.attachmentId);
      return a ? [{ photo, shipped: row, shadow: { truth: row.truth, model: { verdict: a.verdict, reasons: a.reasons, ci: a.ci, cvai: a.cvai } } }] : [];
    });
    const recentPaired = paired.filter((x) => x.photo.reviewedAt >= since);
    const times = answers.map((a) => a.ms);
    shadow = {
      identifier: shadowModel.value.id,
      name: shadowModel.value.name,
      version: shadowModel.value.version,
      installed_at: shadowModel.value.installedAt.toISOString(),
      /** Every photo it measured since it was installed, reviewed or not, and its own time per photo. */
      measured: answers.length,
      mean_ms: times.length === 0 ? null : Math.round(times.reduce((x, y) => x + y, 0) / times.length),
      recent: { shipped: agreementOf(recentPaired.map((x) => x.shipped)), shadow: agreementOf(recentPaired.map((x) => x.shadow)) },
      total: { shipped: agreementOf(paired.map((x) => x.shipped)), shadow: agreementOf(paired.map((x) => x.shadow)) },
    };
  }
  return {
    installed: yield* installedModels,
    shadow,
    models: [...models.values()],
    recent_days: RECENT_DAYS,
    recent: agreementOf(rows.filter((x) => x.photo.reviewedAt >= since).map((x) => x.row)),
    total: agreementOf(rows.map((x) => x.row)),
    worst,
  };
});

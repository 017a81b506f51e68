import { QUALITY_REASONS, type VerdictOutcome } from "../measurement/verdict.ts";
import { isCounted } from "../report/model.ts";
import type { ReviewedPhoto } from "./model.ts";

/**
 * How far the model agrees with its reviewers (issue 41, item 4): the model's verdict against the
 * reviewer's decision, the figures' error where both accepted the photo, and each bad-image reason.
 * The same figures whoever asks: `crown model:evaluate` (the reviewed set, or any set in its format,
 * renders included: the truth plays the reviewer) and the admin's Model page. On a rendered set the
 * MAE is tests/bench/generalisation.bench.ts's "CI MAE (accepted good)", on the same photos.
 */

export interface AgreementRow {
  /** The reviewer (or a rendered set's truth): accepted, the reasons when not (indices of QUALITY_REASONS), the figures. */
  readonly truth: { readonly accepted: boolean; readonly reasons: ReadonlyArray<number>; readonly ci: number | null; readonly cvai: number | null };
  readonly model: { readonly verdict: VerdictOutcome; readonly reasons: ReadonlyArray<string>; readonly ci: number | null; readonly cvai: number | null };
}

/** How far apart two figures may be before a photo counts as "off" (CI or CVAI points). */
export const OFF_BY = 3;

const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

/** A reviewed photo as a row of the agreement: the reviewer's side and the model's own answer. */
export const agreementRowOf = (p: ReviewedPhoto): AgreementRow => {
  const m = p.measurement;
  const accepted = isCounted({ ...m, ci: 0 });
  const reasons = accepted ? [] : m.decisionReason !== null ? [m.decisionReason] : m.reasons;
  const model = m.modelAnswer ?? { ci: m.ci, cvai: m.cvai };
  return {
    truth: { accepted, reasons: reasons.map((r) => (QUALITY_REASONS as ReadonlyArray<string>).indexOf(r)).filter((i) => i >= 0), ci: m.ci, cvai: m.cvai },
    model: { verdict: m.verdict, reasons: m.reasons, ci: model.ci, cvai: model.cvai },
  };
};

export const agreementOf = (rows: ReadonlyArray<AgreementRow>) => {
  const accepted = rows.filter((r) => r.truth.accepted);
  const rejected = rows.filter((r) => !r.truth.accepted);
  const verdicts = (["accept", "retake", "refer"] as const).map((verdict) => ({
    verdict,
    reviewer_accepted: accepted.filter((r) => r.model.verdict === verdict).length,
    reviewer_rejected: rejected.filter((r) => r.model.verdict === verdict).length,
  }));
  // The figures where both kept the photo: what a report would have printed either way.
  const both = accepted.filter((r) => r.model.verdict === "accept" && r.model.ci !== null && r.truth.ci !== null && r.model.cvai !== null && r.truth.cvai !== null);
  const ciErrors = both.map((r) => Math.abs(r.model.ci! - r.truth.ci!));
  const cvaiErrors = both.map((r) => Math.abs(r.model.cvai! - r.truth.cvai!));
  const off = both.filter((_, i) => ciErrors[i]! > OFF_BY || cvaiErrors[i]! > OFF_BY).length;
  const perReason = QUALITY_REASONS.map((reason, i) => {
    const having = rejected.filter((r) => r.truth.reasons.includes(i));
    return {
      reason,
      n: having.length,
      not_accepted: having.filter((r) => r.model.verdict !== "accept").length,
      named: having.filter((r) => r.model.reasons.includes(reason)).length,
    };
  });
  return {
    photos: rows.length,
    reviewer: { accepted: accepted.length, rejected: rejected.length },
    verdicts,
    /** Of the photos the reviewer accepted, the share the model accepted too. */
    acceptance: accepted.length === 0 ? null : verdicts[0]!.reviewer_accepted / accepted.length,
    /** Of the photos the reviewer rejected, the share the model did not accept. */
    caught: rejected.length === 0 ? null : rejected.filter((r) => r.model.verdict !== "accept").length / rejected.length,
    figures: {
      n: both.length,
      ci_mae: mean(ciErrors),
      cvai_mae: mean(cvaiErrors),
      off_by_more_than: OFF_BY,
      off: off,
      off_share: both.length === 0 ? null : off / both.length,
      ci_off_share: both.length === 0 ? null : ciErrors.filter((e) => e > OFF_BY).length / both.length,
      cvai_off_share: both.length === 0 ? null : cvaiErrors.filter((e) => e > OFF_BY).length / both.length,
    },
    per_reason: perReason,
  };
};
export type Agreement = ReturnType<typeof agreementOf>;

const pct = (x: number | null) => (x === null ? "-" : `${(100 * x).toFixed(1)} %`);
const two = (x: number | null) => (x === null ? "-" : x.toFixed(2));

/** The figures as `crown model:evaluate` prints them. */
export const agreementLines = (a: Agreement): string[] => [
  `photos ${a.photos}: the reviewer accepted ${a.reviewer.accepted}, rejected ${a.reviewer.rejected}`,
  `model verdict        reviewer accepted  reviewer rejected`,
  ...a.verdicts.map((v) => `  ${v.verdict.padEnd(18)} ${String(v.reviewer_accepted).padStart(17)}  ${String(v.reviewer_rejected).padStart(17)}`),
  `accepted by both: ${pct(a.acceptance)} of the reviewer's accepted; rejected photos the model did not accept: ${pct(a.caught)}`,
  `figures where both accepted (n=${a.figures.n}): CI MAE ${two(a.figures.ci_mae)}, CVAI MAE ${two(a.figures.cvai_mae)}; off by more than ${a.figures.off_by_more_than}: ${pct(a.figures.off_share)} (CI ${pct(a.figures.ci_off_share)}, CVAI ${pct(a.figures.cvai_off_share)})`,
  `per reason (the reviewer's): n, not accepted by the model, named by the model`,
  ...a.per_reason.map((r) => `  ${r.reason.slice(0, 48).padEnd(48)} n=${String(r.n).padStart(3)}  not accepted ${String(r.not_accepted).padStart(3)}  named ${String(r.named).padStart(3)}`),
];

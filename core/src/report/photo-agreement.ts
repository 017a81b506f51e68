import { Effect, Option } from "effect";
import { aggregateAccepted } from "../measurement/aggregate.ts";
import { agreementOf, describeDisagreement, type IndexAgreement, type MeasurementError, photosDisagree } from "../measurement/agreement.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { type AnalysisSummary, defaultReportSettings, type Measurement, ReportConfig } from "./model.ts";

/**
 * Photos of one session that disagree beyond measurement error (issue 22, item 11): the reviewer
 * must confirm or reject each counted photo before the report can be published, so a median never
 * hides a wrong photo without a person having looked.
 */

export const AGREEMENT_MESSAGES = {
  mustConfirm: (details: ReadonlyArray<IndexAgreement>) =>
    `The accepted photos disagree: ${details.map(describeDisagreement).join("; ")}. Accept or reject each counted photo before publishing.`,
} as const;

export const measurementError = Effect.map(Effect.serviceOption(ReportConfig), (c) => Option.getOrElse(c, () => defaultReportSettings).measurementError);

/** The agreement of counted measurements (every one given is counted). */
export const agreementOfCounted = (counted: ReadonlyArray<Measurement>, error: MeasurementError) =>
  agreementOf(aggregateAccepted(counted.map((m) => ({ accepted: true, ci: m.ci, cvai: m.cvai, cva_mm: m.cvaMm }))), error);

/** Fails with the reason when the counted photos disagree and some of them no reviewer has confirmed. */
export const requireConfirmedWhenDisagreeing = (counted: ReadonlyArray<Measurement>) =>
  Effect.gen(function* () {
    const agreement = agreementOfCounted(counted, yield* measurementError);
    if (photosDisagree(agreement) && counted.some((m) => m.decision === null)) {
      return yield* ValidationFailed.field("report_identifier", AGREEMENT_MESSAGES.mustConfirm(agreement.filter((a) => a.disagree)));
    }
  });

/** A summary with its agreement filled in (summaries stored before the check have none). */
export const withAgreement = (summary: AnalysisSummary, error: MeasurementError): AnalysisSummary =>
  summary.agreement ? summary : { ...summary, agreement: agreementOf(summary, error) };

const round1 = (n: number) => Math.round(n * 100) / 100;

/** The agreement as the API shows it. */
export const presentAgreement = (summary: AnalysisSummary) => ({
  photos_disagree: photosDisagree(summary.agreement ?? []),
  unconfirmed: summary.unconfirmed ?? null,
  agreement: (summary.agreement ?? []).map((a) => ({
    index: a.index,
    min: round1(a.min),
    max: round1(a.max),
    count: a.count,
    limit: round1(a.limit),
    disagree: a.disagree,
    text: describeDisagreement(a),
  })),
});

import { Effect } from "effect";
import { auditReportReads, READ_AUDIT } from "../report/read-audit.ts";
import { NotFound } from "../shared/errors.ts";
import { MEASURES } from "./codes.ts";
import { publishedRecord } from "./records.ts";
import { observationId, presentObservations } from "./present.ts";

const observationNotFound = () => NotFound.of("Observation");

/** `GET /Observation/{reportId}-{ci|cvai|cva}`: one measure of a published report. */
export const readObservation = (id: string) =>
  Effect.gen(function* () {
    const measure = MEASURES.find((m) => id.endsWith(`-${m.slug}`));
    if (!measure) return yield* observationNotFound();
    const reportId = id.slice(0, -(measure.slug.length + 1));
    const { caller, record } = yield* Effect.catchTag(publishedRecord(reportId), "NotFound", observationNotFound);
    const observation = presentObservations(record).find((o) => o.id === observationId(reportId, measure));
    if (!observation) return yield* observationNotFound();
    yield* auditReportReads(READ_AUDIT.viewed, caller, [record.report], { fhir: "Observation", measure: measure.slug });
    return observation;
  });

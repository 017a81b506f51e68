import { Effect } from "effect";
import { displayName } from "../accounts/access.ts";
import { actingPhysician } from "../practice/access.ts";
import { validate } from "../shared/validation.ts";
import { Reports, type ResultFilter } from "./model.ts";
import { uploadedDate } from "./present.ts";
import { auditReportReads, READ_AUDIT } from "./read-audit.ts";
import { ResultsRequest, searchText } from "./requests.ts";
import { pageOf } from "../shared/page.ts";

/** `POST /report/results?page=`: a physician's published results (staff name the physician), with the read flag. */
export const physicianResults = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ResultsRequest, input);
    const { caller, physician } = yield* actingPhysician(request);
    const perPage = request.per_page ?? 10;
    const filter: ResultFilter = request.type ?? "all";
    const result = yield* (yield* Reports).resultsForPhysician(physician.id, { search: searchText(request.search), filter }, { page, perPage });
    yield* auditReportReads(READ_AUDIT.listed, caller, result.data.map((r) => r.report), { list: "results" });
    return pageOf(
      result.data.map(({ report, read, parent }) => ({
        identifier: report.id,
        baby_name: report.babyName,
        uploaded_date: uploadedDate(report),
        published_date: report.publishedAt?.toISOString() ?? null,
        parent_name: parent ? displayName(parent) : null,
        read,
        version: report.version,
      })),
      result.total,
      page,
      perPage,
    );
  });

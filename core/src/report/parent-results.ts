import { Effect } from "effect";
import { Babies } from "../onboarding/model.ts";
import { requireActive } from "../accounts/access.ts";
import { validate } from "../shared/validation.ts";
import { Reports } from "./model.ts";
import { presentSummary, uploadedDate } from "./present.ts";
import { auditReportReads, READ_AUDIT } from "./read-audit.ts";
import { ParentResultsRequest, searchText } from "./requests.ts";
import { pageOf } from "../shared/page.ts";

/** `POST /report/parent-results`: the published results of the caller's babies. */
export const parentResults = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ParentResultsRequest, input);
    const caller = yield* requireActive("parent");
    let babies = yield* (yield* Babies).listByParent(caller.user.id);
    if (request.baby_identifier) babies = babies.filter((b) => b.id === request.baby_identifier);
    const perPage = request.per_page ?? 10;
    const result = yield* (yield* Reports).resultsForBabies(babies.map((b) => b.id), { search: searchText(request.search) }, { page, perPage });
    yield* auditReportReads(READ_AUDIT.listed, caller, result.data, { list: "parent-results" });
    return pageOf(
      result.data.map((report) => ({
        identifier: report.id,
        baby_name: report.babyName,
        uploaded_date: uploadedDate(report),
        published_date: report.publishedAt?.toISOString() ?? null,
        read: true,
        version: report.version,
        summary: presentSummary(report.analysis),
      })),
      result.total,
      page,
      perPage,
    );
  });

import { Effect } from "effect";
import { Babies } from "../onboarding/model.ts";
import { actingPhysician } from "../practice/access.ts";
import { displayName, requireActive } from "../accounts/access.ts";
import { NotFound } from "../shared/errors.ts";
import { validate } from "../shared/validation.ts";
import { Reports } from "./model.ts";
import { uploadItem } from "./present.ts";
import { attachmentsOf } from "./queries.ts";
import { auditReportReads, READ_AUDIT } from "./read-audit.ts";
import { ListRequest, searchText } from "./requests.ts";
import { pageOf } from "../shared/page.ts";

/**
 * `POST /report/list`, the dashboards: a parent names a baby and sees its latest uploads (3 on
 * the dashboard); a physician (or staff naming one) sees recent results, 5 a page, `type` new for unread.
 */
export const dashboardList = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ListRequest, input);
    const caller = yield* requireActive("parent", "physician", "physician_staff");
    if (caller.user.type === "parent") {
      const perPage = request.per_page ?? 3;
      const babies = yield* (yield* Babies).listByParent(caller.user.id);
      const baby = request.baby_identifier ? babies.find((b) => b.id === request.baby_identifier) : babies[0];
      if (request.baby_identifier && !baby) return yield* NotFound.of("Baby");
      if (!baby) return pageOf([], 0, page, perPage);
      const result = yield* (yield* Reports).uploadsForBaby(baby.id, { page, perPage });
      const attachments = yield* attachmentsOf(result.data);
      yield* auditReportReads(READ_AUDIT.listed, caller, result.data, { list: "dashboard" });
      return pageOf(result.data.map((r) => uploadItem(r, attachments.get(r.id) ?? [], null)), result.total, page, perPage);
    }
    const { physician } = yield* actingPhysician(request);
    const perPage = request.per_page ?? 5;
    const result = yield* (yield* Reports).resultsForPhysician(physician.id, { search: searchText(request.search), filter: request.type ?? "all" }, { page, perPage });
    const reports = result.data.map((r) => r.report);
    const attachments = yield* attachmentsOf(reports);
    yield* auditReportReads(READ_AUDIT.listed, caller, reports, { list: "dashboard" });
    return pageOf(
      result.data.map(({ report, read, parent, caregiverEmail }) => ({ ...uploadItem(report, attachments.get(report.id) ?? [], parent ? displayName(parent) || null : null, caregiverEmail), read })),
      result.total,
      page,
      perPage,
    );
  });

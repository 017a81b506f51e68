import { Effect } from "effect";
import type { Users } from "../accounts/model.ts";
import { publishToAll } from "../live/service.ts";
import type { Delegations } from "../accounts/delegations.ts";
import { Conflict } from "../shared/errors.ts";
import { liveAudience } from "./access.ts";
import { nextReportStatus, type ReportEvent, type ReportStatus } from "./lifecycle.ts";
import type { Report } from "./model.ts";
import { notAllowedWhile } from "./requests.ts";

/**
 * Applies a lifecycle event to a locked report, or fails with 409 naming its status. A change of
 * status is published live to the uploader (a staff member only while she still acts for the
 * physician) and the physician, in the caller's transaction.
 */
export const advance = (report: Report, event: ReportEvent, photos = 0): Effect.Effect<ReportStatus, Conflict, Users | Delegations> => {
  const next = nextReportStatus(report.status, { photos, round: report.round }, event);
  if (next === null) return Effect.fail(new Conflict({ message: notAllowedWhile(report.status) }));
  if (next === report.status) return Effect.succeed(next);
  const data = { report_identifier: report.id, baby_identifier: report.babyId, baby_name: report.babyName, status: next, previous_status: report.status };
  return Effect.as(Effect.flatMap(liveAudience(report), (ids) => publishToAll(ids, "report.status", data)), next);
};

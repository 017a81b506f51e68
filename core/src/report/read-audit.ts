import type { Caller } from "../accounts/model.ts";
import { auditAll } from "../shared/ports.ts";
import type { ReportListing } from "./model.ts";

/** The audit actions of reading a child's reports (ADR 22). */
export const READ_AUDIT = {
  viewed: "report.viewed",
  listed: "report.listed",
  thumbnail: "report.thumbnail",
} as const;

/**
 * One audit row per report shown (actor, on whose behalf, report, its baby; the request's address
 * and id are stamped by `auditAll`), written in a single insert however long the page.
 * Staff act for the report's physician; a kiosk's wrapper names its physician itself.
 */
export const auditReportReads = (action: string, caller: Caller, reports: ReadonlyArray<Pick<ReportListing, "id" | "physicianId" | "babyId">>, details: Record<string, unknown> = {}) =>
  auditAll(
    reports.map((report) => ({
      action,
      actorId: caller.user.id,
      subjectId: report.id,
      onBehalfOf: caller.user.type === "physician_staff" ? report.physicianId : null,
      details: { baby: report.babyId, ...details },
    })),
  );

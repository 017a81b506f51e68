import { request } from "../api/client.ts";
import type { Page } from "../api/types.ts";
import type { Point } from "@crown/core/measurement/image";
import type { VerdictOutcome } from "@crown/core/measurement/index";
import type { PhotoGeometry } from "@crown/core/report/entities";
import type { ReportStatus } from "@crown/core/report/lifecycle";

/** The reviewers' and admins' calls (api-contract.md: roles reviewer and admin). */

export type { Point };
/** What the overlay draws: core's own shape (report/entities.ts, plain types), never a copy. */
export type Overlay = PhotoGeometry;

export interface ReviewMeasurement {
  readonly attachment_identifier: string;
  readonly automatic: {
    readonly accepted: boolean;
    /** "refer": the automatic check was unsure and left the photo to the reviewer. */
    readonly verdict: VerdictOutcome;
    readonly reasons: ReadonlyArray<string>;
    readonly quality_margin: number | null;
  };
  readonly decision: "accepted" | "rejected" | null;
  readonly counted: boolean;
  readonly nose_corrected: boolean;
  readonly ci: number | null;
  readonly cvai: number | null;
  readonly cva_mm: number | null;
  readonly error: string | null;
  readonly overlay: Overlay | null;
}

export interface Figure {
  readonly median: number | null;
  readonly min: number | null;
  readonly max: number | null;
  readonly count: number;
}

export interface Summary {
  readonly accepted: number;
  readonly measured: number;
  readonly ci: Figure | null;
  readonly cvai: Figure | null;
  readonly cva_mm: Figure | null;
  readonly problems: ReadonlyArray<string>;
  /** Whether the counted photos range wider than measurement error explains (core's measurement/agreement.ts). */
  readonly photos_disagree?: boolean;
  /** Counted photos no reviewer has accepted or rejected yet. */
  readonly unconfirmed?: number | null;
  readonly agreement?: ReadonlyArray<{ readonly index: string; readonly disagree: boolean; readonly text: string }>;
}

export interface ReviewAttachment {
  readonly identifier: string;
  readonly report_identifier: string;
  readonly file_type: "image" | "video";
  readonly file_name: string;
  readonly extension: string;
  readonly kind: string;
  readonly frame_time: number | null;
  readonly measurement: ReviewMeasurement | null;
}

export interface QueueItem {
  readonly report_identifier: string;
  readonly status: ReportStatus;
  readonly baby_name: string;
  readonly baby_age: string | null;
  readonly submitted_at: string | null;
  readonly summary: Summary | null;
  readonly previous_results: ReadonlyArray<{ report_identifier: string; captured_at: string; ci: number | null; cvai: number | null }>;
}

export interface ReviewDetail extends QueueItem {
  readonly round: number;
  readonly note: string | null;
  readonly recapture_reasons: ReadonlyArray<string>;
  readonly version: number;
  readonly attachments: ReadonlyArray<ReviewAttachment>;
  readonly actions: ReadonlyArray<{ action: string; at: string; details: Record<string, unknown> }>;
  readonly recapture_reason_options: ReadonlyArray<string>;
}

export const reviewQueue = (page: number) => request<Page<QueueItem>>("POST", "/review/queue", { json: { per_page: 10 }, query: { page } });
export const reviewDetail = (id: string) => request<ReviewDetail>("GET", `/review/report/${encodeURIComponent(id)}`);
export const decide = (id: string, attachment: string, decision: "accept" | "reject") =>
  request<Summary>("POST", `/review/report/${encodeURIComponent(id)}/decision`, { json: { attachment_identifier: attachment, decision } });
export const moveNose = (id: string, attachment: string, p: Point) =>
  request<{ measurement: ReviewMeasurement; summary: Summary }>("POST", `/review/report/${encodeURIComponent(id)}/nose-tip`, { json: { attachment_identifier: attachment, x: p.x, y: p.y } });
export const saveNote = (id: string, note: string) => request<{ note: string | null }>("POST", `/review/report/${encodeURIComponent(id)}/note`, { json: { note } });
export const publish = (id: string) => request<unknown>("POST", `/review/report/${encodeURIComponent(id)}/publish`, { json: {} });
export const recapture = (id: string, reasons: ReadonlyArray<string>, note: string) =>
  request<unknown>("POST", `/review/report/${encodeURIComponent(id)}/recapture`, { json: { reasons, note } });
export const reopen = (id: string) => request<unknown>("POST", `/review/report/${encodeURIComponent(id)}/reopen`, { json: {} });

export interface PendingUser {
  readonly identifier: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly phone?: string;
  readonly type: string;
  readonly status: string;
  readonly created_at: string;
  readonly babies?: ReadonlyArray<{ name: string; physician?: { name: string } | null; referral_code?: string | null }>;
}

export const pendingUsers = (page: number) => request<Page<PendingUser>>("GET", "/admin/users/pending", { query: { page } });
export const approveUser = (identifier: string) => request<unknown>("POST", "/admin/users/approve", { json: { identifier } });
export const rejectUser = (identifier: string, reason: string) => request<unknown>("POST", "/admin/users/reject", { json: { identifier, reason } });

export interface RemovalRequestRow {
  readonly identifier: string;
  readonly reason: string | null;
  readonly requested_at: string;
  readonly user: { identifier: string; first_name: string; last_name: string; email: string; type: string; status: string } | null;
}
export const removalRequests = (page: number) => request<Page<RemovalRequestRow>>("GET", "/admin/removal-requests", { query: { page } });

import { request } from "../api/client.ts";
import type { Api, ResultsOf } from "../api/wire.ts";

/*
 * The reviewers' and admins' calls (api-contract.md: roles reviewer and admin). Their answers' types
 * come from the server's routes (`AppType`, through hono/client's types): nothing here is copied by hand.
 */

export type QueueItem = ResultsOf<Api["review"]["queue"]["$post"]>["data"][number];
export type ReviewDetail = ResultsOf<Api["review"]["report"][":id"]["$get"]>;
export type ReviewAttachment = ReviewDetail["attachments"][number];
export type ReviewMeasurement = NonNullable<ReviewAttachment["measurement"]>;
export type Overlay = NonNullable<ReviewMeasurement["overlay"]>;
export type Point = Overlay["outline"][number];
export type Segment = NonNullable<Overlay["lengthEnds"]>;
export type Summary = NonNullable<QueueItem["summary"]>;
export type Figure = NonNullable<Summary["ci"]>;
type Moved = ResultsOf<Api["review"]["report"][":id"]["nose-tip"]["$post"]>;

export const reviewQueue = (page: number) => request<ResultsOf<Api["review"]["queue"]["$post"]>>("POST", "/review/queue", { json: { per_page: 10 }, query: { page } });
export const reviewDetail = (id: string) => request<ReviewDetail>("GET", `/review/report/${encodeURIComponent(id)}`);
export const decide = (id: string, attachment: string, decision: "accept" | "reject", reason?: string) =>
  request<ResultsOf<Api["review"]["report"][":id"]["decision"]["$post"]>>("POST", `/review/report/${encodeURIComponent(id)}/decision`, {
    json: { attachment_identifier: attachment, decision, ...(reason ? { reason } : {}) },
  });
export const moveNose = (id: string, attachment: string, p: Point) =>
  request<Moved>("POST", `/review/report/${encodeURIComponent(id)}/nose-tip`, { json: { attachment_identifier: attachment, x: p.x, y: p.y } });
export const correctOutline = (id: string, attachment: string, outline: ReadonlyArray<Point>, nose: Point | null) =>
  request<ResultsOf<Api["review"]["report"][":id"]["outline"]["$post"]>>("POST", `/review/report/${encodeURIComponent(id)}/outline`, {
    json: { attachment_identifier: attachment, outline, ...(nose ? { nose_tip: nose } : {}) },
  });
export const resetOutline = (id: string, attachment: string) =>
  request<ResultsOf<Api["review"]["report"][":id"]["outline"]["reset"]["$post"]>>("POST", `/review/report/${encodeURIComponent(id)}/outline/reset`, { json: { attachment_identifier: attachment } });
export const saveNote = (id: string, note: string) => request<ResultsOf<Api["review"]["report"][":id"]["note"]["$post"]>>("POST", `/review/report/${encodeURIComponent(id)}/note`, { json: { note } });
export const publish = (id: string) => request<unknown>("POST", `/review/report/${encodeURIComponent(id)}/publish`, { json: {} });
export const recapture = (id: string, reasons: ReadonlyArray<string>, note: string) =>
  request<unknown>("POST", `/review/report/${encodeURIComponent(id)}/recapture`, { json: { reasons, note } });
export const reopen = (id: string) => request<unknown>("POST", `/review/report/${encodeURIComponent(id)}/reopen`, { json: {} });

export type PendingUser = ResultsOf<Api["admin"]["users"]["pending"]["$get"]>["data"][number];

export const pendingUsers = (page: number) => request<ResultsOf<Api["admin"]["users"]["pending"]["$get"]>>("GET", "/admin/users/pending", { query: { page } });
export const approveUser = (identifier: string) => request<unknown>("POST", "/admin/users/approve", { json: { identifier } });
export const rejectUser = (identifier: string, reason: string) => request<unknown>("POST", "/admin/users/reject", { json: { identifier, reason } });

export type RemovalRequestRow = ResultsOf<Api["admin"]["removal-requests"]["$get"]>["data"][number];
export const removalRequests = (page: number) => request<ResultsOf<Api["admin"]["removal-requests"]["$get"]>>("GET", "/admin/removal-requests", { query: { page } });

export type PracticeAwaiting = ResultsOf<Api["admin"]["practices"]["awaiting-verification"]["$get"]>["data"][number];
export const practicesAwaiting = (page: number) =>
  request<ResultsOf<Api["admin"]["practices"]["awaiting-verification"]["$get"]>>("GET", "/admin/practices/awaiting-verification", { query: { page } });
export const verifyPractice = (physicianIdentifier: string) => request<unknown>("POST", "/admin/practices/verify", { json: { physician_identifier: physicianIdentifier } });
export const blockUser = (identifier: string) => request<unknown>("POST", "/admin/users/block", { json: { identifier } });

import { crown } from "../api/crown.ts";
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

const report = (id: string) => ({ param: { id } });

export const reviewQueue = (page: number) => crown.call((api) => api.review.queue.$post({ json: { per_page: 10 }, query: { page } }));
export const reviewDetail = (id: string) => crown.call((api) => api.review.report[":id"].$get(report(id)));
export const decide = (id: string, attachment: string, decision: "accept" | "reject", reason?: string) =>
  crown.call((api) => api.review.report[":id"].decision.$post({ ...report(id), json: { attachment_identifier: attachment, decision, ...(reason ? { reason } : {}) } }));
export const moveNose = (id: string, attachment: string, p: Point) =>
  crown.call((api) => api.review.report[":id"]["nose-tip"].$post({ ...report(id), json: { attachment_identifier: attachment, x: p.x, y: p.y } }));
export const correctOutline = (id: string, attachment: string, outline: ReadonlyArray<Point>, nose: Point | null) =>
  crown.call((api) =>
    api.review.report[":id"].outline.$post({ ...report(id), json: { attachment_identifier: attachment, outline: outline.map((p) => ({ x: p.x, y: p.y })), ...(nose ? { nose_tip: nose } : {}) } }),
  );
export const resetOutline = (id: string, attachment: string) => crown.call((api) => api.review.report[":id"].outline.reset.$post({ ...report(id), json: { attachment_identifier: attachment } }));
export const saveNote = (id: string, note: string) => crown.call((api) => api.review.report[":id"].note.$post({ ...report(id), json: { note } }));
export const publish = (id: string) => crown.call((api) => api.review.report[":id"].publish.$post(report(id)));
export const recapture = (id: string, reasons: ReadonlyArray<string>, note: string) =>
  crown.call((api) => api.review.report[":id"].recapture.$post({ ...report(id), json: { reasons: [...reasons], note } }));
export const reopen = (id: string) => crown.call((api) => api.review.report[":id"].reopen.$post(report(id)));
/** The PDF as publishing would render it now (a preview; nothing is stored). */
export const previewPdf = (id: string) => crown.blob((api) => api.review.report[":id"].preview.$get(report(id)));

export type PendingUser = ResultsOf<Api["admin"]["users"]["pending"]["$get"]>["data"][number];

export const pendingUsers = (page: number) => crown.call((api) => api.admin.users.pending.$get({ query: { page } }));
export const approveUser = (identifier: string) => crown.call((api) => api.admin.users.approve.$post({ json: { identifier } }));
export const rejectUser = (identifier: string, reason: string) => crown.call((api) => api.admin.users.reject.$post({ json: { identifier, reason } }));

export type RemovalRequestRow = ResultsOf<Api["admin"]["removal-requests"]["$get"]>["data"][number];
export const removalRequests = (page: number) => crown.call((api) => api.admin["removal-requests"].$get({ query: { page } }));

export type PracticeAwaiting = ResultsOf<Api["admin"]["practices"]["awaiting-verification"]["$get"]>["data"][number];
export const practicesAwaiting = (page: number) => crown.call((api) => api.admin.practices["awaiting-verification"].$get({ query: { page } }));
export const verifyPractice = (physicianIdentifier: string) => crown.call((api) => api.admin.practices.verify.$post({ json: { physician_identifier: physicianIdentifier } }));
export const blockUser = (identifier: string) => crown.call((api) => api.admin.users.block.$post({ json: { identifier } }));
export const holdRemoval = (identifier: string, reason: string) => crown.call((api) => api.admin["removal-requests"].hold.$post({ json: { identifier, reason } }));
export const releaseRemoval = (identifier: string) => crown.call((api) => api.admin["removal-requests"].release.$post({ json: { identifier } }));

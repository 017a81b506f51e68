import { Hono } from "hono";
import { blockUser, DIRECTORY_MESSAGES, listUsers, unblockUser, UserIdentifierRequest } from "@crown/core/accounts/directory";
import { HoldRequestBody, holdRemoval, listRemovalRequests, ReleaseRequestBody, releaseRemoval, REMOVAL_MESSAGES } from "@crown/core/accounts/removal";
import { AUDIT_VIEW_MESSAGES, exportAuditEvents, viewAuditEvents } from "@crown/core/audit/view";
import { stringify } from "csv-stringify/sync";
import { Accounts } from "@crown/core";
import { PRACTICE_MESSAGES } from "@crown/core/accounts/practice-verification";
import { listPracticesAwaitingVerification } from "@crown/core/practice/practices-awaiting-verification";
import { verifyPractice, VerifyPracticeRequest } from "@crown/core/practice/verify-practice";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { paged, takesJson, takesQuery } from "../wire-input.ts";
import { requireCaller } from "../middleware.ts";
import { documented, PAGED, PAGED_WITH_SIZE, SIZED } from "../openapi.ts";
import { jsonBody, pageParam, perPageParam } from "../request.ts";

const tag = "Admin";
documented({ method: "get", path: "/admin/users", summary: "Every account for the admin console (?page=, per_page, search longer than 2 characters, type, status), newest first", query: PAGED_WITH_SIZE, tag, auth: true });
documented({ method: "post", path: "/admin/users/block", summary: "Block an account (admins); its sessions end at once", tag, auth: true, body: UserIdentifierRequest });
documented({ method: "get", path: "/admin/removal-requests", summary: "Account removal requests for the admin console (?page=), newest first, with the account each concerns (admins)", query: PAGED, tag, auth: true });
documented({ method: "post", path: "/admin/removal-requests/hold", summary: "Place a legal hold on a removal request (identifier, reason; admins): the account is not erased until the hold is lifted; audited", tag, auth: true, body: HoldRequestBody });
documented({ method: "post", path: "/admin/removal-requests/release", summary: "Lift a removal request's legal hold (identifier; admins): erased at the next run once its grace period has ended; audited", tag, auth: true, body: ReleaseRequestBody });
documented({ method: "get", path: "/admin/audit-events", summary: "The audit log for admins, newest first (query: actor = e-mail or identifier, subject = baby/report/user identifier, action, from and to = YYYY-MM-DD inclusive, per_page up to 100, before = the previous page's next_cursor); answers { data, per_page, next_cursor }. Every view is itself audited (audit.viewed)", query: SIZED, tag, auth: true });
documented({ method: "get", path: "/admin/audit-events/export", summary: "The filtered audit log as CSV (same query as /admin/audit-events, newest first, at most 5000 rows), as an attachment audit-log.csv; audited (audit.exported)", tag, auth: true, response: "binary" });
documented({ method: "get", path: "/admin/practices/awaiting-verification", summary: "Self-signed-up physicians whose practice is being verified (admins), longest waiting first (?page=, per_page up to 100): name, NPI number, contact, the practice named in the signed BAA (null while unsigned) and the sign-up date", query: PAGED_WITH_SIZE, tag, auth: true });
documented({ method: "post", path: "/admin/practices/verify", summary: "Verify a self-signed-up physician's practice (physician_identifier; admins): from then on it appears in the provider search, reaches patients and sends invitations. Audited and e-mailed to the physician; 409 when already verified", tag, auth: true, body: VerifyPracticeRequest });
documented({ method: "post", path: "/admin/users/second-factor/reset", summary: "Reset a user's two-step sign-in (admins): every factor and session of the user ends, the reset is audited and the user told by e-mail; 409 when the user has none", tag, auth: true, body: Accounts.ResetSecondFactorRequest });
documented({ method: "post", path: "/admin/users/unblock", summary: "Unblock a blocked account (admins)", tag, auth: true, body: UserIdentifierRequest });

/** A spreadsheet would run a cell that starts like a formula (typed e-mails end up in details): quote it. */
const inertCell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** The admin console's user directory (block, unblock); approvals live with onboarding. */
export const adminRoutes = () =>
  new Hono<Env>()
    .get("/admin/users", takesQuery<{ page?: number | string; search?: string; type?: string; status?: string; per_page?: number }>(), requireCaller, async (c) => {
      const query = { search: c.req.query("search"), type: c.req.query("type") || undefined, status: c.req.query("status") || undefined };
      return c.json(ok(DIRECTORY_MESSAGES.users, await runUseCase(c, listUsers(pageParam(c), query, perPageParam(c)))), 200);
    })
    .get("/admin/removal-requests", paged, requireCaller, async (c) => c.json(ok(REMOVAL_MESSAGES.list, await runUseCase(c, listRemovalRequests(pageParam(c)))), 200))
    .post("/admin/removal-requests/hold", takesJson(HoldRequestBody), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, holdRemoval(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .post("/admin/removal-requests/release", takesJson(ReleaseRequestBody), requireCaller, async (c) => {
      const { message, results } = await runUseCase(c, releaseRemoval(await jsonBody(c)));
      return c.json(ok(message, results), 200);
    })
    .post("/admin/users/second-factor/reset", takesJson(Accounts.ResetSecondFactorRequest), requireCaller, async (c) => {
      const { message } = await runUseCase(c, Accounts.resetSecondFactor(await jsonBody(c)));
      return c.json(ok(message, null), 200);
    })
    .post("/admin/users/block", takesJson(UserIdentifierRequest), requireCaller, async (c) => c.json(ok(DIRECTORY_MESSAGES.blocked, await runUseCase(c, blockUser(await jsonBody(c)))), 200))
    .post("/admin/users/unblock", takesJson(UserIdentifierRequest), requireCaller, async (c) => c.json(ok(DIRECTORY_MESSAGES.unblocked, await runUseCase(c, unblockUser(await jsonBody(c)))), 200))
    .get("/admin/audit-events", requireCaller, async (c) => c.json(ok(AUDIT_VIEW_MESSAGES.events, await runUseCase(c, viewAuditEvents(c.req.query()))), 200))
    .get("/admin/audit-events/export", requireCaller, async (c) => {
      const rows = await runUseCase(c, exportAuditEvents(c.req.query()));
      const csv = stringify(
        rows.map((r) => [r.identifier, r.at, r.action, r.actor_email ?? "", r.actor_identifier ?? "", r.subject_identifier ?? "", r.ip ?? "", JSON.stringify(r.details)].map(inertCell)),
        { header: true, columns: ["sequence", "at", "action", "actor_email", "actor_identifier", "subject_identifier", "ip", "details"] },
      );
      return c.body(csv, 200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="audit-log.csv"' });
    })
    .get("/admin/practices/awaiting-verification", requireCaller, async (c) =>
      c.json(ok(PRACTICE_MESSAGES.awaiting, await runUseCase(c, listPracticesAwaitingVerification(c.req.query()))), 200),
    )
    .post("/admin/practices/verify", takesJson(VerifyPracticeRequest), requireCaller, async (c) => c.json(ok(PRACTICE_MESSAGES.verified, await runUseCase(c, verifyPractice(await jsonBody(c)))), 200));

// Served by apiRoutes from ApiOptions.publicConfig (the server's BUY_KITS_URL, WEBINAR_URL, APP_STORE_URL, PLAY_STORE_URL, HELP_VIDEO_URL, GOOGLE_/APPLE_/FACEBOOK_SIGN_IN_URL).
documented({ method: "get", path: "/config", summary: "Public portal settings, each only when configured: buy_kits_url and webinar_url (where Buy Kits and Webinar lead; absent, Crown's own pages), app_store_url, play_store_url, help_video_url, and google_sign_in_url, apple_sign_in_url, facebook_sign_in_url (the login page's social buttons)", tag: "Portal", auth: false });

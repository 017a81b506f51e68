import { Hono } from "hono";
import { blockUser, DIRECTORY_MESSAGES, listUsers, unblockUser, UserIdentifierRequest } from "@crown/core/accounts/directory";
import { listRemovalRequests, REMOVAL_MESSAGES } from "@crown/core/accounts/removal";
import { PRACTICE_MESSAGES } from "@crown/core/practice/verification";
import { verifyPractice, VerifyPracticeRequest } from "@crown/core/practice/verify-practice";
import { ok, runUseCase } from "../effect-bridge.ts";
import type { Env } from "../env.ts";
import { requireCaller } from "../middleware.ts";
import { documented } from "../openapi.ts";
import { jsonBody, pageParam } from "../request.ts";

const tag = "Admin";
documented({ method: "get", path: "/admin/users", summary: "Every account for the admin console (?page=, per_page, search longer than 2 characters, type, status), newest first", tag, auth: true });
documented({ method: "post", path: "/admin/users/block", summary: "Block an account (admins); its sessions end at once", tag, auth: true, body: UserIdentifierRequest });
documented({ method: "get", path: "/admin/removal-requests", summary: "Account removal requests for the admin console (?page=), newest first, with the account each concerns (admins)", tag, auth: true });
documented({ method: "post", path: "/admin/practices/verify", summary: "Verify a self-signed-up physician's practice (physician_identifier; admins): from then on it appears in the provider search, reaches patients and sends invitations. Audited and e-mailed to the physician; 409 when already verified", tag, auth: true, body: VerifyPracticeRequest });
documented({ method: "post", path: "/admin/users/unblock", summary: "Unblock a blocked account (admins)", tag, auth: true, body: UserIdentifierRequest });

/** The admin console's user directory (block, unblock); approvals live with onboarding. */
export const adminRoutes = () =>
  new Hono<Env>()
    .get("/admin/users", requireCaller, async (c) => {
      const query = { search: c.req.query("search"), type: c.req.query("type") || undefined, status: c.req.query("status") || undefined };
      const perPage = Math.min(100, Math.max(1, Number.parseInt(c.req.query("per_page") ?? "10", 10) || 10));
      return c.json(ok(DIRECTORY_MESSAGES.users, await runUseCase(c, listUsers(pageParam(c), query, perPage))), 200);
    })
    .get("/admin/removal-requests", requireCaller, async (c) => c.json(ok(REMOVAL_MESSAGES.list, await runUseCase(c, listRemovalRequests(pageParam(c)))), 200))
    .post("/admin/users/block", requireCaller, async (c) => c.json(ok(DIRECTORY_MESSAGES.blocked, await runUseCase(c, blockUser(await jsonBody(c)))), 200))
    .post("/admin/users/unblock", requireCaller, async (c) => c.json(ok(DIRECTORY_MESSAGES.unblocked, await runUseCase(c, unblockUser(await jsonBody(c)))), 200))
    .post("/admin/practices/verify", requireCaller, async (c) => c.json(ok(PRACTICE_MESSAGES.verified, await runUseCase(c, verifyPractice(await jsonBody(c)))), 200));

// Served by apiRoutes from ApiOptions.publicConfig (the server's BUY_KITS_URL, WEBINAR_URL, APP_STORE_URL, PLAY_STORE_URL, HELP_VIDEO_URL).
documented({ method: "get", path: "/config", summary: "Public portal settings: buy_kits_url and webinar_url (where /buy-kits and /webinar lead); app_store_url, play_store_url and help_video_url only when configured", tag: "Portal", auth: false });

import { Context, Effect, Option } from "effect";
import { pageOf } from "../shared/page.ts";
import { requireActive } from "./access.ts";
import { RateLimited, ValidationFailed } from "../shared/errors.ts";
import { queueMail } from "../shared/mail-jobs.ts";
import { audit, now, PasswordHasher, Random, RateLimiter, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { REMOVAL_MESSAGES, RemovalRequestBody } from "./removal-schemas.ts";
import { composeIn, MAILS, mailText } from "../i18n/mails/index.ts";
import { formatLongDay } from "../shared/dates.ts";
import { fill } from "../shared/i18n.ts";
import { CurrentUser, type User, Users } from "./model.ts";

/**
 * Account removal requests: Crown deletes nothing on its own. A signed-in user confirms with the
 * password and asks for the account to be removed; the request is stored, audited, confirmed by
 * e-mail, and listed for Crown's administrators in the admin console, who handle it.
 */

export interface RemovalRequest {
  readonly id: string;
  readonly userId: string;
  readonly reason: string | null;
  readonly createdAt: Date;
}

export interface RemovalRequestsPort {
  readonly insert: (request: RemovalRequest) => Effect.Effect<void>;
  readonly findByUser: (userId: string) => Effect.Effect<Option.Option<RemovalRequest>>;
  /** Every request, newest first. */
  readonly list: () => Effect.Effect<ReadonlyArray<RemovalRequest>>;
}
export class RemovalRequests extends Context.Tag("crown/RemovalRequests")<RemovalRequests, RemovalRequestsPort>() {}

export { REMOVAL_MESSAGES, RemovalRequestBody } from "./removal-schemas.ts";

const LIMIT = { limit: 5, windowSeconds: 15 * 60 };

const present = (r: RemovalRequest) => ({ identifier: r.id, reason: r.reason, requested_at: r.createdAt.toISOString() });

/** In the user's language; the English date stays as it always read (YYYY-MM-DD). */
export const removalRequestedMail = (user: User, at: Date) => {
  const t = mailText(user.language, "removal");
  const date = user.language === "en" ? at.toISOString().slice(0, 10) : formatLongDay(at, user.language);
  return composeIn(user.language, {
    to: user.email,
    subject: t("subject"),
    greeting: fill(MAILS[user.language].common.hello, { name: user.firstName }),
    paragraphs: [t("asked", { date, email: user.email }), t("handled"), t("notYou")],
  });
};

/** `POST /user/remove-account` with `{ password, reason? }`: records the request once, audits and mails it. */
export const requestRemoval = (input: unknown) =>
  Effect.gen(function* () {
    const body = yield* validate(RemovalRequestBody, input);
    const { user } = yield* CurrentUser;
    const at = yield* now;
    const verdict = yield* (yield* RateLimiter).hit(`remove-account:${user.id}`, LIMIT.limit, LIMIT.windowSeconds, at);
    if (!verdict.allowed) return yield* new RateLimited({ message: REMOVAL_MESSAGES.tooManyAttempts, retryAfterSeconds: verdict.retryAfterSeconds });
    if (!(yield* (yield* PasswordHasher).verify(user.passwordHash, body.password))) {
      yield* audit({ action: "account.removal_request_failed", actorId: user.id, subjectId: user.id });
      return yield* ValidationFailed.field("password", REMOVAL_MESSAGES.wrongPassword);
    }
    const requests = yield* RemovalRequests;
    const outcome = yield* transaction(
      Effect.gen(function* () {
        const existing = yield* requests.findByUser(user.id);
        if (Option.isSome(existing)) return { created: false, request: existing.value };
        const request: RemovalRequest = { id: (yield* Random).identifier(), userId: user.id, reason: body.reason ? body.reason : null, createdAt: at };
        yield* requests.insert(request);
        yield* audit({ action: "account.removal_requested", actorId: user.id, subjectId: user.id, details: { request: request.id } });
        // Queued with the request (ADR 15): a rolled-back request sends nothing, a refused send is retried.
        yield* queueMail(removalRequestedMail(user, at));
        return { created: true, request };
      }),
    );
    return {
      message: outcome.created ? REMOVAL_MESSAGES.requested : REMOVAL_MESSAGES.alreadyRequested,
      results: present(outcome.request),
    };
  });

/** `GET /admin/removal-requests?page=`: admins only, newest first, with the account it concerns. */
export const listRemovalRequests = (page: number, perPage = 10) =>
  Effect.gen(function* () {
    yield* requireActive("admin");
    const all = yield* (yield* RemovalRequests).list();
    const users = yield* Users;
    const rows = [];
    for (const r of all.slice((page - 1) * perPage, page * perPage)) {
      const user = yield* users.findById(r.userId);
      rows.push({
        ...present(r),
        user: Option.match(user, {
          onNone: () => null,
          onSome: (u) => ({ identifier: u.id, first_name: u.firstName, last_name: u.lastName, email: u.email, type: u.type, status: u.status }),
        }),
      });
    }
    return pageOf(rows, all.length, page, perPage);
  });

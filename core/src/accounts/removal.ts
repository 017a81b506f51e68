import { Context, Effect, Option } from "effect";
import { pageOf } from "../shared/page.ts";
import { requireActive } from "./access.ts";
import { NotFound, RateLimited, ValidationFailed } from "../shared/errors.ts";
import { queueMail } from "../shared/mail-jobs.ts";
import { JobQueue } from "../shared/jobs.ts";
import { audit, now, PasswordHasher, Random, RateLimiter, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { HoldRequestBody, ReleaseRequestBody, REMOVAL_MESSAGES, RemovalRequestBody } from "./removal-schemas.ts";
import { composeIn, MAILS, mailText } from "../i18n/mails/index.ts";
import { formatDay, formatLongDay } from "../shared/dates.ts";
import { fill } from "../shared/i18n.ts";
import { LiveEvents } from "../shared/live-events.ts";
import { CurrentUser, Sessions, type User, Users } from "./model.ts";
import { SignedInDevices } from "./devices.ts";

/**
 * Account removal requests. A signed-in user confirms with the password and asks for the account to
 * be removed; the request is stored, audited, confirmed by e-mail and listed for Crown's
 * administrators. A family's account (parent, other) is erased by the scheduled erasure
 * (core/src/family-data/erasure.ts) once ERASURE_GRACE_DAYS have passed, unless its owner signs in
 * again before (which cancels it) or an administrator holds it (legal hold, ADR 0150). Accounts of
 * providers, their staff, reviewers and administrators hold records their practice must keep: their
 * requests stay with the administrators, as before.
 */

export interface RemovalRequest {
  readonly id: string;
  readonly userId: string;
  readonly reason: string | null;
  readonly createdAt: Date;
  /** The end of the grace period: from then the scheduled erasure takes it (unless held). */
  readonly eraseAfter: Date;
  /** A legal hold: set by an administrator, it stops the erasure until lifted. */
  readonly heldAt: Date | null;
  readonly heldBy: string | null;
  readonly holdReason: string | null;
}

export interface RemovalRequestsPort {
  readonly insert: (request: RemovalRequest) => Effect.Effect<void>;
  readonly findByUser: (userId: string) => Effect.Effect<Option.Option<RemovalRequest>>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<RemovalRequest>>;
  /** Every request, newest first. */
  readonly list: () => Effect.Effect<ReadonlyArray<RemovalRequest>>;
  /** Removes the user's request (signed in again); the removed one, if there was one. */
  readonly cancel: (userId: string) => Effect.Effect<Option.Option<RemovalRequest>>;
  /** Places (a reason) or lifts (null) the legal hold. */
  readonly setHold: (id: string, hold: { readonly at: Date; readonly by: string; readonly reason: string } | null) => Effect.Effect<void>;
  /** Requests of erasable accounts whose grace period ended by `at` and that are not held, oldest first. */
  readonly due: (at: Date, limit: number) => Effect.Effect<ReadonlyArray<RemovalRequest>>;
}
export class RemovalRequests extends Context.Tag("crown/RemovalRequests")<RemovalRequests, RemovalRequestsPort>() {}

export { HoldRequestBody, ReleaseRequestBody, REMOVAL_MESSAGES, RemovalRequestBody } from "./removal-schemas.ts";

const LIMIT = { limit: 5, windowSeconds: 15 * 60 };

/** Days between the request and the erasure, during which signing in again cancels it. */
export const ERASURE_GRACE_DAYS = 14;

/** Whose requests the scheduled erasure carries out: a family's own account, holding no practice's records. */
export const erasable = (user: Pick<User, "type">) => user.type === "parent" || user.type === "other";

/** How a request is carried out: by the scheduled erasure, held, or by the administrators. */
export const erasureOf = (r: RemovalRequest, user: Pick<User, "type"> | null) =>
  user !== null && !erasable(user) ? ("by_administrator" as const) : r.heldAt !== null ? ("held" as const) : ("scheduled" as const);

const present = (r: RemovalRequest) => ({
  identifier: r.id,
  reason: r.reason,
  requested_at: r.createdAt.toISOString(),
  erase_after: r.eraseAfter.toISOString(),
  held_at: r.heldAt?.toISOString() ?? null,
  hold_reason: r.holdReason,
});

/** The erasure's notice: when, what, what a provider keeps, and that signing in cancels it. */
export const erasureScheduledMail = (user: User, eraseAfter: Date) => {
  const t = mailText(user.language, "erasure");
  const date = formatLongDay(eraseAfter, user.language);
  return composeIn(user.language, {
    to: user.email,
    subject: t("subject", { date }),
    greeting: fill(MAILS[user.language].common.hello, { name: user.firstName }),
    paragraphs: [t("asked", { email: user.email }), t("grace", { date }), t("providers"), t("notYou")],
  });
};

/**
 * Called by every sign-in (`openSession`): a family's pending erasure is cancelled, audited and the
 * owner told. Accounts whose requests the administrators handle keep them.
 */
export const cancelErasureOnSignIn = (user: User) =>
  Effect.gen(function* () {
    if (!erasable(user)) return;
    const requests = yield* Effect.serviceOption(RemovalRequests);
    if (Option.isNone(requests)) return;
    const cancelled = yield* requests.value.cancel(user.id);
    if (Option.isNone(cancelled)) return;
    yield* audit({ action: "account.removal_cancelled", actorId: user.id, subjectId: user.id, details: { request: cancelled.value.id } });
    const t = mailText(user.language, "erasureCancelled");
    const mail = composeIn(user.language, { to: user.email, subject: t("subject"), greeting: fill(MAILS[user.language].common.hello, { name: user.firstName }), paragraphs: [t("cancelled", { email: user.email })] });
    // Every composition that signs people in has the queue; core's in-memory sign-in tests have none.
    const queue = yield* Effect.serviceOption(JobQueue);
    if (Option.isSome(queue)) yield* Effect.provideService(queueMail(mail), JobQueue, queue.value);
  });

/** In the user's language: English writes the day as every screen and PDF does (MM/DD/YYYY); Spanish writes the month out, as the Spanish PDF does (ADR 77). */
export const removalRequestedMail = (user: User, at: Date) => {
  const t = mailText(user.language, "removal");
  const date = user.language === "en" ? formatDay(at, "en") : formatLongDay(at, user.language);
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
        const eraseAfter = new Date(at.getTime() + ERASURE_GRACE_DAYS * 86_400_000);
        const request: RemovalRequest = {
          id: (yield* Random).identifier(),
          userId: user.id,
          reason: body.reason ? body.reason : null,
          createdAt: at,
          eraseAfter,
          heldAt: null,
          heldBy: null,
          holdReason: null,
        };
        yield* requests.insert(request);
        yield* audit({ action: "account.removal_requested", actorId: user.id, subjectId: user.id, details: { request: request.id } });
        // Queued with the request (ADR 15): a rolled-back request sends nothing, a refused send is retried.
        yield* queueMail(erasable(user) ? erasureScheduledMail(user, eraseAfter) : removalRequestedMail(user, at));
        if (erasable(user)) {
          // Every session ends, this one too: a sign-in from now on is the owner changing their mind.
          const sessions = yield* (yield* SignedInDevices).live(user.id, at);
          yield* (yield* Sessions).revokeAllForUser(user.id, at);
          const live = yield* Effect.serviceOption(LiveEvents);
          if (Option.isSome(live)) yield* Effect.forEach(sessions, (s) => live.value.sessionEnded(s.session.id), { discard: true });
        }
        return { created: true, request };
      }),
    );
    const scheduled = erasable(user);
    return {
      message: scheduled
        ? fill(outcome.created ? REMOVAL_MESSAGES.erasureScheduled : REMOVAL_MESSAGES.erasureAlreadyScheduled, { date: outcome.request.eraseAfter.toISOString().slice(0, 10) })
        : outcome.created
          ? REMOVAL_MESSAGES.requested
          : REMOVAL_MESSAGES.alreadyRequested,
      results: { ...present(outcome.request), erasure: erasureOf(outcome.request, user), signed_out: scheduled },
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
        erasure: erasureOf(r, Option.getOrNull(user)),
        user: Option.match(user, {
          onNone: () => null,
          onSome: (u) => ({ identifier: u.id, first_name: u.firstName, last_name: u.lastName, email: u.email, type: u.type, status: u.status }),
        }),
      });
    }
    return pageOf(rows, all.length, page, perPage);
  });

/** `POST /admin/removal-requests/hold` with `{ identifier, reason }`: a legal hold stops the erasure until lifted (admins; audited). */
export const holdRemoval = (input: unknown) =>
  Effect.gen(function* () {
    const admin = yield* requireActive("admin");
    const body = yield* validate(HoldRequestBody, input);
    const requests = yield* RemovalRequests;
    const found = yield* requests.findById(body.identifier);
    if (Option.isNone(found)) return yield* NotFound.of("Removal request");
    const at = yield* now;
    yield* transaction(
      Effect.zipRight(
        requests.setHold(found.value.id, { at, by: admin.user.id, reason: body.reason }),
        audit({ action: "account.removal_held", actorId: admin.user.id, subjectId: found.value.userId, details: { request: found.value.id, reason: body.reason } }),
      ),
    );
    return { message: REMOVAL_MESSAGES.held, results: present({ ...found.value, heldAt: at, heldBy: admin.user.id, holdReason: body.reason }) };
  });

/** `POST /admin/removal-requests/release` with `{ identifier }`: lifts the legal hold; a request past its grace period is erased at the next run. */
export const releaseRemoval = (input: unknown) =>
  Effect.gen(function* () {
    const admin = yield* requireActive("admin");
    const body = yield* validate(ReleaseRequestBody, input);
    const requests = yield* RemovalRequests;
    const found = yield* requests.findById(body.identifier);
    if (Option.isNone(found)) return yield* NotFound.of("Removal request");
    yield* transaction(
      Effect.zipRight(
        requests.setHold(found.value.id, null),
        audit({ action: "account.removal_released", actorId: admin.user.id, subjectId: found.value.userId, details: { request: found.value.id } }),
      ),
    );
    return { message: REMOVAL_MESSAGES.released, results: present({ ...found.value, heldAt: null, heldBy: null, holdReason: null }) };
  });

import { OptionalPerPage } from "../shared/page.ts";
import { Effect, Option, Schema } from "effect";
import { Users } from "../accounts/model.ts";
import { parseDay, startOfDay } from "../shared/days.ts";
import { requireActive } from "../accounts/access.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { audit } from "../shared/ports.ts";
import { OptionalText, validate } from "../shared/validation.ts";
import { type AuditEvent, type AuditSearch, AuditTrail } from "./model.ts";

/** The admin console's audit log: filter, page, export. Every look at it is itself audited. */

export const AUDIT_VIEW_MESSAGES = {
  events: "Audit events fetched successfully",
  badDate: "Please enter proper date in format (YYYY-MM-DD)",
  badCursor: "The page cursor is invalid",
  badRange: "The start date must not be after the end date",
} as const;

export const AUDIT_PAGE_SIZE = 25;
export const AUDIT_PAGE_MAX = 100;
/** An export holds at most this many entries (newest first); narrow the filter for older ones. */
export const AUDIT_EXPORT_MAX = 5000;

/** An optional text with one rule; the filter sits over the nullish union so a failure says only `message`. */
const OptionalMatching = (ok: (s: string) => boolean, message: string) =>
  Schema.optionalWith(Schema.NullishOr(Schema.String).pipe(Schema.filter((s) => s == null || s === "" || ok(s), { message: () => message })), { exact: true });

const Day = OptionalMatching((s) => parseDay(s) !== null, AUDIT_VIEW_MESSAGES.badDate);

/** Query of `GET /admin/audit-events`: actor (e-mail or identifier), subject identifier, action, dates. */
export const AuditQuery = Schema.Struct({
  actor: OptionalText(254),
  subject: OptionalText(64),
  action: OptionalText(100),
  from: Day,
  to: Day,
  before: OptionalMatching((s) => /^[1-9][0-9]{0,14}$/.test(s), AUDIT_VIEW_MESSAGES.badCursor),
  per_page: OptionalPerPage,
});
export type AuditQuery = typeof AuditQuery.Type;

const dayStart = (text: string | undefined | null) => {
  const day = text ? parseDay(text) : null;
  return day ? startOfDay(day) : null;
};

/** The filter as the port takes it; None when the named actor has no account (nothing can match). */
const searchOf = (q: AuditQuery, limit: number) =>
  Effect.gen(function* () {
    const from = dayStart(q.from);
    const to = dayStart(q.to);
    if (from && to && from > to) return yield* ValidationFailed.field("from", AUDIT_VIEW_MESSAGES.badRange);
    let actorId = q.actor?.trim() || null;
    if (actorId?.includes("@")) {
      const user = yield* (yield* Users).findByEmail(actorId.toLowerCase());
      if (Option.isNone(user)) return Option.none<AuditSearch>();
      actorId = user.value.id;
    }
    return Option.some<AuditSearch>({
      actorId,
      subjectId: q.subject?.trim() || null,
      action: q.action?.trim() || null,
      from,
      // The end date is inclusive: entries before the next day's start.
      until: to ? new Date(to.getTime() + 86_400_000) : null,
      before: q.before ? Number(q.before) : null,
      limit,
    });
  });

export const presentAuditEvent = (e: AuditEvent) => ({
  identifier: String(e.sequence),
  at: e.at.toISOString(),
  action: e.action,
  actor_identifier: e.actorId,
  actor_email: e.actorEmail,
  subject_identifier: e.subjectId,
  ip: e.ip,
  details: e.details,
});

/** The filter as recorded in the viewing's own audit entry (what was looked at). */
const filterDetails = (q: AuditQuery) =>
  Object.fromEntries(Object.entries({ actor: q.actor, subject: q.subject, action: q.action, from: q.from, to: q.to, before: q.before }).filter(([, v]) => v));

/** `GET /admin/audit-events`: one page, newest first; `next_cursor` is the `before` of the next page. */
export const viewAuditEvents = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireActive("admin");
    const q = yield* validate(AuditQuery, input);
    const perPage = q.per_page ?? AUDIT_PAGE_SIZE;
    const search = yield* searchOf(q, perPage + 1);
    const rows = Option.isSome(search) ? yield* (yield* AuditTrail).search(search.value) : [];
    yield* audit({ action: "audit.viewed", actorId: caller.user.id, details: filterDetails(q) });
    const page = rows.slice(0, perPage);
    return {
      data: page.map(presentAuditEvent),
      per_page: perPage,
      next_cursor: rows.length > perPage ? String(page[page.length - 1]!.sequence) : null,
    };
  });

/** `GET /admin/audit-events/export`: the filtered entries (at most AUDIT_EXPORT_MAX), newest first. */
export const exportAuditEvents = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireActive("admin");
    const q = yield* validate(AuditQuery, input);
    const search = yield* searchOf(q, AUDIT_EXPORT_MAX);
    const rows = Option.isSome(search) ? yield* (yield* AuditTrail).search(search.value) : [];
    yield* audit({ action: "audit.exported", actorId: caller.user.id, details: { ...filterDetails(q), rows: rows.length } });
    return rows.map(presentAuditEvent);
  });

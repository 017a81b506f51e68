import { Context, Effect, Option } from "effect";
import { LiveEvents } from "../shared/live-events.ts";
import { NotFound } from "../shared/errors.ts";
import { audit, now, RequestContext, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { CurrentUser, type Session, Sessions } from "./model.ts";
import { DEVICE_MESSAGES, SessionIdentifierRequest } from "./devices-schemas.ts";

/**
 * Signed-in devices (issue 44): the profile lists every live session of the account with what it
 * was opened from, marks the caller's own, and ends any other one or all others at once. An ended
 * session's next call is 401 and its event streams close at once (LiveEvents.sessionEnded).
 */

/** What a session was opened from, kept beside it (table session_devices). */
export interface SessionDevice {
  readonly userAgent: string | null;
  readonly address: string | null;
}

export interface SignedInDevicesPort {
  /** Records what a new session was opened from (in the sign-in's transaction). */
  readonly record: (sessionId: string, device: SessionDevice) => Effect.Effect<void>;
  /** The user's sessions neither revoked nor past their absolute end at `at`, newest activity first, with their device. */
  readonly live: (userId: string, at: Date) => Effect.Effect<ReadonlyArray<{ readonly session: Session; readonly device: SessionDevice }>>;
}
export class SignedInDevices extends Context.Tag("crown/SignedInDevices")<SignedInDevices, SignedInDevicesPort>() {}

/** A device in words the portal translates: parsed from the User-Agent by a maintained parser (an adapter). */
export interface DeviceDescription {
  readonly browser: string | null;
  readonly browserVersion: string | null;
  readonly os: string | null;
  readonly kind: "desktop" | "mobile" | "tablet" | "unknown";
}
export interface DeviceNamesPort {
  readonly describe: (userAgent: string | null) => DeviceDescription;
  /** The country (ISO 3166-1 alpha-2) of an address from a database shipped with the server; null when unknown or private. */
  readonly country: (address: string | null) => string | null;
}
export class DeviceNames extends Context.Tag("crown/DeviceNames")<DeviceNames, DeviceNamesPort>() {}

/** User-Agents longer than this are cut before they are stored (no browser sends one near it). */
export const USER_AGENT_MAX = 512;

/** Called by `openSession`: where the composition records devices, this session's is recorded. */
export const recordDevice = (sessionId: string) =>
  Effect.gen(function* () {
    const devices = yield* Effect.serviceOption(SignedInDevices);
    if (Option.isNone(devices)) return;
    const request = yield* Effect.serviceOption(RequestContext);
    const userAgent = Option.isSome(request) && request.value.userAgent ? request.value.userAgent.slice(0, USER_AGENT_MAX) : null;
    const address = Option.isSome(request) ? request.value.ip : null;
    yield* devices.value.record(sessionId, { userAgent, address });
  });

const unknownDevice: DeviceDescription = { browser: null, browserVersion: null, os: null, kind: "unknown" };

/** A session idle past its limit is over even before anything revokes it. */
const idleOut = (s: Session, at: Date) => s.idleTimeoutSeconds !== null && at.getTime() - s.lastSeenAt.getTime() > s.idleTimeoutSeconds * 1000;

/** `GET /user/sessions`: the caller's live sessions, this one first, then by last activity. */
export const listSessions = Effect.gen(function* () {
  const { user, session: current } = yield* CurrentUser;
  const at = yield* now;
  const names = yield* Effect.serviceOption(DeviceNames);
  const rows = (yield* (yield* SignedInDevices).live(user.id, at)).filter((r) => !idleOut(r.session, at));
  const present = rows.map(({ session, device }) => {
    const described = Option.isSome(names) ? names.value.describe(device.userAgent) : unknownDevice;
    return {
      identifier: session.id,
      current: session.id === current.id,
      device_type: session.deviceType,
      browser: described.browser,
      browser_version: described.browserVersion,
      os: described.os,
      kind: described.kind,
      country: Option.isSome(names) ? names.value.country(device.address) : null,
      first_seen: session.createdAt.toISOString(),
      last_seen: session.lastSeenAt.toISOString(),
    };
  });
  return present.sort((a, b) => Number(b.current) - Number(a.current) || b.last_seen.localeCompare(a.last_seen));
});

/** Revokes sessions and closes their event streams in every process. */
const endAll = (ids: ReadonlyArray<string>, at: Date) =>
  Effect.gen(function* () {
    const sessions = yield* Sessions;
    yield* Effect.forEach(ids, (id) => sessions.revoke(id, at), { discard: true });
    const live = yield* Effect.serviceOption(LiveEvents);
    if (Option.isSome(live)) yield* Effect.forEach(ids, (id) => live.value.sessionEnded(id), { discard: true });
  });

/** `POST /user/sessions/end` with `{ identifier }`: ends one of the caller's other sessions (this one: sign out). */
export const endSession = (input: unknown) =>
  Effect.gen(function* () {
    const body = yield* validate(SessionIdentifierRequest, input);
    const { user, session: current } = yield* CurrentUser;
    const at = yield* now;
    const mine = (yield* (yield* SignedInDevices).live(user.id, at)).find((r) => r.session.id === body.identifier);
    // Another account's session, an ended one, or this one (sign out does that) all answer alike.
    if (mine === undefined || mine.session.id === current.id) return yield* NotFound.of("Session");
    yield* transaction(
      Effect.zipRight(endAll([mine.session.id], at), audit({ action: "account.session_ended", actorId: user.id, subjectId: user.id, details: { session: mine.session.id } })),
    );
    return { message: DEVICE_MESSAGES.ended };
  });

/** `POST /user/sessions/end-others`: ends every session of the caller but this one. */
export const endOtherSessions = Effect.gen(function* () {
  const { user, session: current } = yield* CurrentUser;
  const at = yield* now;
  const others = (yield* (yield* SignedInDevices).live(user.id, at)).map((r) => r.session.id).filter((id) => id !== current.id);
  yield* transaction(
    Effect.zipRight(endAll(others, at), audit({ action: "account.other_sessions_ended", actorId: user.id, subjectId: user.id, details: { sessions: others.length } })),
  );
  return { message: DEVICE_MESSAGES.endedOthers, ended: others.length };
});

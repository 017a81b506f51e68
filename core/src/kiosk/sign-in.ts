import { Effect, Option } from "effect";
import { Users } from "../accounts/model.ts";
import { isActive, isBlocked } from "../accounts/lifecycle.ts";
import { displayName, requireActive } from "../accounts/access.ts";
import { Delegations } from "../accounts/delegations.ts";
import { RateLimited, Unauthenticated, ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, Random, RateLimiter, Secrets, transaction } from "../shared/ports.ts";
import { throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { CurrentKiosk, type KioskCaller, type KioskDevice, KioskPins, type KioskSession, KioskSessions } from "./model.ts";
import { practiceStaff, authenticateDevice } from "./pairing.ts";
import { KIOSK_LIMITS, kioskSettings } from "./policy.ts";
import { KIOSK_MESSAGES, PinRequest, StaffSignInRequest } from "./requests.ts";

/* Staff sign in on a tablet with a PIN, for one patient at a time. */

/** A physician or staff member sets their own kiosk PIN in the portal. */
export const setPin = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PinRequest, input);
    const caller = yield* requireActive("physician", "physician_staff");
    const hash = yield* (yield* PasswordHasher).hash(request.pin);
    const at = yield* now;
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* KioskPins).set(caller.user.id, hash, at);
        yield* audit({ action: "kiosk.pin_set", actorId: caller.user.id, subjectId: caller.user.id });
      }),
    );
    return { pin_set: true };
  });

/**
 * A staff member signs in on a device with their PIN. Wrong PINs count against the staff member on
 * every device; the 6th attempt within 15 minutes answers 429 even with the right PIN.
 */
export const staffSignIn = (device: KioskDevice, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(StaffSignInRequest, input);
    if (!request.email && !request.staff_identifier) return yield* ValidationFailed.field("staff_identifier", KIOSK_MESSAGES.staffRequired);
    yield* throttle(`kiosk-sign-in:device:${device.id}`, KIOSK_LIMITS.signInPerDevice, KIOSK_MESSAGES.tooManyAttempts);
    const limiter = yield* RateLimiter;
    const hasher = yield* PasswordHasher;
    const at = yield* now;
    const people = yield* practiceStaff(device.physicianId);
    const email = request.email?.trim().toLowerCase();
    const staff = people.find((u) => (request.staff_identifier ? u.id === request.staff_identifier : u.email === email));
    const rule = KIOSK_LIMITS.pinFailuresPerStaff;
    const failureKey = `kiosk-pin:fail:${staff?.id ?? `unknown:${device.id}`}`;
    const pinHash = staff ? yield* (yield* KioskPins).find(staff.id) : Option.none<string>();
    // A dummy hash keeps an unknown staff member as slow as a wrong PIN.
    const matches = Option.isSome(pinHash) ? yield* hasher.verify(pinHash.value, request.pin) : yield* Effect.as(hasher.hash(request.pin), false);
    const auditDetails = { kiosk_device: device.id, acting_for: device.physicianId };
    if (!matches || !staff) {
      const verdict = yield* limiter.hit(failureKey, rule.limit, rule.windowSeconds, at);
      yield* audit({ action: "kiosk.sign_in_failed", actorId: staff?.id ?? null, subjectId: device.id, details: auditDetails });
      if (!verdict.allowed) return yield* new RateLimited({ message: KIOSK_MESSAGES.tooManyAttempts, retryAfterSeconds: verdict.retryAfterSeconds });
      return yield* ValidationFailed.field("pin", KIOSK_MESSAGES.badPin);
    }
    // After 5 failures even the right PIN waits: this attempt is the 6th in the window.
    const lock = yield* limiter.hit(failureKey, rule.limit, rule.windowSeconds, at);
    if (!lock.allowed) return yield* new RateLimited({ message: KIOSK_MESSAGES.tooManyAttempts, retryAfterSeconds: lock.retryAfterSeconds });
    yield* limiter.reset(failureKey);

    const config = yield* kioskSettings;
    const random = yield* Random;
    const secrets = yield* Secrets;
    const token = random.secret(32);
    const session: KioskSession = {
      id: random.identifier(),
      deviceId: device.id,
      staffId: staff.id,
      physicianId: device.physicianId,
      tokenDigest: secrets.digest(`kiosk-session|${token}`),
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + config.sessionAbsoluteSeconds * 1000),
      endedAt: null,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* KioskSessions).insert(session);
        yield* audit({ action: "kiosk.sign_in", actorId: staff.id, subjectId: device.id, details: auditDetails });
      }),
    );
    return {
      token,
      staff: { identifier: staff.id, name: displayName(staff) },
      idle_timeout_seconds: config.sessionIdleSeconds,
      expires_at: session.expiresAt.toISOString(),
    };
  });

/**
 * The kiosk caller behind a device credential and a session token. The session must belong to the
 * device, be live (not ended, expired or idle), and its staff member must still be Active and still
 * hold a delegation from the physician, checked on every call.
 */
export const authenticateKiosk = (credential: string | null, token: string | null) =>
  Effect.gen(function* () {
    const device = yield* authenticateDevice(credential);
    const ended = new Unauthenticated({ message: KIOSK_MESSAGES.sessionEnded });
    if (!token) return yield* ended;
    const secrets = yield* Secrets;
    const sessions = yield* KioskSessions;
    const config = yield* kioskSettings;
    const at = yield* now;
    const found = yield* sessions.findByDigest(secrets.digest(`kiosk-session|${token}`));
    if (Option.isNone(found)) return yield* ended;
    const session = found.value;
    if (
      session.deviceId !== device.id ||
      session.endedAt !== null ||
      session.expiresAt.getTime() <= at.getTime() ||
      at.getTime() - session.lastSeenAt.getTime() > config.sessionIdleSeconds * 1000
    ) {
      return yield* ended;
    }
    const users = yield* Users;
    const staff = yield* users.findById(session.staffId);
    const physician = yield* users.findById(session.physicianId);
    if (Option.isNone(staff) || Option.isNone(physician) || !isActive(staff.value) || isBlocked(physician.value)) return yield* ended;
    if (staff.value.id !== physician.value.id) {
      const delegation = yield* (yield* Delegations).findActive(physician.value.id, staff.value.id);
      if (Option.isNone(delegation)) return yield* ended;
    }
    if (at.getTime() - session.lastSeenAt.getTime() > 15_000) yield* sessions.touch(session.id, at);
    return { device, session, staff: staff.value, physician: physician.value } satisfies KioskCaller;
  });

/** Ends the kiosk session (after each patient, and on the tablet's idle timeout). */
export const kioskSignOut = Effect.gen(function* () {
  const kiosk = yield* CurrentKiosk;
  yield* transaction(
    Effect.gen(function* () {
      yield* (yield* KioskSessions).end(kiosk.session.id, yield* now);
      yield* audit({ action: "kiosk.sign_out", actorId: kiosk.staff.id, subjectId: kiosk.device.id });
    }),
  );
  return { signed_out: true };
});

import { Context, Effect, Option, Schema } from "effect";
import { type Caller, CurrentUser, type Session, type User, Users } from "../accounts/model.ts";
import { Babies } from "../onboarding/model.ts";
import { displayName, physicianName, requireActive } from "../practice/access.ts";
import { Delegations } from "../practice/model.ts";
import { addPatient, listPatients } from "../practice/service.ts";
import { finalizeReport, prepareReport, PrepareRequest, ReportIdentifierRequest, UPLOAD_MESSAGES } from "../report/index.ts";
import { uploadAttachments, type UploadPart } from "../report/upload.ts";
import { Reports } from "../report/model.ts";
import { Forbidden, NotFound, RateLimited, Unauthenticated, ValidationFailed } from "../shared/errors.ts";
import { audit, AuditLog, now, PasswordHasher, Random, RateLimiter, RequestContext, Secrets, type StampedAuditEntry, transaction } from "../shared/ports.ts";
import { Required, validate } from "../shared/validation.ts";
import { defaultKioskSettings, KioskConfig, type KioskDevice, KioskDevices, KioskPins, type KioskSession, KioskSessions } from "./model.ts";

export const KIOSK_MESSAGES = {
  deviceCreated: "Kiosk device created. Enter the pairing code on the tablet within 15 minutes.",
  devices: "Kiosk devices fetched successfully",
  deviceRevoked: "Kiosk device revoked",
  paired: "This tablet is now enrolled",
  badPairingCode: "This pairing code is invalid or has expired.",
  deviceUnknown: "This tablet is not enrolled. Ask your administrator for a pairing code.",
  deviceRevokedRefused: "This tablet's enrolment was revoked. Ask your administrator to enrol it again.",
  device: "Kiosk device fetched successfully",
  deviceStatus: "This tablet is enrolled",
  badPin: "The staff member or PIN is incorrect.",
  pinFormat: "The PIN must be 4 to 8 digits.",
  pinSet: "Kiosk PIN saved",
  tooManyAttempts: "Too many wrong PINs. Please try again in 15 minutes.",
  signedIn: "Signed in on the kiosk",
  signedOut: "Signed out of the kiosk",
  sessionEnded: "Your kiosk session has ended. Please sign in again.",
  babyQr: "Show this code at the clinic",
  badQr: "This code is invalid, has expired or was already used.",
  patient: "Patient fetched successfully",
  staff: "Staff members fetched successfully",
  staffRequired: "Please choose who you are.",
  physicianRequired: "Please name the physician the device is for.",
} as const;

/** PIN sign-in locks a staff member out after 5 wrong PINs for 15 minutes (on every device). */
export const KIOSK_LIMITS = {
  pinFailuresPerStaff: { limit: 5, windowSeconds: 15 * 60 },
  signInPerDevice: { limit: 60, windowSeconds: 15 * 60 },
  pairingPerAddress: { limit: 10, windowSeconds: 15 * 60 },
} as const;

/** Unambiguous characters for codes typed on a tablet (no 0/O, 1/I). 32 of them: base64url maps evenly. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
export const PAIRING_CODE_LENGTH = 8;

export const pairingCodeFrom = (secret: string) =>
  [...secret]
    .slice(0, PAIRING_CODE_LENGTH)
    .map((ch) => CODE_ALPHABET[BASE64URL.indexOf(ch) % CODE_ALPHABET.length])
    .join("");
/** Codes are typed in any case, with or without the spaces or dashes they are shown with. */
export const normalisePairingCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");

// ---- Requests ------------------------------------------------------------------------------------------

const msg = (text: string) => ({ message: () => ({ message: text, override: true }) });

export const CreateDeviceRequest = Schema.Struct({
  name: Schema.propertySignature(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(60)).annotations(msg("Device name is required (at most 60 characters)")),
  ).annotations({ missingMessage: () => "Device name is required (at most 60 characters)" }),
  physician_identifier: Schema.optionalWith(Schema.String, { nullable: true }),
});
export const DeviceRequest = Schema.Struct({ device_identifier: Required("Device") });
export const DeviceListRequest = Schema.Struct({ physician_identifier: Schema.optionalWith(Schema.String, { nullable: true }) });
export const PairRequest = Schema.Struct({ pairing_code: Required("Pairing code") });
const Pin = Schema.propertySignature(Schema.String.pipe(Schema.pattern(/^\d{4,8}$/)).annotations(msg(KIOSK_MESSAGES.pinFormat))).annotations({
  missingMessage: () => KIOSK_MESSAGES.pinFormat,
});
export const PinRequest = Schema.Struct({ pin: Pin });
export const StaffSignInRequest = Schema.Struct({
  email: Schema.optionalWith(Schema.String, { nullable: true }),
  staff_identifier: Schema.optionalWith(Schema.String, { nullable: true }),
  pin: Required("PIN"),
});
export const QrRequest = Schema.Struct({ code: Required("QR code") });
export const BabyQrQuery = Schema.Struct({ baby_identifier: Required("Baby") });

// ---- The kiosk caller -------------------------------------------------------------------------------------

/** A device, its signed-in staff member, and the physician they act for; set by the driving adapter. */
export interface KioskCaller {
  readonly device: KioskDevice;
  readonly session: KioskSession;
  readonly staff: User;
  readonly physician: User;
}
export class CurrentKiosk extends Context.Tag("crown/CurrentKiosk")<CurrentKiosk, KioskCaller>() {}

const settings = Effect.map(Effect.serviceOption(KioskConfig), Option.getOrElse(() => defaultKioskSettings));

const clientAddress = Effect.map(Effect.serviceOption(RequestContext), (r) => (Option.isSome(r) ? r.value.ip ?? "unknown" : "local"));

const throttle = (key: string, rule: { limit: number; windowSeconds: number }, message: string) =>
  Effect.gen(function* () {
    const verdict = yield* (yield* RateLimiter).hit(key, rule.limit, rule.windowSeconds, yield* now);
    if (!verdict.allowed) return yield* new RateLimited({ message, retryAfterSeconds: verdict.retryAfterSeconds });
  });

/**
 * Runs a practice use case as the kiosk's staff member: `CurrentUser` is the staff member, every
 * audit entry also names the device and the physician acted for.
 */
export const asKiosk =
  (kiosk: KioskCaller) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, CurrentUser | CurrentKiosk> | AuditLog> => {
    const session: Session = {
      id: kiosk.session.id,
      userId: kiosk.staff.id,
      tokenDigest: kiosk.session.tokenDigest,
      createdAt: kiosk.session.createdAt,
      lastSeenAt: kiosk.session.lastSeenAt,
      expiresAt: kiosk.session.expiresAt,
      idleTimeoutSeconds: null,
      revokedAt: null,
      deviceType: "kiosk",
    };
    const caller: Caller = { user: kiosk.staff, session };
    return self.pipe(
      Effect.provideService(CurrentUser, caller),
      Effect.provideService(CurrentKiosk, kiosk),
      Effect.provideServiceEffect(
        AuditLog,
        Effect.map(AuditLog, (log) => {
          const tagged = <T extends StampedAuditEntry>(entry: T): T => ({
            ...entry,
            onBehalfOf: entry.onBehalfOf ?? kiosk.physician.id,
            details: { ...entry.details, kiosk_device: kiosk.device.id, kiosk_staff: kiosk.staff.id, acting_for: kiosk.physician.id },
          });
          return { record: (entry) => log.record(tagged(entry)), recordMany: (entries) => log.recordMany(entries.map(tagged)) };
        }),
      ),
    ) as Effect.Effect<A, E, Exclude<R, CurrentUser | CurrentKiosk> | AuditLog>;
  };

// ---- Devices (portal and admin console) ----------------------------------------------------------------

const presentDevice = (device: KioskDevice, at: Date) => ({
  identifier: device.id,
  name: device.name,
  physician_identifier: device.physicianId,
  status: device.revokedAt ? "revoked" : device.pairedAt ? "paired" : device.pairingExpiresAt && device.pairingExpiresAt > at ? "pairing" : "expired",
  created_at: device.createdAt.toISOString(),
  paired_at: device.pairedAt?.toISOString() ?? null,
  last_seen_at: device.lastSeenAt?.toISOString() ?? null,
  revoked_at: device.revokedAt?.toISOString() ?? null,
});

/** The physician whose devices an admin or a physician manages; a physician manages only their own. */
const devicePractice = (named: string | null | undefined) =>
  Effect.gen(function* () {
    const caller = yield* requireActive("admin", "physician");
    if (caller.user.type === "physician") {
      if (named && named !== caller.user.id) return yield* NotFound.of("Physician");
      return { caller, physician: caller.user };
    }
    if (!named) return yield* ValidationFailed.field("physician_identifier", KIOSK_MESSAGES.physicianRequired);
    const physician = yield* (yield* Users).findById(named);
    if (Option.isNone(physician) || physician.value.type !== "physician") return yield* NotFound.of("Physician");
    return { caller, physician: physician.value };
  });

/** Creates a device of a practice with a one-time pairing code (shown once; stored as a digest). */
export const createDevice = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(CreateDeviceRequest, input);
    const { caller, physician } = yield* devicePractice(request.physician_identifier);
    const random = yield* Random;
    const secrets = yield* Secrets;
    const config = yield* settings;
    const at = yield* now;
    const code = pairingCodeFrom(random.secret(16));
    const device: KioskDevice = {
      id: random.identifier(),
      physicianId: physician.id,
      name: request.name,
      createdBy: caller.user.id,
      createdAt: at,
      pairingDigest: secrets.digest(`kiosk-pairing|${code}`),
      pairingExpiresAt: new Date(at.getTime() + config.pairingTtlSeconds * 1000),
      credentialDigest: null,
      pairedAt: null,
      lastSeenAt: null,
      revokedAt: null,
      revokedBy: null,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* KioskDevices).insert(device);
        yield* audit({ action: "kiosk.device_created", actorId: caller.user.id, subjectId: device.id, details: { physician: physician.id } });
      }),
    );
    return { ...presentDevice(device, at), pairing_code: code, pairing_expires_at: device.pairingExpiresAt!.toISOString() };
  });

export const listDevices = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(DeviceListRequest, input);
    const { physician } = yield* devicePractice(request.physician_identifier);
    const at = yield* now;
    const devices = yield* (yield* KioskDevices).listForPhysician(physician.id);
    return devices.map((d) => presentDevice(d, at));
  });

/** Revokes a device: its credential and every session on it stop working with this commit. */
export const revokeDevice = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(DeviceRequest, input);
    const caller = yield* requireActive("admin", "physician");
    const devices = yield* KioskDevices;
    const at = yield* now;
    const found = yield* devices.findById(request.device_identifier);
    if (Option.isNone(found) || (caller.user.type === "physician" && found.value.physicianId !== caller.user.id)) return yield* NotFound.of("Device");
    const device = found.value;
    if (device.revokedAt === null) {
      yield* transaction(
        Effect.gen(function* () {
          yield* devices.revoke(device.id, at, caller.user.id);
          yield* (yield* KioskSessions).endAllForDevice(device.id, at);
          yield* audit({ action: "kiosk.device_revoked", actorId: caller.user.id, subjectId: device.id, details: { physician: device.physicianId } });
        }),
      );
    }
    return presentDevice({ ...device, revokedAt: device.revokedAt ?? at, revokedBy: device.revokedBy ?? caller.user.id }, at);
  });

// ---- Pairing and the device credential -----------------------------------------------------------------

const practiceOf = (device: KioskDevice) =>
  Effect.map(Effect.flatMap(Users, (u) => u.findById(device.physicianId)), (p) => (Option.isSome(p) ? physicianName(p.value) : ""));

/** The tablet trades a pairing code for its device credential (shown once; stored as a digest). */
export const pairDevice = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PairRequest, input);
    yield* throttle(`kiosk-pair:addr:${yield* clientAddress}`, KIOSK_LIMITS.pairingPerAddress, KIOSK_MESSAGES.tooManyAttempts);
    const random = yield* Random;
    const secrets = yield* Secrets;
    const at = yield* now;
    const credential = random.secret(32);
    const device = yield* transaction(
      Effect.gen(function* () {
        const paired = yield* (yield* KioskDevices).pair(
          secrets.digest(`kiosk-pairing|${normalisePairingCode(request.pairing_code)}`),
          secrets.digest(`kiosk-device|${credential}`),
          at,
        );
        if (Option.isNone(paired)) return yield* ValidationFailed.field("pairing_code", KIOSK_MESSAGES.badPairingCode);
        yield* audit({ action: "kiosk.device_paired", actorId: null, subjectId: paired.value.id, details: { physician: paired.value.physicianId } });
        return paired.value;
      }),
    );
    return { device_credential: credential, device: { identifier: device.id, name: device.name, practice: yield* practiceOf(device) } };
  });

/** The device behind a credential: unknown is 401; revoked is 403 with status DeviceRevoked. */
export const authenticateDevice = (credential: string | null) =>
  Effect.gen(function* () {
    if (!credential) return yield* new Unauthenticated({ message: KIOSK_MESSAGES.deviceUnknown });
    const secrets = yield* Secrets;
    const devices = yield* KioskDevices;
    const found = yield* devices.findByCredential(secrets.digest(`kiosk-device|${credential}`));
    if (Option.isNone(found)) return yield* new Unauthenticated({ message: KIOSK_MESSAGES.deviceUnknown });
    if (found.value.revokedAt !== null) return yield* new Forbidden({ message: KIOSK_MESSAGES.deviceRevokedRefused, status: "DeviceRevoked" });
    const at = yield* now;
    if (found.value.lastSeenAt === null || at.getTime() - found.value.lastSeenAt.getTime() > 60_000) yield* devices.touch(found.value.id, at);
    return found.value;
  });

/**
 * The tablet's heartbeat: one lookup by credential digest, so the tablet can ask every few seconds and
 * learn of a revocation (403 DeviceRevoked) in any state, even while no other call is under way.
 */
export const deviceStatus = (credential: string | null) =>
  Effect.map(authenticateDevice(credential), (device) => ({ identifier: device.id, status: "paired" as const }));

export const deviceInfo = (device: KioskDevice) =>
  Effect.map(practiceOf(device), (practice) => ({ identifier: device.id, name: device.name, practice }));

/** Who may sign in on this device: the physician and their live staff, those who have set a PIN. */
const practiceStaff = (physicianId: string) =>
  Effect.gen(function* () {
    const physician = yield* (yield* Users).findById(physicianId);
    const staff = yield* (yield* Delegations).listStaff(physicianId, ["nurse", "office_admin"], { page: 1, perPage: 100 });
    const people = [...(Option.isSome(physician) ? [physician.value] : []), ...staff.data.map((m) => m.user)].filter((u) => u.status === "Active");
    const withPin = new Set(yield* (yield* KioskPins).withPin(people.map((u) => u.id)));
    return people.filter((u) => withPin.has(u.id));
  });

export const deviceStaff = (device: KioskDevice) =>
  Effect.map(practiceStaff(device.physicianId), (people) => people.map((u) => ({ identifier: u.id, name: displayName(u), type: u.type })));

/** What the tablet shows before anyone signs in: the device, its practice, and who can sign in. */
export const deviceOverview = (credential: string | null) =>
  Effect.gen(function* () {
    const device = yield* authenticateDevice(credential);
    return { ...(yield* deviceInfo(device)), staff: yield* deviceStaff(device) };
  });

// ---- PINs and kiosk sessions ---------------------------------------------------------------------------

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

    const config = yield* settings;
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
    const config = yield* settings;
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
    if (Option.isNone(staff) || Option.isNone(physician) || staff.value.status !== "Active" || physician.value.status === "Blocked") return yield* ended;
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

// ---- Patients and reports, through the practice and report use cases --------------------------------------

/** The request with the physician forced to the device's: a device never reaches another practice. */
const forPractice = (input: unknown, physicianId: string) => {
  const body = input !== null && typeof input === "object" && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : {};
  delete body.physician_id;
  return { ...body, physician_identifier: physicianId };
};

export const kioskPatients = (page: number, input: unknown) =>
  Effect.flatMap(CurrentKiosk, (kiosk) => listPatients(page, forPractice(input, kiosk.physician.id)));

export const kioskAddPatient = (input: unknown) => Effect.flatMap(CurrentKiosk, (kiosk) => addPatient(forPractice(input, kiosk.physician.id)));

// A parent's code for the kiosk: babyQr and patientByQr in baby-code.ts.

const notThisPractice = () => NotFound.of("Report");

export const kioskPrepare = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PrepareRequest, input);
    const kiosk = yield* CurrentKiosk;
    const baby = yield* (yield* Babies).findById(request.baby_identifier);
    if (Option.isNone(baby) || baby.value.physicianId !== kiosk.physician.id) return yield* NotFound.of("Baby");
    return yield* prepareReport(request);
  });

/** A report this kiosk session prepared for the device's practice; anything else is 404. */
const kioskReport = (reportId: string) =>
  Effect.gen(function* () {
    const kiosk = yield* CurrentKiosk;
    const report = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(report) || report.value.physicianId !== kiosk.physician.id || report.value.uploaderId !== kiosk.staff.id) {
      return yield* notThisPractice();
    }
    return report.value;
  });

/** The kiosk names the report in the query, so it is checked before any byte is stored. */
export const kioskUpload = (parts: AsyncIterable<UploadPart>, reportId: string | null) =>
  Effect.gen(function* () {
    if (!reportId) return yield* ValidationFailed.field("report_identifier", UPLOAD_MESSAGES.reportRequired);
    yield* kioskReport(reportId);
    return yield* uploadAttachments(parts, reportId);
  });

export const kioskFinalize = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ReportIdentifierRequest, input);
    yield* kioskReport(request.report_identifier);
    return yield* finalizeReport(request);
  });

import { Effect, Option } from "effect";
import { delegationActs } from "../practice/consent.ts";
import { Users } from "../accounts/model.ts";
import { isActive } from "../accounts/lifecycle.ts";
import { displayName } from "../accounts/access.ts";
import { Delegations } from "../accounts/delegations.ts";
import { STAFF_TYPES } from "../accounts/staff-types.ts";
import { Forbidden, Unauthenticated, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, Secrets, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { KioskDevices, type KioskDevice, KioskPins } from "./model.ts";
import { KIOSK_LIMITS, normalisePairingCode } from "./policy.ts";
import { deviceInfo, practiceOf, revocationOf } from "./present.ts";
import { KIOSK_MESSAGES, PairRequest } from "./requests.ts";

/* The tablet pairs with a code, then proves itself with its device credential on every call. */

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

/**
 * The device behind a credential: unknown is 401; revoked is 403 with status DeviceRevoked and, in its
 * `data`, when and why (ADR 0170), so the tablet can say so on every call, the heartbeat included.
 */
export const authenticateDevice = (credential: string | null) =>
  Effect.gen(function* () {
    if (!credential) return yield* new Unauthenticated({ message: KIOSK_MESSAGES.deviceUnknown });
    const secrets = yield* Secrets;
    const devices = yield* KioskDevices;
    const found = yield* devices.findByCredential(secrets.digest(`kiosk-device|${credential}`));
    if (Option.isNone(found)) return yield* new Unauthenticated({ message: KIOSK_MESSAGES.deviceUnknown });
    const { revokedAt } = found.value;
    if (revokedAt !== null) {
      return yield* new Forbidden({ message: KIOSK_MESSAGES.deviceRevokedRefused, status: "DeviceRevoked", data: revocationOf({ ...found.value, revokedAt }) });
    }
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

/** Who may sign in on this device: the physician and their staff who accepted, those who have set a PIN. */
export const practiceStaff = (physicianId: string) =>
  Effect.gen(function* () {
    const physician = yield* (yield* Users).findById(physicianId);
    const staff = yield* (yield* Delegations).listStaff(physicianId, STAFF_TYPES, { page: 1, perPage: 100 });
    // An offer not yet accepted (ADR 56) names nobody on the tablet.
    const acting = staff.data.filter((m) => delegationActs(m.delegation)).map((m) => m.user);
    const people = [...(Option.isSome(physician) ? [physician.value] : []), ...acting].filter(isActive);
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

import { Effect, Option } from "effect";
import { Users } from "../accounts/model.ts";
import { requireActive } from "../accounts/access.ts";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, Secrets, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { type KioskDevice, KioskDevices, KioskSessions } from "./model.ts";
import { kioskSettings, pairingCodeFrom } from "./policy.ts";
import { presentDevice } from "./present.ts";
import { reasonShown } from "./revocation.ts";
import { CreateDeviceRequest, DeviceListRequest, KIOSK_MESSAGES, RevokeDeviceRequest } from "./requests.ts";

/* The portal and admin console manage a practice's devices. */

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
    const config = yield* kioskSettings;
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
      revocationReason: null,
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

/**
 * Revokes a device: its credential and every session on it stop working with this commit. The reason
 * (from the list, or none) is kept with it and told to the tablet; revoking it again changes nothing.
 */
export const revokeDevice = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(RevokeDeviceRequest, input);
    const reason = request.reason ?? null;
    const caller = yield* requireActive("admin", "physician");
    const devices = yield* KioskDevices;
    const at = yield* now;
    const found = yield* devices.findById(request.device_identifier);
    if (Option.isNone(found) || (caller.user.type === "physician" && found.value.physicianId !== caller.user.id)) return yield* NotFound.of("Device");
    const device = found.value;
    if (device.revokedAt === null) {
      yield* transaction(
        Effect.gen(function* () {
          yield* devices.revoke(device.id, at, caller.user.id, reason);
          yield* (yield* KioskSessions).endAllForDevice(device.id, at);
          yield* audit({
            action: "kiosk.device_revoked",
            actorId: caller.user.id,
            subjectId: device.id,
            details: { physician: device.physicianId, reason: reasonShown(reason) },
          });
        }),
      );
      return presentDevice({ ...device, revokedAt: at, revokedBy: caller.user.id, revocationReason: reason }, at);
    }
    return presentDevice(device, at);
  });

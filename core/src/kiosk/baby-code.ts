import { Context, Effect, Option } from "effect";
import { Babies } from "../onboarding/model.ts";
import { presentPatient } from "../practice/present.ts";
import { capturableBaby } from "../report/access.ts";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, Secrets } from "../shared/ports.ts";
import { throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { CurrentKiosk } from "./model.ts";
import { kioskSettings, normalisePairingCode, pairingCodeFrom } from "./policy.ts";
import { BabyQrQuery, KIOSK_MESSAGES, QrRequest } from "./requests.ts";

/**
 * A parent's code for the clinic's kiosk (issue 22, item 7): the QR shows it and a person can type
 * it. Eight characters of the pairing code's unambiguous alphabet (40 bits), stored as a digest,
 * working once and for a few minutes, and looked up at most a few dozen times per tablet in 15 minutes,
 * so guessing one is hopeless.
 */

export interface KioskBabyCode {
  readonly digest: string;
  readonly babyId: string;
  readonly issuedBy: string;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
  readonly createdAt: Date;
}

export interface KioskBabyCodesPort {
  readonly insert: (code: KioskBabyCode) => Effect.Effect<void>;
  /** Marks the code used and answers it, in one atomic step; None when unknown, used or expired. */
  readonly consume: (digest: string, at: Date) => Effect.Effect<Option.Option<KioskBabyCode>>;
}
export class KioskBabyCodes extends Context.Tag("crown/KioskBabyCodes")<KioskBabyCodes, KioskBabyCodesPort>() {}

/** Code lookups per tablet: a busy clinic's patients, far below what guessing 2^40 codes would need. */
export const BABY_CODE_LOOKUPS_PER_DEVICE = { limit: 30, windowSeconds: 15 * 60 } as const;

export const BABY_CODE_MESSAGES = {
  tooManyLookups: "Too many codes were tried on this tablet. Please try again in 15 minutes.",
} as const;

/** Shown as `ABCD-EFGH`; typed in any case, with or without the dash. */
export const showBabyCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

const digestOf = (code: string) => Effect.map(Secrets, (s) => s.digest(`kiosk-baby|${normalisePairingCode(code)}`));

/** A new code for a baby, shown as a QR by the portal (its parent, physician or staff). */
export const babyQr = (query: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(BabyQrQuery, query);
    const { caller, baby } = yield* capturableBaby(request.baby_identifier);
    const config = yield* kioskSettings;
    const at = yield* now;
    const code = pairingCodeFrom((yield* Random).secret(16));
    const expiresAt = new Date(at.getTime() + config.babyQrTtlSeconds * 1000);
    yield* (yield* KioskBabyCodes).insert({ digest: yield* digestOf(code), babyId: baby.id, issuedBy: caller.user.id, expiresAt, usedAt: null, createdAt: at });
    yield* audit({ action: "kiosk.baby_qr_issued", actorId: caller.user.id, subjectId: baby.id });
    return { code: showBabyCode(code), expires_at: expiresAt.toISOString() };
  });

/** The patient a parent's code names, if it is a patient of the device's practice (404 otherwise). The code is spent either way. */
export const patientByQr = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(QrRequest, input);
    const kiosk = yield* CurrentKiosk;
    const at = yield* now;
    yield* throttle(`kiosk-baby-code|${kiosk.device.id}`, BABY_CODE_LOOKUPS_PER_DEVICE, BABY_CODE_MESSAGES.tooManyLookups);
    const code = yield* (yield* KioskBabyCodes).consume(yield* digestOf(request.code), at);
    if (Option.isNone(code)) return yield* ValidationFailed.field("code", KIOSK_MESSAGES.badQr);
    const baby = yield* (yield* Babies).findById(code.value.babyId);
    if (Option.isNone(baby) || baby.value.physicianId !== kiosk.physician.id) return yield* NotFound.of("Patient");
    yield* audit({ action: "kiosk.patient_by_qr", actorId: kiosk.staff.id, subjectId: baby.value.id });
    return presentPatient(baby.value, kiosk.physician);
  });

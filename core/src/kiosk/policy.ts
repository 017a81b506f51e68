import { Effect, Option } from "effect";
import { defaultKioskSettings, KioskConfig } from "./model.ts";

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

/** The kiosk settings in force: the environment's, or the defaults (tests, CLI). */
export const kioskSettings = Effect.map(Effect.serviceOption(KioskConfig), Option.getOrElse(() => defaultKioskSettings));

/** The request with the physician forced to the device's: a device never reaches another practice. */
export const forPractice = (input: unknown, physicianId: string) => {
  const body = input !== null && typeof input === "object" && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : {};
  delete body.physician_id;
  return { ...body, physician_identifier: physicianId };
};

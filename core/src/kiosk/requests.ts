import { Schema } from "effect";
import { Required } from "../shared/validation.ts";
import { REVOCATION_REASONS } from "./revocation.ts";

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
  deviceName: "Device name is required (at most 60 characters)",
  revocationReason: "Please choose a reason from the list.",
} as const;

const msg = (text: string) => ({ message: () => ({ message: text, override: true }) });

export const CreateDeviceRequest = Schema.Struct({
  name: Schema.propertySignature(
    Schema.String.pipe(Schema.minLength(1), Schema.maxLength(60)).annotations(msg(KIOSK_MESSAGES.deviceName)),
  ).annotations({ missingMessage: () => KIOSK_MESSAGES.deviceName }),
  physician_identifier: Schema.optionalWith(Schema.String, { nullable: true }),
});
/** A reason from the list, or none (older clients): stored as not given (ADR 0170). */
export const RevokeDeviceRequest = Schema.Struct({
  device_identifier: Required("Device"),
  // The message on the union: one answer for any other value, not one per member.
  reason: Schema.optionalWith(Schema.NullOr(Schema.Literal(...REVOCATION_REASONS)).annotations(msg(KIOSK_MESSAGES.revocationReason)), { exact: true }),
});
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

/*
 * The kiosk's use cases, one per file: managing devices (portal), pairing and the device credential,
 * staff sign-in with a PIN, and patients and reports on the tablet. `Kiosk.*` in core's index.
 */
export { type KioskCaller, CurrentKiosk } from "./model.ts";
export { KIOSK_LIMITS, normalisePairingCode, PAIRING_CODE_LENGTH, pairingCodeFrom } from "./policy.ts";
export * from "./requests.ts";
export { deviceInfo, presentDevice, type PresentedDevice, revocationOf } from "./present.ts";
export * from "./revocation.ts";
export { asKiosk } from "./as-kiosk.ts";
export { createDevice, listDevices, revokeDevice } from "./devices.ts";
export { authenticateDevice, deviceOverview, deviceStaff, deviceStatus, pairDevice } from "./pairing.ts";
export { authenticateKiosk, kioskSignOut, setPin, staffSignIn } from "./sign-in.ts";
export * from "./patients.ts";

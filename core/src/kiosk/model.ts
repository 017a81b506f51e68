import { Context, Effect, Option } from "effect";
import type { User } from "../accounts/model.ts";
import type { RevocationReason } from "./revocation.ts";

/**
 * Kiosk devices: exam-room tablets of one practice (a physician). An admin or the physician creates
 * one and gets a one-time pairing code; the tablet trades the code for its own long-lived device
 * credential. Both are stored only as digests. Revoking a device ends it, and its sessions, at once.
 */
export interface KioskDevice {
  readonly id: string;
  /** The practice: the physician whose patients the device works on. */
  readonly physicianId: string;
  readonly name: string;
  readonly createdBy: string;
  readonly createdAt: Date;
  /** Digest of the pending pairing code; null once paired (or never re-issued). */
  readonly pairingDigest: string | null;
  readonly pairingExpiresAt: Date | null;
  readonly credentialDigest: string | null;
  readonly pairedAt: Date | null;
  readonly lastSeenAt: Date | null;
  readonly revokedAt: Date | null;
  readonly revokedBy: string | null;
  /** Why it was revoked; null when no reason was given (ADR 0170). */
  readonly revocationReason: RevocationReason | null;
}

export interface KioskDevicesPort {
  readonly insert: (device: KioskDevice) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<KioskDevice>>;
  readonly findByCredential: (digest: string) => Effect.Effect<Option.Option<KioskDevice>>;
  /**
   * Consumes a pairing code and binds the credential, in one atomic step; None when the code is
   * unknown, expired, already used or its device revoked. A code therefore pairs one tablet, once.
   */
  readonly pair: (pairingDigest: string, credentialDigest: string, at: Date) => Effect.Effect<Option.Option<KioskDevice>>;
  readonly listForPhysician: (physicianId: string) => Effect.Effect<ReadonlyArray<KioskDevice>>;
  readonly revoke: (id: string, at: Date, by: string, reason: RevocationReason | null) => Effect.Effect<void>;
  readonly touch: (id: string, at: Date) => Effect.Effect<void>;
}
export class KioskDevices extends Context.Tag("crown/KioskDevices")<KioskDevices, KioskDevicesPort>() {}

/** A staff member's (or physician's) kiosk PIN, hashed like a password. */
export interface KioskPinsPort {
  readonly set: (userId: string, pinHash: string, at: Date) => Effect.Effect<void>;
  readonly find: (userId: string) => Effect.Effect<Option.Option<string>>;
  /** Which of these users have set a PIN. */
  readonly withPin: (userIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>;
}
export class KioskPins extends Context.Tag("crown/KioskPins")<KioskPins, KioskPinsPort>() {}

/** A short session of one staff member on one device, acting for the device's physician. */
export interface KioskSession {
  readonly id: string;
  readonly deviceId: string;
  readonly staffId: string;
  readonly physicianId: string;
  readonly tokenDigest: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly expiresAt: Date;
  readonly endedAt: Date | null;
}

export interface KioskSessionsPort {
  readonly insert: (session: KioskSession) => Effect.Effect<void>;
  readonly findByDigest: (digest: string) => Effect.Effect<Option.Option<KioskSession>>;
  readonly touch: (id: string, at: Date) => Effect.Effect<void>;
  readonly end: (id: string, at: Date) => Effect.Effect<void>;
  readonly endAllForDevice: (deviceId: string, at: Date) => Effect.Effect<void>;
}
export class KioskSessions extends Context.Tag("crown/KioskSessions")<KioskSessions, KioskSessionsPort>() {}

export interface KioskSettings {
  readonly pairingTtlSeconds: number;
  /** Server side of the idle limit: longer than the tablet's own (default 2 minutes) so the tablet wipes first. */
  readonly sessionIdleSeconds: number;
  readonly sessionAbsoluteSeconds: number;
  /** A parent's QR code for a baby. */
  readonly babyQrTtlSeconds: number;
}
export const defaultKioskSettings: KioskSettings = {
  pairingTtlSeconds: 15 * 60,
  sessionIdleSeconds: 5 * 60,
  sessionAbsoluteSeconds: 30 * 60,
  babyQrTtlSeconds: 10 * 60,
};
export class KioskConfig extends Context.Tag("crown/KioskConfig")<KioskConfig, KioskSettings>() {}

/** A device, its signed-in staff member, and the physician they act for; set by the driving adapter. */
export interface KioskCaller {
  readonly device: KioskDevice;
  readonly session: KioskSession;
  readonly staff: User;
  readonly physician: User;
}
export class CurrentKiosk extends Context.Tag("crown/CurrentKiosk")<CurrentKiosk, KioskCaller>() {}

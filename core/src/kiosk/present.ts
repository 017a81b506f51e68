import { Effect, Option } from "effect";
import { Users } from "../accounts/model.ts";
import { physicianName } from "../accounts/access.ts";
import type { KioskDevice } from "./model.ts";

/** A device as the portal's device list shows it; its status is derived from its dates. */
export const presentDevice = (device: KioskDevice, at: Date) => ({
  identifier: device.id,
  name: device.name,
  physician_identifier: device.physicianId,
  status: device.revokedAt ? "revoked" : device.pairedAt ? "paired" : device.pairingExpiresAt && device.pairingExpiresAt > at ? "pairing" : "expired",
  created_at: device.createdAt.toISOString(),
  paired_at: device.pairedAt?.toISOString() ?? null,
  last_seen_at: device.lastSeenAt?.toISOString() ?? null,
  revoked_at: device.revokedAt?.toISOString() ?? null,
});
export type PresentedDevice = ReturnType<typeof presentDevice>;

/** The practice a device works for, by its physician's name. */
export const practiceOf = (device: KioskDevice) =>
  Effect.map(Effect.flatMap(Users, (u) => u.findById(device.physicianId)), (p) => (Option.isSome(p) ? physicianName(p.value) : ""));

export const deviceInfo = (device: KioskDevice) =>
  Effect.map(practiceOf(device), (practice) => ({ identifier: device.id, name: device.name, practice }));

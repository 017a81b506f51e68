import { Effect } from "effect";
import { type Caller, CurrentUser, type Session } from "../accounts/model.ts";
import { AuditLog, type StampedAuditEntry } from "../shared/ports.ts";
import { CurrentKiosk, type KioskCaller } from "./model.ts";

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
      // The tablet's own credential and the staff member's PIN are its proofs (issue 44 leaves them as they are).
      lastProofAt: kiosk.session.createdAt,
      secondFactorAt: kiosk.session.createdAt,
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

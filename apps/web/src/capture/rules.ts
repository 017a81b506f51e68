import { minGoodShots } from "@crown/core/capture/rules";
import type { Session } from "../session/machine.ts";

/**
 * The portal's view of core's capture rules (core/src/capture/rules.ts): the minimum good shots of
 * the person signed in, through the same function the kiosk machine uses (ADR 0044).
 */
export const minimumShotsFor = (s: Pick<Session, "userRole"> | null) => minGoodShots(s?.userRole);

export const isProvider = (s: Pick<Session, "userRole"> | null) => s?.userRole === "physician" || s?.userRole === "physician_staff";

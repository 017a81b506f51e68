import type { UserType } from "../accounts/lifecycle.ts";
import type { QualityReason, VerdictOutcome } from "../measurement/verdict.ts";
import { UPLOAD_LIMITS } from "./limits.ts";

/**
 * The capture rules of capture-and-reporting.md §9, shared by the portal's capture page and the
 * kiosk (docs/adr/0044-one-capture-machine.md): "Video 10 seconds; auto capture takes 10 good shots;
 * minimum good shots 5 (3 for physicians)". Plain functions over plain data, so both machines (and
 * the browser) use them without pulling in Effect.
 */

export const CAPTURE_SECONDS = 10;
export const AUTO_CAPTURE_SHOTS = 10;
/** Regular Capture takes shots on a clock; never more than one upload can carry. */
export const REGULAR_MAX_SHOTS = UPLOAD_LIMITS.maxFiles;

export const MIN_GOOD_SHOTS = { physician: 3, everyoneElse: 5 } as const;

/**
 * The minimum good shots for the person capturing: a physician 3, anyone else 5 (parents and
 * provider staff, also when staff capture at the practice's kiosk on the physician's behalf).
 */
export const minGoodShots = (role: UserType | null | undefined): number =>
  role === "physician" ? MIN_GOOD_SHOTS.physician : MIN_GOOD_SHOTS.everyoneElse;

export type CaptureMode = "auto" | "regular";

/** A captured frame. `image` is whatever the app holds (a Blob in the browser); core never reads it. */
export interface CapturedShot {
  readonly id: string;
  readonly image: unknown;
  /**
   * The model's three-outcome verdict (measurement/verdict.ts); null while not judged yet. Absent when
   * the app judged the frame before handing it over (the kiosk hands over accepted frames only).
   */
  readonly verdict?: VerdictOutcome | null;
  readonly reasons?: ReadonlyArray<QualityReason>;
}

/** Only an accepted frame counts as a good shot: a retake or a referral does not. */
export const isGoodShot = (shot: CapturedShot) => shot.verdict === undefined || shot.verdict === "accept";

/**
 * The shots after one more frame: Auto Capture keeps only good frames, up to 10; Regular Capture
 * keeps every frame the clock takes (judged later), up to REGULAR_MAX_SHOTS.
 */
export const keepShot = <S extends CapturedShot>(mode: CaptureMode, shots: ReadonlyArray<S>, shot: S): ReadonlyArray<S> => {
  if (mode === "auto") return isGoodShot(shot) && shots.length < AUTO_CAPTURE_SHOTS ? [...shots, shot] : shots;
  return shots.length < REGULAR_MAX_SHOTS ? [...shots, shot] : shots;
};

/** Auto Capture stops by itself at its 10th good shot. */
export const autoCaptureComplete = (shots: ReadonlyArray<CapturedShot>) => shots.length >= AUTO_CAPTURE_SHOTS;

/** Enough shots to upload: at least the minimum for who is capturing. */
export const enoughShots = (count: number, role: UserType | null | undefined) => count >= minGoodShots(role);

/** The shots first selected for upload: the good ones and those not judged yet, or all when none is good. */
export const defaultSelection = (shots: ReadonlyArray<CapturedShot>): ReadonlyArray<string> => {
  const good = shots.filter((s) => s.verdict !== "retake" && s.verdict !== "refer");
  return (good.length > 0 ? good : shots).map((s) => s.id);
};

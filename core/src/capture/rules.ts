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

/** A frame the model was unsure about (verdict "refer"): kept, flagged, for the reviewer to judge. */
export const isReferredShot = (shot: CapturedShot) => shot.verdict === "refer";

/**
 * Auto Capture keeps up to this many referred frames beside its good ones (docs/adr/0083): an unsure
 * model is no reason to throw a photo away, but they must not crowd out the good shots either.
 */
export const AUTO_CAPTURE_REFERRED = 3;

export const goodShotCount = (shots: ReadonlyArray<CapturedShot>) => shots.filter(isGoodShot).length;

/**
 * The shots after one more frame: Auto Capture keeps good frames, up to 10, and referred ones, up to
 * AUTO_CAPTURE_REFERRED (retakes are dropped); Regular Capture keeps every frame the clock takes
 * (judged later), up to REGULAR_MAX_SHOTS.
 */
export const keepShot = <S extends CapturedShot>(mode: CaptureMode, shots: ReadonlyArray<S>, shot: S): ReadonlyArray<S> => {
  if (mode === "auto") {
    if (isGoodShot(shot)) return goodShotCount(shots) < AUTO_CAPTURE_SHOTS ? [...shots, shot] : shots;
    return isReferredShot(shot) && shots.filter(isReferredShot).length < AUTO_CAPTURE_REFERRED ? [...shots, shot] : shots;
  }
  return shots.length < REGULAR_MAX_SHOTS ? [...shots, shot] : shots;
};

/** Auto Capture stops by itself at its 10th good shot (referred frames do not count). */
export const autoCaptureComplete = (shots: ReadonlyArray<CapturedShot>) => goodShotCount(shots) >= AUTO_CAPTURE_SHOTS;

/** Enough shots to upload: at least the minimum for who is capturing. */
export const enoughShots = (count: number, role: UserType | null | undefined) => count >= minGoodShots(role);

/**
 * The shots first selected for upload: the good ones, the referred ones (flagged; the server measures
 * them again and the review console lists them apart) and those not judged yet; all when none is.
 */
export const defaultSelection = (shots: ReadonlyArray<CapturedShot>): ReadonlyArray<string> => {
  const kept = shots.filter((s) => s.verdict !== "retake");
  return (kept.length > 0 ? kept : shots).map((s) => s.id);
};

// Millimetres from the sticker, corrected for where the sticker sits.
//
// The sticker lies on top of the vault; the outline that CI and CVAI measure is the widest
// horizontal section, some centimetres lower, so farther from the camera and smaller in the photo.
// Scaling the section by the sticker alone makes it too small by D / (D + h), where D is the
// camera's distance to the sticker and h the sticker's height above the section.
//
// Camera-distance model (stated, not measured from the photo): the phone is held
// CAMERA_TO_STICKER_MM above the sticker. h comes from the head's own shape: the vault rises
// VAULT_HEIGHT_SHARE of the head's half-length above its widest section. Both are constants of the
// model, not of a photo; docs/adr/0038-cva-in-mm-corrected-for-the-stickers-height.md gives the
// error they leave (for D between 250 and 550 mm the scale is within 9 % of the true one).

/** The phone's distance above the sticker that the correction assumes, in mm. */
export const CAMERA_TO_STICKER_MM = 400;
/** Height of the vault above its widest section, as a share of the section's half-length. */
export const VAULT_HEIGHT_SHARE = 0.8;

export interface SectionScaleOptions {
  readonly cameraToStickerMm?: number;
  readonly vaultHeightShare?: number;
}

/**
 * Millimetres per photo pixel at the widest section, or null without a sticker (never guessed).
 * With s0 = stickerMm / stickerPx (mm per pixel at the sticker) and the section's length L px,
 * the section lies h = k (L s / 2) below the sticker, where s is the scale sought:
 * s = s0 (D + h) / D, so s = s0 / (1 - s0 k L / (2 D)).
 */
export const sectionMillimetresPerPixel = (
  stickerDiameterPx: number | null,
  stickerDiameterMm: number,
  sectionLengthPx: number,
  options: SectionScaleOptions = {},
): number | null => {
  if (stickerDiameterPx === null || !(stickerDiameterPx > 0) || !(sectionLengthPx > 0)) return null;
  const atSticker = stickerDiameterMm / stickerDiameterPx;
  const distance = options.cameraToStickerMm ?? CAMERA_TO_STICKER_MM;
  const share = options.vaultHeightShare ?? VAULT_HEIGHT_SHARE;
  const shrink = 1 - (atSticker * share * sectionLengthPx) / (2 * distance);
  // A head whose own height would reach past the camera is no head seen from a phone: no scale.
  return shrink > 0.5 ? atSticker / shrink : null;
};

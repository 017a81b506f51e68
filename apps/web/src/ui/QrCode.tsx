import QRCode from "qrcode";
import { useMemo } from "react";

/** Modules of quiet zone around the code: the QR standard asks for 4, and scanners need them. */
const QR_QUIET_ZONE = 4;

/**
 * A QR code drawn as one SVG path of its dark modules on white (always dark on light, whatever the
 * page's theme: the kiosk's decoder and phone cameras do not try inverted codes).
 */
export function QrCode({ text, label, testId }: { readonly text: string; readonly label: string; readonly testId?: string }) {
  const { size, path } = useMemo(() => {
    // Level M survives a glare spot on a phone screen and keeps a long address at a readable density.
    const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
    let d = "";
    for (let y = 0; y < modules.size; y++) {
      for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) d += `M${x + QR_QUIET_ZONE} ${y + QR_QUIET_ZONE}h1v1h-1z`;
    }
    return { size: modules.size + 2 * QR_QUIET_ZONE, path: d };
  }, [text]);
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width="280" height="280" shapeRendering="crispEdges" data-testid={testId}>
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

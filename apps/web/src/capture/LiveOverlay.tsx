import type { JudgedFrame } from "@crown/inference/web";

/** The live outline over the preview: head contour, nose tip and sticker, in the analysed frame's pixels. */
export function LiveOverlay({ overlay }: { overlay: JudgedFrame | null }) {
  if (!overlay) return null;
  const { analysis: a, width, height } = overlay;
  const stroke = a.accepted ? "#22c55e" : "#f97316";
  return (
    <svg className="live-overlay" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="xMidYMid meet" aria-hidden="true">
      {a.outline.length > 2 ? <polygon points={a.outline.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke={stroke} strokeWidth={Math.max(2, width / 200)} /> : null}
      {a.noseTip ? <circle cx={a.noseTip.x} cy={a.noseTip.y} r={Math.max(4, width / 120)} fill={stroke} /> : null}
      {a.centre && a.noseTip ? <line x1={a.centre.x} y1={a.centre.y} x2={a.noseTip.x} y2={a.noseTip.y} stroke={stroke} strokeDasharray="6 4" strokeWidth={Math.max(1.5, width / 320)} /> : null}
      {a.sticker ? <circle cx={a.sticker.centre.x} cy={a.sticker.centre.y} r={a.sticker.radius} fill="none" stroke="#38bdf8" strokeWidth={2} /> : null}
    </svg>
  );
}

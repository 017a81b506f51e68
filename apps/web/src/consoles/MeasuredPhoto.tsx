import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { attachmentBlob, blobUrl } from "../reporting/api.ts";
import type { Overlay, Point, ReviewAttachment } from "./api.ts";

/** The photo with its outline, AP axis, width and diagonals as SVG; the nose tip can be dragged (or moved with the arrow keys). */
export function MeasuredPhoto({ a, disabled, onNose }: { a: ReviewAttachment; disabled: boolean; onNose: (p: Point) => Promise<void> }) {
  const { t } = useTranslation("review");
  const [src, setSrc] = useState<string | null>(null);
  const o: Overlay | null = a.measurement?.overlay ?? null;
  const [nose, setNose] = useState<Point | null>(o?.noseTip ?? null);
  const svgRef = useRef<SVGSVGElement>(null);
  const dragging = useRef(false);
  const keyTimer = useRef<number | undefined>(undefined);
  useEffect(() => setNose(o?.noseTip ?? null), [o?.noseTip?.x, o?.noseTip?.y]);
  useEffect(() => {
    blobUrl(attachmentBlob(a), `file:${a.report_identifier}:${a.identifier}`)
      .then(setSrc)
      .catch(() => setSrc(null));
  }, [a.identifier]);
  const toSvg = (e: React.PointerEvent): Point | null => {
    const svg = svgRef.current;
    const m = svg?.getScreenCTM();
    if (!svg || !m) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  };
  const w = o?.imageWidth ?? 640;
  const h = o?.imageHeight ?? 480;
  const sw = Math.max(2, w / 250);
  const line = (s: readonly [Point, Point] | null | undefined, color: string, what: string) =>
    s ? <line x1={s[0].x} y1={s[0].y} x2={s[1].x} y2={s[1].y} stroke={color} strokeWidth={sw} data-measure={what} /> : null;
  return (
    <div className="measured-photo">
      {src ? <img src={src} alt={t("photo.alt", { name: a.file_name })} /> : <div className="thumb-loading" />}
      {o ? (
        <svg
          ref={svgRef}
          className="measure-overlay"
          viewBox={`0 0 ${w} ${h}`}
          preserveAspectRatio="xMidYMid meet"
          onPointerDown={(e) => {
            // No nose found by the model: the reviewer places it with a click on the photo.
            if (disabled || nose || o.outline.length < 3) return;
            const p = toSvg(e);
            if (!p) return;
            setNose(p);
            void onNose(p);
          }}
          onPointerMove={(e) => {
            if (!dragging.current) return;
            const p = toSvg(e);
            if (p) setNose(p);
          }}
          onPointerUp={() => {
            if (!dragging.current) return;
            dragging.current = false;
            if (nose) void onNose(nose);
          }}
        >
          {o.outline.length > 2 ? <polygon points={o.outline.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke="#22c55e" strokeWidth={sw} /> : null}
          {line(o.lengthEnds, "#f59e0b", "Length on the AP axis")}
          {line(o.widthEnds, "#38bdf8", "Width")}
          {line(o.diagonals?.endpoints.a, "#e11d48", "Diagonal A")}
          {line(o.diagonals?.endpoints.b, "#a855f7", "Diagonal B")}
          {o.centre ? <circle cx={o.centre.x} cy={o.centre.y} r={sw * 1.5} fill="#f59e0b" /> : null}
          {o.sticker ? <circle cx={o.sticker.centre.x} cy={o.sticker.centre.y} r={o.sticker.radius} fill="none" stroke="#38bdf8" strokeDasharray="4 3" strokeWidth={sw / 2} /> : null}
          {nose ? (
            <circle
              className="nose-handle"
              cx={nose.x}
              cy={nose.y}
              r={Math.max(7, w / 70)}
              tabIndex={disabled ? -1 : 0}
              role="button"
              aria-label={t("photo.noseHandle", { x: Math.round(nose.x), y: Math.round(nose.y) })}
              onPointerDown={(e) => {
                if (disabled) return;
                dragging.current = true;
                (e.target as Element).setPointerCapture?.(e.pointerId);
              }}
              onKeyDown={(e) => {
                if (disabled) return;
                const d = e.shiftKey ? 10 : 2;
                const move: Record<string, Point> = { ArrowLeft: { x: -d, y: 0 }, ArrowRight: { x: d, y: 0 }, ArrowUp: { x: 0, y: -d }, ArrowDown: { x: 0, y: d } };
                const m = move[e.key];
                if (!m) return;
                e.preventDefault();
                const next = { x: nose.x + m.x, y: nose.y + m.y };
                setNose(next);
                window.clearTimeout(keyTimer.current);
                keyTimer.current = window.setTimeout(() => void onNose(next), 700);
              }}
            />
          ) : null}
        </svg>
      ) : null}
      {o && !nose && o.outline.length > 2 && !disabled ? <p className="place-hint">{t("photo.placeNose")}</p> : null}
    </div>
  );
}

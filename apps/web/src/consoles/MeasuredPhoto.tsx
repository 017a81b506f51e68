import { useEffect, useRef, useState } from "react";
import { Button, ToggleButton } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { addHandle, handlesOf, moveHandle, redrawStretch, remeasure, removeHandle, startingOutline, thinPath } from "@crown/core/measurement/correction";
import { OVERLAY_STYLES, type OverlayMark } from "@crown/core/measurement/overlay-legend";
import { number } from "../i18n/dates.ts";
import { attachmentBlob, blobUrl } from "../reporting/api.ts";
import type { Overlay, Point, ReviewAttachment } from "./api.ts";

/** What the card does with a reviewer's change: each is kept by the server, which re-measures with the same geometry. */
export interface OutlineEdits {
  readonly onNose: (p: Point) => Promise<void>;
  readonly onOutline: (outline: ReadonlyArray<Point>, nose: Point | null) => Promise<void>;
  readonly onReset: () => Promise<void>;
}

const KEY_STEPS: Record<string, Point> = { ArrowLeft: { x: -1, y: 0 }, ArrowRight: { x: 1, y: 0 }, ArrowUp: { x: 0, y: -1 }, ArrowDown: { x: 0, y: 1 } };
/** Keyboard moves are kept once the keys rest this long (one re-measure per burst, not per press). */
const KEY_SETTLE_MS = 700;

const samePoints = (a: ReadonlyArray<Point>, b: ReadonlyArray<Point>) => a.length === b.length && a.every((p, i) => p.x === b[i]!.x && p.y === b[i]!.y);
const one = (v: number | null | undefined) => (v === null || v === undefined ? "—" : number(v, 1));

/**
 * The photo with its outline, AP axis, width and diagonals as SVG. While the report is in review the
 * reviewer corrects it: drags the nose tip and the outline's points (or moves them with the arrow
 * keys), adds or removes a point, redraws a stretch with the pointer, or resets to the model's
 * outline; the figures are re-measured in the browser with core's geometry as the reviewer works,
 * beside the model's, and the server keeps each change.
 */
export function MeasuredPhoto({ a, disabled, stickerMm, edits }: { a: ReviewAttachment; disabled: boolean; stickerMm: number; edits: OutlineEdits }) {
  const { t } = useTranslation("review");
  const [src, setSrc] = useState<string | null>(null);
  const m = a.measurement;
  const o: Overlay | null = m?.overlay ?? null;
  const [outline, setOutline] = useState<Point[]>(o ? [...o.outline] : []);
  const [handles, setHandles] = useState<number[]>(o ? handlesOf(o.outline) : []);
  const [nose, setNose] = useState<Point | null>(o?.noseTip ?? null);
  const [selected, setSelected] = useState(0);
  const [drawing, setDrawing] = useState(false);
  const [path, setPath] = useState<Point[] | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const dragging = useRef<{ kind: "nose" } | { kind: "point"; h: number } | null>(null);
  const keyTimer = useRef<number | undefined>(undefined);
  const handleRefs = useRef<Array<SVGCircleElement | null>>([]);
  // The server's outline replaces the local one only when it differs (a reset, another reviewer): the handles stay put otherwise.
  useEffect(() => {
    if (!o || dragging.current) return;
    if (!samePoints(o.outline, outline)) {
      setOutline([...o.outline]);
      setHandles(handlesOf(o.outline));
    }
    setNose(o.noseTip ?? null);
  }, [o]);
  useEffect(() => {
    blobUrl(attachmentBlob(a), `file:${a.report_identifier}:${a.identifier}`)
      .then(setSrc)
      .catch(() => setSrc(null));
  }, [a.identifier]);
  const toSvg = (e: React.PointerEvent): Point | null => {
    const svg = svgRef.current;
    const ctm = svg?.getScreenCTM();
    if (!svg || !ctm) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return { x: p.x, y: p.y };
  };
  const w = o?.imageWidth ?? 640;
  const h = o?.imageHeight ?? 480;
  const sw = Math.max(2, w / 250);
  const corrected = Boolean(m?.model_answer);
  const live = remeasure(outline, nose, o?.sticker ?? null, stickerMm);
  const saveOutline = (next: ReadonlyArray<Point>) => void edits.onOutline(next, nose);
  // Each mark in its colour from core's legend, the one the PDF draws with (issue 46).
  const line = (s: readonly [Point, Point] | null | undefined, mark: OverlayMark, what: string) =>
    s ? (
      <line
        x1={s[0].x}
        y1={s[0].y}
        x2={s[1].x}
        y2={s[1].y}
        stroke={OVERLAY_STYLES[mark].colour}
        strokeWidth={sw}
        strokeDasharray={OVERLAY_STYLES[mark].dashed ? `${sw * 3} ${sw * 2}` : undefined}
        data-measure={what}
        data-mark={mark}
      />
    ) : null;
  const head = live?.head;
  const editing = !disabled && o !== null;

  const moveBy = (h: number, step: Point, size: number) => {
    const at = outline[handles[h]!]!;
    const next = moveHandle(outline, handles, h, { x: at.x + step.x * size, y: at.y + step.y * size });
    setOutline(next);
    window.clearTimeout(keyTimer.current);
    keyTimer.current = window.setTimeout(() => saveOutline(next), KEY_SETTLE_MS);
  };
  const add = (h: number) => {
    const r = addHandle(outline, handles, h);
    setOutline(r.outline);
    setHandles(r.handles);
    setSelected(h + 1);
    saveOutline(r.outline);
    window.setTimeout(() => handleRefs.current[h + 1]?.focus(), 0);
  };
  const remove = (h: number) => {
    const r = removeHandle(outline, handles, h);
    if (r.handles.length === handles.length) return;
    setOutline(r.outline);
    setHandles(r.handles);
    const next = Math.min(h, r.handles.length - 1);
    setSelected(next);
    saveOutline(r.outline);
    window.setTimeout(() => handleRefs.current[next]?.focus(), 0);
  };
  const start = () => {
    const next = startingOutline({ width: w, height: h });
    setOutline(next);
    setHandles(handlesOf(next));
    saveOutline(next);
  };
  const r = Math.max(6, w / 90);
  return (
    <div className="measured-photo-block">
      <div className="measured-photo">
        {src ? <img src={src} alt={t("photo.alt", { name: a.file_name })} /> : <div className="thumb-loading" />}
        {o ? (
          <svg
            ref={svgRef}
            className={`measure-overlay${drawing ? " drawing" : ""}`}
            viewBox={`0 0 ${w} ${h}`}
            preserveAspectRatio="xMidYMid meet"
            onPointerDown={(e) => {
              if (!editing) return;
              const p = toSvg(e);
              if (!p) return;
              if (drawing) {
                (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
                setPath([p]);
                return;
              }
              // No nose found by the model: the reviewer places it with a click on the photo.
              if (nose || outline.length < 3) return;
              setNose(p);
              void edits.onNose(p);
            }}
            onPointerMove={(e) => {
              const p = toSvg(e);
              if (!p) return;
              if (path) {
                setPath([...path, p]);
                return;
              }
              const d = dragging.current;
              if (d?.kind === "nose") setNose(p);
              else if (d?.kind === "point") setOutline((current) => moveHandle(current, handles, d.h, p));
            }}
            onPointerUp={() => {
              if (path) {
                const drawn = thinPath(path, Math.max(2, w / 200));
                setPath(null);
                if (drawn.length >= 2) {
                  const next = redrawStretch(outline, drawn);
                  setOutline(next);
                  setHandles(handlesOf(next));
                  saveOutline(next);
                }
                return;
              }
              const d = dragging.current;
              dragging.current = null;
              if (d?.kind === "nose" && nose) void edits.onNose(nose);
              if (d?.kind === "point") saveOutline(outline);
            }}
          >
            {corrected && m?.model_answer?.overlay.outline.length ? (
              <polygon className="model-outline" points={m.model_answer.overlay.outline.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke="#e5e7eb" strokeDasharray="6 4" strokeWidth={sw / 2} />
            ) : null}
            {outline.length > 2 ? <polygon points={outline.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke={OVERLAY_STYLES.outline.colour} strokeWidth={sw} data-measure="Outline" data-mark="outline" /> : null}
            {line(head?.lengthEnds, "length", "Length on the AP axis")}
            {line(head?.widthEnds, "width", "Width")}
            {line(head?.diagonals.endpoints.a, "diagonalA", "Diagonal A")}
            {line(head?.diagonals.endpoints.b, "diagonalB", "Diagonal B")}
            {head ? <circle cx={head.centre.x} cy={head.centre.y} r={sw * 1.5} fill={OVERLAY_STYLES.centre.colour} stroke="#fff" strokeWidth={sw / 2} data-mark="centre" /> : null}
            {o.sticker ? <circle cx={o.sticker.centre.x} cy={o.sticker.centre.y} r={o.sticker.radius} fill="none" stroke={OVERLAY_STYLES.sticker.colour} strokeDasharray="4 3" strokeWidth={sw / 2} data-mark="sticker" /> : null}
            {path ? <polyline points={path.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke="#facc15" strokeWidth={sw} /> : null}
            {/* The nose comes first where the model found none: a click places it, so no handle may catch that click. */}
            {editing && !drawing && nose
              ? handles.map((index, k) => {
                  const p = outline[index];
                  if (!p) return null;
                  return (
                    <circle
                      key={k}
                      ref={(el) => void (handleRefs.current[k] = el)}
                      className={`outline-handle${k === selected ? " selected" : ""}`}
                      cx={p.x}
                      cy={p.y}
                      r={r}
                      tabIndex={0}
                      role="button"
                      aria-label={t("photo.outline.handle", { n: k + 1, count: handles.length, x: Math.round(p.x), y: Math.round(p.y) })}
                      onFocus={() => setSelected(k)}
                      onPointerDown={(e) => {
                        e.stopPropagation();
                        setSelected(k);
                        dragging.current = { kind: "point", h: k };
                        svgRef.current?.setPointerCapture?.(e.pointerId);
                      }}
                      onKeyDown={(e) => {
                        const step = KEY_STEPS[e.key];
                        if (step) {
                          e.preventDefault();
                          moveBy(k, step, e.shiftKey ? 10 : 2);
                        } else if (e.key === "Insert" || e.key === "+") {
                          e.preventDefault();
                          add(k);
                        } else if (e.key === "Delete" || e.key === "Backspace") {
                          e.preventDefault();
                          remove(k);
                        }
                      }}
                    />
                  );
                })
              : null}
            {nose ? (
              <circle
                className="nose-handle"
                data-mark="noseTip"
                fill={OVERLAY_STYLES.noseTip.colour}
                cx={nose.x}
                cy={nose.y}
                r={Math.max(7, w / 70)}
                tabIndex={disabled ? -1 : 0}
                role="button"
                aria-label={t("photo.noseHandle", { x: Math.round(nose.x), y: Math.round(nose.y) })}
                onPointerDown={(e) => {
                  if (disabled || drawing) return;
                  e.stopPropagation();
                  dragging.current = { kind: "nose" };
                  svgRef.current?.setPointerCapture?.(e.pointerId);
                }}
                onKeyDown={(e) => {
                  if (disabled) return;
                  const step = KEY_STEPS[e.key];
                  if (!step) return;
                  e.preventDefault();
                  const d = e.shiftKey ? 10 : 2;
                  const next = { x: nose.x + step.x * d, y: nose.y + step.y * d };
                  setNose(next);
                  window.clearTimeout(keyTimer.current);
                  keyTimer.current = window.setTimeout(() => void edits.onNose(next), KEY_SETTLE_MS);
                }}
              />
            ) : null}
          </svg>
        ) : null}
        {o && !nose && outline.length > 2 && editing && !drawing ? <p className="place-hint">{t("photo.placeNose")}</p> : null}
        {drawing ? <p className="place-hint">{t("photo.outline.redrawHint")}</p> : null}
      </div>
      <dl className="figures-compare" aria-label={t("photo.outline.figures", { name: a.file_name })} aria-live="polite">
        <div>
          <dt>{corrected || !samePoints(outline, o?.outline ?? []) ? t("photo.outline.yours") : t("photo.outline.model")}</dt>
          <dd data-figures="current">
            {t("photo.figures", { ci: one(live?.ci ?? m?.ci), cvai: one(live?.cvai ?? m?.cvai) })}
            {(live?.cvaMm ?? m?.cva_mm) != null ? ` · ${t("photo.cva", { mm: one(live?.cvaMm ?? m?.cva_mm) })}` : ""}
          </dd>
        </div>
        {m?.model_answer ? (
          <div>
            <dt>{t("photo.outline.model")}</dt>
            <dd data-figures="model">
              {t("photo.figures", { ci: one(m.model_answer.ci), cvai: one(m.model_answer.cvai) })}
              {m.model_answer.cva_mm !== null ? ` · ${t("photo.cva", { mm: one(m.model_answer.cva_mm) })}` : ""}
            </dd>
          </div>
        ) : null}
      </dl>
      {editing ? (
        <div className="outline-tools" role="group" aria-label={t("photo.outline.tools", { name: a.file_name })}>
          {outline.length < 3 ? (
            <Button className="btn btn-sm btn-secondary" onPress={start}>
              {t("photo.outline.start")}
            </Button>
          ) : (
            <>
              <Button className="btn btn-sm btn-secondary" onPress={() => add(selected)} aria-label={t("photo.outline.addLabel", { n: selected + 1 })}>
                {t("photo.outline.add")}
              </Button>
              <Button className="btn btn-sm btn-secondary" isDisabled={handles.length <= 6} onPress={() => remove(selected)} aria-label={t("photo.outline.removeLabel", { n: selected + 1 })}>
                {t("photo.outline.remove")}
              </Button>
            </>
          )}
          <ToggleButton className="btn btn-sm btn-secondary" isSelected={drawing} onChange={setDrawing}>
            {t("photo.outline.redraw")}
          </ToggleButton>
          <Button className="btn btn-sm btn-secondary" isDisabled={!corrected} onPress={() => void edits.onReset()}>
            {t("photo.outline.reset")}
          </Button>
        </div>
      ) : null}
      {corrected ? <p className="muted small">{t("photo.outline.modelOutline")}</p> : null}
    </div>
  );
}

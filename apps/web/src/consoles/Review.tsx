import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Link, useParams } from "react-router-dom";
import { messageOf, requestBlob } from "../api/client.ts";
import { attachmentPath, blobUrl, formatUsDate } from "../reporting/api.ts";
import { Pager } from "../reporting/listing.tsx";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { fig, ReviewFigures } from "./ReviewFigures.tsx";
import { usePagedRows } from "./usePagedRows.ts";
import {
  decide,
  moveNose,
  type Overlay,
  type Point,
  publish,
  type QueueItem,
  recapture,
  reopen,
  type ReviewAttachment,
  type ReviewDetail,
  reviewDetail,
  reviewQueue,
  saveNote,
  type Summary,
} from "./api.ts";


function NotReviewer() {
  return <FormMessage tone="error">The review console is for Crown's reviewers.</FormMessage>;
}

/** /review: reports waiting for review, oldest first. */
export function ReviewQueue() {
  const session = useSession();
  const { page, setPage, rows, lastPage, failure } = usePagedRows<QueueItem>(session?.userRole === "reviewer" ? reviewQueue : null);
  const error = failure ? messageOf(failure) : null;
  if (session?.userRole !== "reviewer") return <NotReviewer />;
  return (
    <section className="panel" aria-labelledby="page-title">
      <h1 id="page-title">Review queue</h1>
      <p className="card-subtitle">Reports waiting for a reviewer, oldest first.</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">No reports are waiting for review.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Baby</th>
                <th scope="col">Age</th>
                <th scope="col">Submitted</th>
                <th scope="col">Status</th>
                <th scope="col">CI</th>
                <th scope="col">CVAI</th>
                <th scope="col">Previous</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.report_identifier}>
                  <td>
                    <Link to={`/review/${r.report_identifier}`}>{r.baby_name}</Link>
                  </td>
                  <td>{r.baby_age ?? ""}</td>
                  <td>{formatUsDate(r.submitted_at)}</td>
                  <td>{r.status.replace(/_/g, " ")}</td>
                  <td>{fig(r.summary?.ci)}</td>
                  <td>{fig(r.summary?.cvai)}</td>
                  <td>{r.previous_results.length ? r.previous_results.map((p) => `${formatUsDate(p.captured_at)}: CI ${p.ci ?? "—"}, CVAI ${p.cvai ?? "—"}`).join("; ") : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label="Queue pages" />
    </section>
  );
}

/** The photo with its outline, AP axis, width and diagonals as SVG; the nose tip can be dragged (or moved with the arrow keys). */
function MeasuredPhoto({ a, disabled, onNose }: { a: ReviewAttachment; disabled: boolean; onNose: (p: Point) => Promise<void> }) {
  const [src, setSrc] = useState<string | null>(null);
  const o: Overlay | null = a.measurement?.overlay ?? null;
  const [nose, setNose] = useState<Point | null>(o?.noseTip ?? null);
  const svgRef = useRef<SVGSVGElement>(null);
  const dragging = useRef(false);
  const keyTimer = useRef<number | undefined>(undefined);
  useEffect(() => setNose(o?.noseTip ?? null), [o?.noseTip?.x, o?.noseTip?.y]);
  useEffect(() => {
    blobUrl(attachmentPath(a), `file:${a.report_identifier}:${a.identifier}`)
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
      {src ? <img src={src} alt={`Photo ${a.file_name}`} /> : <div className="thumb-loading" />}
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
              aria-label={`Nose tip at ${Math.round(nose.x)}, ${Math.round(nose.y)}: drag it, or use the arrow keys, to re-measure`}
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
      {o && !nose && o.outline.length > 2 && !disabled ? <p className="place-hint">No nose tip was found: click the tip of the nose to place it.</p> : null}
    </div>
  );
}

function PhotoCard({ a, reportId, editable, onChanged }: { a: ReviewAttachment; reportId: string; editable: boolean; onChanged: (s: Summary | null) => void }) {
  const [m, setM] = useState(a.measurement);
  const [busy, setBusy] = useState(false);
  useEffect(() => setM(a.measurement), [a.measurement]);
  if (a.file_type === "video") return null;
  const decision = m?.decision ?? (m?.automatic.accepted ? "accepted" : "rejected");
  const act = async (d: "accept" | "reject") => {
    setBusy(true);
    try {
      const r = await decide(reportId, a.identifier, d);
      setM((x) => (x ? { ...x, decision: d === "accept" ? "accepted" : "rejected" } : x));
      onChanged(r.results);
    } catch (e) {
      toast(messageOf(e), "error");
    } finally {
      setBusy(false);
    }
  };
  const nose = async (p: Point) => {
    try {
      const r = await moveNose(reportId, a.identifier, p);
      setM(r.results.measurement);
      onChanged(r.results.summary);
      toast("Nose tip corrected and photo re-measured", "success");
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  return (
    <li className={`review-card ${decision}`}>
      <MeasuredPhoto a={{ ...a, measurement: m }} disabled={!editable} onNose={nose} />
      <div className="review-meta">
        <strong>{a.kind === "frame" ? `Video frame${a.frame_time !== null ? ` at ${a.frame_time.toFixed(1)} s` : ""}` : a.file_name}</strong>
        <span>
          CI {m?.ci?.toFixed(1) ?? "—"} · CVAI {m?.cvai?.toFixed(1) ?? "—"}
          {m?.cva_mm !== null && m?.cva_mm !== undefined ? ` · CVA ${m.cva_mm.toFixed(1)} mm` : ""}
        </span>
        <span className="muted small">
          Automatic: {m?.automatic.accepted ? "accepted" : `${m?.automatic.verdict === "refer" ? "unsure, referred to you" : "rejected"}${m?.automatic.reasons.length ? ` (${m.automatic.reasons.join("; ")})` : ""}`}
          {m?.nose_corrected ? " · nose corrected" : ""}
          {m?.error ? ` · ${m.error}` : ""}
        </span>
        <span className="pill">{`${decision === "accepted" ? "Accepted" : "Rejected"}${m?.decision ? "" : " automatically"}`}</span>
        {editable ? (
          <div className="page-actions">
            <Button className="btn btn-sm btn-primary" isDisabled={busy || m?.decision === "accepted"} onPress={() => void act("accept")} aria-label={`Accept ${a.file_name}`}>
              Accept
            </Button>
            <Button className="btn btn-sm btn-secondary" isDisabled={busy || m?.decision === "rejected"} onPress={() => void act("reject")} aria-label={`Reject ${a.file_name}`}>
              Reject
            </Button>
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** /review/:id: every photo with its overlay, decisions, the nose tip, notes, publish or recapture, and the PDF. */
export function ReviewReport() {
  const { id = "" } = useParams();
  const session = useSession();
  const [d, setD] = useState<ReviewDetail | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [note, setNote] = useState("");
  const [reasons, setReasons] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = () =>
    reviewDetail(id)
      .then((r) => {
        setD(r.results);
        setSummary(r.results.summary);
        setNote(r.results.note ?? "");
      })
      .catch((e) => setError(messageOf(e)));
  useEffect(() => {
    if (session?.userRole === "reviewer") void load();
  }, [id]);
  if (session?.userRole !== "reviewer") return <NotReviewer />;
  if (error) return <FormMessage tone="error">{error}</FormMessage>;
  if (!d) return <PageSpinner />;
  const editable = d.status === "analyzed" || d.status === "in_review";
  const run = async (what: () => Promise<unknown>, ok: string) => {
    setBusy(true);
    try {
      await what();
      toast(ok, "success");
      await load();
    } catch (e) {
      toast(messageOf(e), "error");
    } finally {
      setBusy(false);
    }
  };
  /** Opens a PDF from the API in a new tab (the call carries the session; a plain link would not). */
  const openPdf = async (path: string) => {
    try {
      const blob = await requestBlob(path);
      window.open(URL.createObjectURL(blob), "_blank", "noopener");
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  // While in review: rendered now from the current state, never stored. Once published: the stored version.
  const preview = () => openPdf(`/review/report/${encodeURIComponent(d.report_identifier)}/preview`);
  const published = () => openPdf(`/report/${encodeURIComponent(d.report_identifier)}/download`);
  const photos = d.attachments.filter((a) => a.file_type === "image");
  // Photos the automatic check was unsure about come first, apart: they wait for the reviewer's eye.
  const referred = photos.filter((a) => a.measurement?.automatic.verdict === "refer");
  const judged = photos.filter((a) => a.measurement?.automatic.verdict !== "refer");
  const videos = d.attachments.filter((a) => a.file_type === "video");
  return (
    <div className="review-page">
      <p>
        <Link to="/review">← Review queue</Link>
      </p>
      <section className="panel" aria-labelledby="page-title">
        <h1 id="page-title">
          {d.baby_name} <span className="muted small">({d.baby_age ?? "age unknown"})</span>
        </h1>
        <p>
          Status: <strong>{d.status.replace(/_/g, " ")}</strong> · submitted {formatUsDate(d.submitted_at)} · round {d.round} · version {d.version}
        </p>
        <ReviewFigures summary={summary} />
        {summary?.problems.length ? <FormMessage tone="info">{summary.problems.join(" ")}</FormMessage> : null}
        {d.previous_results.length ? (
          <p className="muted small">Previous: {d.previous_results.map((p) => `${formatUsDate(p.captured_at)} CI ${p.ci ?? "—"} CVAI ${p.cvai ?? "—"}`).join("; ")}</p>
        ) : null}
        <p className="muted small legend">
          <span className="sw sw-green" /> outline <span className="sw sw-amber" /> AP length <span className="sw sw-blue" /> width <span className="sw sw-red" /> diagonal A{" "}
          <span className="sw sw-purple" /> diagonal B
        </p>
      </section>
      {referred.length ? (
        <section aria-labelledby="referred-title">
          <h2 id="referred-title">Referred to you ({referred.length}): the automatic check was unsure</h2>
          <ul className="review-grid">
            {referred.map((a) => (
              <PhotoCard key={a.identifier} a={a} reportId={d.report_identifier} editable={editable && !busy} onChanged={setSummary} />
            ))}
          </ul>
        </section>
      ) : null}
      <ul className="review-grid">
        {judged.map((a) => (
          <PhotoCard key={a.identifier} a={a} reportId={d.report_identifier} editable={editable && !busy} onChanged={setSummary} />
        ))}
      </ul>
      {videos.length ? <p className="muted">Videos: {videos.map((v) => v.file_name).join(", ")} (their frames are shown above).</p> : null}
      <section className="panel review-actions" aria-labelledby="decide-title">
        <h2 id="decide-title">Decision</h2>
        <div className="field">
          <label htmlFor="review-note">Reviewer's note</label>
          <textarea id="review-note" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={2000} readOnly={!editable} />
        </div>
        {editable ? (
          <>
            <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void run(() => saveNote(d.report_identifier, note), "Note saved")}>
              Save note
            </Button>
            <fieldset className="reasons">
              <legend>Recapture reasons</legend>
              {d.recapture_reason_options.map((r) => (
                <label key={r} className="filter-check">
                  <input
                    type="checkbox"
                    checked={reasons.has(r)}
                    onChange={() =>
                      setReasons((s) => {
                        const n = new Set(s);
                        if (n.has(r)) n.delete(r);
                        else n.add(r);
                        return n;
                      })
                    }
                  />
                  {r}
                </label>
              ))}
            </fieldset>
            <div className="page-actions">
              <Button className="btn btn-primary" isDisabled={busy} onPress={() => void run(() => publish(d.report_identifier), "Report published successfully")}>
                Publish
              </Button>
              <Button className="btn btn-secondary" isDisabled={busy || reasons.size === 0} onPress={() => void run(() => recapture(d.report_identifier, [...reasons], note), "Recapture requested successfully")}>
                Request recapture
              </Button>
            </div>
          </>
        ) : (
          <div className="page-actions">
            {d.status === "published" ? (
              <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void run(() => reopen(d.report_identifier), "Report reopened for review")}>
                Reopen for correction
              </Button>
            ) : null}
          </div>
        )}
        {editable ? (
          <p>
            <Button className="btn btn-ghost" isDisabled={busy} onPress={() => void preview()}>
              Preview the PDF
            </Button>{" "}
            <span className="muted small">As it would be published now (version {d.version + 1}); the preview is not stored.</span>
          </p>
        ) : null}
        {d.version > 0 && !editable ? (
          <Button className="btn btn-ghost" onPress={() => void published()}>
            Open the published PDF (version {d.version})
          </Button>
        ) : null}
      </section>
    </div>
  );
}

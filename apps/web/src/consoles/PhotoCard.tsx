import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { messageOf } from "../api/client.ts";
import { toast } from "../ui/toasts.tsx";
import { decide, moveNose, type Point, type ReviewAttachment, type Summary } from "./api.ts";
import { MeasuredPhoto } from "./MeasuredPhoto.tsx";

/** One photo or frame in review: its overlay, the automatic verdict, and the reviewer's accept or reject. */
export function PhotoCard({ a, reportId, editable, onChanged }: { a: ReviewAttachment; reportId: string; editable: boolean; onChanged: (s: Summary | null) => void }) {
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

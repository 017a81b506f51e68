import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { number } from "../i18n/dates.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { toast } from "../ui/toasts.tsx";
import { decide, moveNose, type Point, type ReviewAttachment, type Summary } from "./api.ts";
import { MeasuredPhoto } from "./MeasuredPhoto.tsx";

/** One photo or frame in review: its overlay, the automatic verdict, and the reviewer's accept or reject. */
export function PhotoCard({ a, reportId, editable, onChanged }: { a: ReviewAttachment; reportId: string; editable: boolean; onChanged: (s: Summary | null) => void }) {
  const { t } = useTranslation("review");
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
      toast(t("photo.noseMoved"), "success");
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const figure = (value: number | null | undefined) => (value === null || value === undefined ? "—" : number(value, 1));
  const verdict = m?.automatic.accepted
    ? t("photo.verdict.accepted")
    : `${m?.automatic.verdict === "refer" ? t("photo.verdict.refer") : t("photo.verdict.rejected")}${m?.automatic.reasons.length ? ` (${m.automatic.reasons.map(uiMessage).join("; ")})` : ""}`;
  const decided = decision === "accepted" ? (m?.decision ? "accepted" : "acceptedAutomatically") : m?.decision ? "rejected" : "rejectedAutomatically";
  return (
    <li className={`review-card ${decision}`}>
      <MeasuredPhoto a={{ ...a, measurement: m }} disabled={!editable} onNose={nose} />
      <div className="review-meta">
        <strong>{a.kind === "frame" ? (a.frame_time !== null ? t("photo.frameAt", { time: number(a.frame_time, 1) }) : t("photo.frame")) : a.file_name}</strong>
        <span>
          {t("photo.figures", { ci: figure(m?.ci), cvai: figure(m?.cvai) })}
          {m?.cva_mm !== null && m?.cva_mm !== undefined ? ` · ${t("photo.cva", { mm: number(m.cva_mm, 1) })}` : ""}
        </span>
        <span className="muted small">
          {t("photo.automatic")} {verdict}
          {m?.nose_corrected ? ` · ${t("photo.noseCorrected")}` : ""}
          {m?.error ? ` · ${m.error}` : ""}
        </span>
        <span className="pill">{t(`photo.decision.${decided}`)}</span>
        {editable ? (
          <div className="page-actions">
            <Button className="btn btn-sm btn-primary" isDisabled={busy || m?.decision === "accepted"} onPress={() => void act("accept")} aria-label={t("photo.acceptLabel", { name: a.file_name })}>
              {t("photo.accept")}
            </Button>
            <Button className="btn btn-sm btn-secondary" isDisabled={busy || m?.decision === "rejected"} onPress={() => void act("reject")} aria-label={t("photo.rejectLabel", { name: a.file_name })}>
              {t("photo.reject")}
            </Button>
          </div>
        ) : null}
      </div>
    </li>
  );
}

import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { number } from "../i18n/dates.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { toast } from "../ui/toasts.tsx";
import { correctOutline, decide, moveNose, type Point, resetOutline, type ReviewAttachment, type Summary } from "./api.ts";
import { MeasuredPhoto } from "./MeasuredPhoto.tsx";

/**
 * One photo or frame in review: its overlay (corrected here: nose tip and outline), the automatic
 * verdict, and the reviewer's accept or reject with one of the quiz's reasons.
 */
export function PhotoCard({
  a,
  reportId,
  editable,
  stickerMm,
  reasons,
  onChanged,
}: {
  a: ReviewAttachment;
  reportId: string;
  editable: boolean;
  stickerMm: number;
  reasons: ReadonlyArray<string>;
  onChanged: (s: Summary | null) => void;
}) {
  const { t } = useTranslation("review");
  const [m, setM] = useState(a.measurement);
  const [busy, setBusy] = useState(false);
  const [reason, setReason] = useState<string>(a.measurement?.decision_reason ?? a.measurement?.automatic.reasons.find((r) => reasons.includes(r)) ?? reasons[0] ?? "");
  // Corrections are kept one after another, in the order the reviewer made them.
  const queue = useRef<Promise<void>>(Promise.resolve());
  useEffect(() => setM(a.measurement), [a.measurement]);
  if (a.file_type === "video") return null;
  const decision = m?.decision ?? (m?.automatic.accepted ? "accepted" : "rejected");
  const act = async (d: "accept" | "reject") => {
    setBusy(true);
    try {
      const r = await decide(reportId, a.identifier, d, d === "reject" ? reason : undefined);
      setM((x) => (x ? { ...x, decision: d === "accept" ? "accepted" : "rejected", decision_reason: d === "reject" ? reason : null } : x));
      onChanged(r.results);
    } catch (e) {
      toast(messageOf(e), "error");
    } finally {
      setBusy(false);
    }
  };
  const keep = (call: () => Promise<{ results: { measurement: NonNullable<typeof m>; summary: Summary | null } }>, ok: string) => {
    const next = queue.current.then(async () => {
      try {
        const r = await call();
        setM(r.results.measurement);
        onChanged(r.results.summary);
        toast(ok, "success");
      } catch (e) {
        toast(messageOf(e), "error");
      }
    });
    queue.current = next;
    return next;
  };
  const edits = {
    onNose: (p: Point) => keep(() => moveNose(reportId, a.identifier, p), t("photo.noseMoved")),
    onOutline: (outline: ReadonlyArray<Point>, nose: Point | null) => keep(() => correctOutline(reportId, a.identifier, outline, nose), t("photo.outline.saved")),
    onReset: () => keep(() => resetOutline(reportId, a.identifier), t("photo.outline.resetDone")),
  };
  const verdict = m?.automatic.accepted
    ? t("photo.verdict.accepted")
    : `${m?.automatic.verdict === "refer" ? t("photo.verdict.refer") : t("photo.verdict.rejected")}${m?.automatic.reasons.length ? ` (${m.automatic.reasons.map(uiMessage).join("; ")})` : ""}`;
  const decided = decision === "accepted" ? (m?.decision ? "accepted" : "acceptedAutomatically") : m?.decision ? "rejected" : "rejectedAutomatically";
  const reasonId = `reject-reason-${a.identifier}`;
  return (
    <li className={`review-card ${decision}`}>
      <MeasuredPhoto a={{ ...a, measurement: m }} disabled={!editable} stickerMm={stickerMm} edits={edits} />
      <div className="review-meta">
        <strong>{a.kind === "frame" ? (a.frame_time !== null ? t("photo.frameAt", { time: number(a.frame_time, 1) }) : t("photo.frame")) : a.file_name}</strong>
        <span className="muted small">
          {t("photo.automatic")} {verdict}
          {m?.nose_corrected ? ` · ${t("photo.noseCorrected")}` : ""}
          {m?.outline_corrected ? ` · ${t("photo.outline.corrected")}` : ""}
          {m?.error ? ` · ${m.error}` : ""}
        </span>
        <span className="pill">
          {t(`photo.decision.${decided}`)}
          {m?.decision === "rejected" && m.decision_reason ? ` (${uiMessage(m.decision_reason)})` : ""}
        </span>
        {editable ? (
          <>
            <div className="field field-compact">
              <label htmlFor={reasonId}>{t("photo.rejectReason", { name: a.file_name })}</label>
              <select id={reasonId} value={reason} onChange={(e) => setReason(e.currentTarget.value)}>
                {reasons.map((r) => (
                  <option key={r} value={r}>
                    {uiMessage(r)}
                  </option>
                ))}
              </select>
            </div>
            <div className="page-actions">
              <Button className="btn btn-sm btn-primary" isDisabled={busy || m?.decision === "accepted"} onPress={() => void act("accept")} aria-label={t("photo.acceptLabel", { name: a.file_name })}>
                {t("photo.accept")}
              </Button>
              <Button className="btn btn-sm btn-secondary" isDisabled={busy || (m?.decision === "rejected" && m.decision_reason === reason)} onPress={() => void act("reject")} aria-label={t("photo.rejectLabel", { name: a.file_name })}>
                {t("photo.reject")}
              </Button>
            </div>
          </>
        ) : null}
      </div>
    </li>
  );
}

import { useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { reopenable, reviewable } from "@crown/core/report/lifecycle";
import { downloadReport } from "../reporting/api.ts";
import { previewPdf, publish, recapture, reopen, type ReviewDetail, saveNote } from "./api.ts";

/**
 * The decision panel: the note, publish or recapture while the report waits for review, reopen once
 * published, and the PDF. What is offered is the lifecycle's answer (core's report/lifecycle.ts), the
 * same one the server checks.
 */
export function ReviewDecision({
  d,
  note,
  onNote,
  busy,
  run,
  openPdf,
}: {
  d: ReviewDetail;
  note: string;
  onNote: (note: string) => void;
  busy: boolean;
  run: (what: () => Promise<unknown>, ok: string) => Promise<void>;
  openPdf: (pdf: () => Promise<Blob>) => Promise<void>;
}) {
  const { t } = useTranslation("review");
  const [reasons, setReasons] = useState<Set<string>>(new Set());
  const editable = reviewable(d.status);
  const toggle = (r: string) =>
    setReasons((s) => {
      const n = new Set(s);
      if (n.has(r)) n.delete(r);
      else n.add(r);
      return n;
    });
  // While in review: rendered now from the current state, never stored. Once published: the stored version.
  const preview = () => openPdf(() => previewPdf(d.report_identifier));
  const published = () => openPdf(() => downloadReport(d.report_identifier, false));
  return (
    <section className="panel review-actions" aria-labelledby="decide-title">
      <h2 id="decide-title">{t("decision.title")}</h2>
      <div className="field">
        <label htmlFor="review-note">{t("decision.note")}</label>
        <textarea id="review-note" value={note} onChange={(e) => onNote(e.currentTarget.value)} maxLength={2000} readOnly={!editable} />
      </div>
      {editable ? (
        <>
          <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void run(() => saveNote(d.report_identifier, note), t("decision.noteSaved"))}>
            {t("decision.saveNote")}
          </Button>
          <fieldset className="reasons">
            <legend>{t("decision.reasons")}</legend>
            {d.recapture_reason_options.map((r) => (
              <label key={r} className="filter-check">
                <input type="checkbox" checked={reasons.has(r)} onChange={() => toggle(r)} />
                {r}
              </label>
            ))}
          </fieldset>
          <div className="page-actions">
            <Button className="btn btn-primary" isDisabled={busy} onPress={() => void run(() => publish(d.report_identifier), t("decision.published"))}>
              {t("decision.publish")}
            </Button>
            <Button className="btn btn-secondary" isDisabled={busy || reasons.size === 0} onPress={() => void run(() => recapture(d.report_identifier, [...reasons], note), t("decision.recaptureRequested"))}>
              {t("decision.recapture")}
            </Button>
          </div>
        </>
      ) : (
        <div className="page-actions">
          {reopenable(d.status) ? (
            <Button className="btn btn-secondary" isDisabled={busy} onPress={() => void run(() => reopen(d.report_identifier), t("decision.reopened"))}>
              {t("decision.reopen")}
            </Button>
          ) : null}
        </div>
      )}
      {editable ? (
        <p>
          <Button className="btn btn-ghost" isDisabled={busy} onPress={() => void preview()}>
            {t("decision.preview")}
          </Button>{" "}
          <span className="muted small">{t("decision.previewNote", { version: d.version + 1 })}</span>
        </p>
      ) : null}
      {d.version > 0 && !editable ? (
        <Button className="btn btn-ghost" onPress={() => void published()}>
          {t("decision.openPublished", { version: d.version })}
        </Button>
      ) : null}
    </section>
  );
}

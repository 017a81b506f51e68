import { useState } from "react";
import { Button } from "react-aria-components";
import { reopenable, reviewable } from "@crown/core/report/lifecycle";
import { publish, recapture, reopen, type ReviewDetail, saveNote } from "./api.ts";

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
  openPdf: (path: string) => Promise<void>;
}) {
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
  const preview = () => openPdf(`/review/report/${encodeURIComponent(d.report_identifier)}/preview`);
  const published = () => openPdf(`/report/${encodeURIComponent(d.report_identifier)}/download`);
  return (
    <section className="panel review-actions" aria-labelledby="decide-title">
      <h2 id="decide-title">Decision</h2>
      <div className="field">
        <label htmlFor="review-note">Reviewer's note</label>
        <textarea id="review-note" value={note} onChange={(e) => onNote(e.currentTarget.value)} maxLength={2000} readOnly={!editable} />
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
                <input type="checkbox" checked={reasons.has(r)} onChange={() => toggle(r)} />
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
          {reopenable(d.status) ? (
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
  );
}

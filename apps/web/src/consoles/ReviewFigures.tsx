import type { Figure, Summary } from "./api.ts";

export const fig = (f: Figure | null | undefined) => (f && f.median !== null ? `${f.median.toFixed(1)} (${f.min?.toFixed(1)}–${f.max?.toFixed(1)}, n=${f.count})` : "—");

/**
 * The report's figures, and the flag when its photos disagree beyond measurement error (issue 22,
 * item 11): the server refuses to publish until each counted photo is accepted or rejected.
 */
export function ReviewFigures({ summary }: { summary: Summary | null }) {
  const unconfirmed = summary?.unconfirmed ?? 0;
  return (
    <>
      <dl className="summary-grid">
        <div>
          <dt>CI (median, range)</dt>
          <dd>{fig(summary?.ci)}</dd>
        </div>
        <div>
          <dt>CVAI (median, range)</dt>
          <dd>{fig(summary?.cvai)}</dd>
        </div>
        <div>
          <dt>CVA mm</dt>
          <dd>{fig(summary?.cva_mm)}</dd>
        </div>
        <div>
          <dt>Accepted photos</dt>
          <dd>{summary?.accepted ?? 0}</dd>
        </div>
      </dl>
      {summary?.photos_disagree ? (
        <div className="form-message agreement-flag" role="status">
          <strong>The accepted photos disagree</strong>
          <ul>
            {(summary.agreement ?? [])
              .filter((a) => a.disagree)
              .map((a) => (
                <li key={a.index}>{a.text}.</li>
              ))}
          </ul>
          <p>
            {unconfirmed > 0
              ? `Accept or reject each counted photo before publishing: ${unconfirmed} still to confirm.`
              : "Every counted photo has been confirmed; the PDF will show the spread."}
          </p>
        </div>
      ) : null}
    </>
  );
}

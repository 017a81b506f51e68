import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router-dom";
import { analysisNoteIn } from "@crown/core/i18n/mails/notices";
import { type OverlayMark, overlayLegend } from "@crown/core/measurement/overlay-legend";
import { reviewable } from "@crown/core/report/lifecycle";
import { messageOf } from "../api/crown.ts";
import { day } from "../i18n/dates.ts";
import { currentLanguage } from "../i18n/language.ts";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { type ReviewAttachment, type ReviewDetail, reviewDetail, type Summary } from "./api.ts";
import { PhotoCard } from "./PhotoCard.tsx";
import { ReviewDecision } from "./ReviewDecision.tsx";
import { one, ReviewFigures, statusName } from "./ReviewFigures.tsx";
import { NotReviewer } from "./ReviewQueue.tsx";

export { ReviewQueue } from "./ReviewQueue.tsx";

/** The marks every photo card draws (a sticker's circle only where one was found, so it is not listed). */
const CONSOLE_MARKS: ReadonlyArray<OverlayMark> = ["outline", "length", "width", "diagonalA", "diagonalB", "noseTip", "centre"];

/** /review/:id: every photo with its overlay, decisions, the outline and nose tip corrected, notes, publish or recapture, and the PDF. */
export function ReviewReport() {
  const { t } = useTranslation("review");
  const { id = "" } = useParams();
  const session = useSession();
  const [d, setD] = useState<ReviewDetail | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [note, setNote] = useState("");
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
  // The lifecycle's answer, as the server's: photos are decided only while the report waits for review.
  const editable = reviewable(d.status);
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
  const openPdf = async (pdf: () => Promise<Blob>) => {
    try {
      const blob = await pdf();
      window.open(URL.createObjectURL(blob), "_blank", "noopener");
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const photos = d.attachments.filter((a) => a.file_type === "image");
  // Photos the automatic check was unsure about come first, apart: they wait for the reviewer's eye.
  const referred = photos.filter((a) => a.measurement?.automatic.verdict === "refer");
  const judged = photos.filter((a) => a.measurement?.automatic.verdict !== "refer");
  const videos = d.attachments.filter((a) => a.file_type === "video");
  const cards = (list: ReadonlyArray<ReviewAttachment>) =>
    list.map((a) => <PhotoCard
        key={a.identifier}
        a={a}
        reportId={d.report_identifier}
        editable={editable && !busy}
        stickerMm={d.sticker_diameter_mm}
        reasons={d.recapture_reason_options}
        onChanged={setSummary}
      />);
  return (
    <div className="review-page">
      <p>
        <Link to="/review">{t("report.back")}</Link>
      </p>
      <section className="panel" aria-labelledby="page-title">
        <h1 id="page-title">
          {d.baby_name} <span className="muted small">({d.baby_age ?? t("report.ageUnknown")})</span>
        </h1>
        <p>
          {t("report.status")} <strong>{statusName(t, d.status)}</strong> {t("report.facts", { date: day(d.submitted_at), round: d.round, version: d.version })}
        </p>
        <ReviewFigures summary={summary} />
        {summary?.problems.length ? <FormMessage tone="info">{summary.problems.map((note) => analysisNoteIn(currentLanguage(), note)).join(" ")}</FormMessage> : null}
        {d.previous_results.length ? (
          <p className="muted small">
            {t("report.previous", { results: d.previous_results.map((p) => t("report.previousResult", { date: day(p.captured_at), ci: one(p.ci), cvai: one(p.cvai) })).join("; ") })}
          </p>
        ) : null}
        <ul className="muted small legend" aria-label={t("report.legendTitle")}>
          {overlayLegend(currentLanguage(), CONSOLE_MARKS).map((entry) => (
            <li key={entry.mark} className="legend-entry" data-mark={entry.mark}>
              <span
                className={`sw${entry.dashed ? " sw-dashed" : ""}${entry.mark === "noseTip" || entry.mark === "centre" ? " sw-dot" : ""}`}
                style={entry.dashed ? { borderTopColor: entry.colour } : { background: entry.colour }}
                aria-hidden="true"
              />
              {entry.label}
            </li>
          ))}
        </ul>
      </section>
      {referred.length ? (
        <section aria-labelledby="referred-title">
          <h2 id="referred-title">{t("report.referred", { count: referred.length })}</h2>
          <ul className="review-grid">{cards(referred)}</ul>
        </section>
      ) : null}
      <ul className="review-grid">{cards(judged)}</ul>
      {videos.length ? <p className="muted">{t("report.videos", { names: videos.map((v) => v.file_name).join(", ") })}</p> : null}
      <ReviewDecision d={d} note={note} onNote={setNote} busy={busy} run={run} openPdf={openPdf} />
    </div>
  );
}

import { useEffect, useMemo, useState } from "react";
import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { awaitsRecapture, isPublished } from "@crown/core/report/lifecycle";
import { messageOf } from "../api/crown.ts";
import { PatientPicker, type PickedBaby } from "../capture/PatientPicker.tsx";
import { isProvider } from "../capture/rules.ts";
import { day } from "../i18n/dates.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { selectedBaby, useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { type Attachment, attachmentBlob, blobUrl, myUploads, thumbBlob, type UploadItem } from "./api.ts";
import { ATTACHMENTS_STEP, wholeUploads } from "./uploadPages.ts";

const keyOf = (a: Attachment) => `${a.report_identifier}:${a.identifier}`;

function Thumb({ a, onOpen }: { a: Attachment; onOpen: () => void }) {
  const { t } = useTranslation("reporting");
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (a.file_type !== "image") return;
    let live = true;
    blobUrl(thumbBlob(a), `thumb:${keyOf(a)}`)
      .then((u) => live && setSrc(u))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [a.identifier]);
  return (
    <Button className="thumb" onPress={onOpen} aria-label={a.file_type === "video" ? t("uploads.openVideo", { name: a.file_name }) : t("uploads.openPhoto", { name: a.file_name })}>
      {a.file_type === "video" ? (
        <span className="thumb-video" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="32" height="32">
            <path d="M8 5v14l11-7z" fill="currentColor" />
          </svg>
        </span>
      ) : src ? (
        <img src={src} alt="" />
      ) : (
        <span className="thumb-loading" aria-hidden="true" />
      )}
      <span className="thumb-name">{a.file_name}</span>
    </Button>
  );
}

/** The full-screen Attachment dialog: the image or the video. */
function AttachmentDialog({ a, onClose }: { a: Attachment | null; onClose: () => void }) {
  const { t } = useTranslation("reporting");
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setSrc(null);
    setError(null);
    if (!a) return;
    // The picture itself says the file came (the spec's "Attachment fetched successfully" is the API's message, not a toast).
    blobUrl(attachmentBlob(a), `file:${keyOf(a)}`)
      .then(setSrc)
      .catch((e) => setError(messageOf(e)));
  }, [a?.identifier]);
  return (
    <ModalOverlay className="modal-overlay fullscreen-overlay" isOpen={a !== null} onOpenChange={(o) => !o && onClose()} isDismissable>
      <Modal className="modal modal-fullscreen">
        <Dialog className="dialog">
          <div className="row-between">
            <Heading slot="title" className="dialog-title">
              {t("uploads.attachment")}
            </Heading>
            <Button className="btn btn-secondary btn-sm" onPress={onClose}>
              {t("uploads.close")}
            </Button>
          </div>
          {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          {!src && !error ? <PageSpinner /> : null}
          {src && a?.file_type === "video" ? <video className="attachment-media" src={src} controls playsInline aria-label={a.file_name} /> : null}
          {src && a?.file_type === "image" ? <img className="attachment-media" src={src} alt={t("uploads.attachmentOf", { name: a.file_name })} /> : null}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** /uploads: the attachments of the selected baby's uploads, 7 at first and 7 more per Load More. */
export default function Uploads() {
  const { t } = useTranslation("reporting");
  const session = useSession();
  const provider = isProvider(session);
  const parentBaby = selectedBaby(session);
  const [picked, setPicked] = useState<PickedBaby | null>(null);
  const baby = provider ? picked : parentBaby ? { identifier: parentBaby.identifier, name: parentBaby.name } : null;
  const [uploads, setUploads] = useState<UploadItem[] | null>(null);
  const [page, setPage] = useState(1);
  const [lastPage, setLastPage] = useState(1);
  const [shown, setShown] = useState(ATTACHMENTS_STEP);
  const [open, setOpen] = useState<Attachment | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setUploads(null);
    setPage(1);
    setShown(ATTACHMENTS_STEP);
    setError(null);
  }, [baby?.identifier]);

  useEffect(() => {
    if (!baby) return;
    let live = true;
    myUploads(page, baby.identifier)
      .then((r) => {
        if (!live) return;
        setUploads((list) => (page === 1 ? [...r.results.data] : [...(list ?? []), ...r.results.data]));
        setLastPage(Math.max(1, r.results.last_page));
      })
      .catch((e) => {
        if (!live) return;
        setUploads([]);
        setError(messageOf(e));
      });
    return () => {
      live = false;
    };
  }, [baby?.identifier, page]);

  const total = useMemo(() => (uploads ?? []).reduce((s, u) => s + u.attachments.length, 0), [uploads]);
  // Whole uploads only: Load More pages by upload, never splitting one across pages.
  const visible = useMemo(() => wholeUploads(uploads ?? [], shown), [uploads, shown]);
  const hidden = (uploads?.length ?? 0) - visible.length;
  // Fetch the next page of uploads when Load More needs more attachments than are loaded.
  useEffect(() => {
    if (uploads && hidden === 0 && shown > total && page < lastPage) setPage((p) => p + 1);
  }, [shown, total, hidden, page, lastPage, uploads]);

  const groups = visible.map((u) => ({ upload: u, attachments: u.attachments }));

  return (
    <section className="panel uploads-page" aria-labelledby="page-title">
      <h1 id="page-title">{t("uploads.title")}</h1>
      <p className="card-subtitle">{baby ? t("uploads.subtitleFor", { name: baby.name }) : t("uploads.subtitle")}</p>
      {provider ? <PatientPicker value={picked} onChange={setPicked} /> : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {!baby ? (
        provider ? null : <p className="empty">{t("uploads.none")}</p>
      ) : uploads === null ? (
        <PageSpinner />
      ) : total === 0 ? (
        <div className="empty">
          <p>{t("uploads.none")}</p>
          <Link className="btn btn-primary" to="/select-cap-mode">
            {t("uploads.startScan")}
          </Link>
        </div>
      ) : (
        <>
          {groups
            .filter((g) => g.attachments.length > 0)
            .map(({ upload, attachments }) => (
              <section key={upload.identifier} className="upload-group" aria-label={t("uploads.uploadOf", { date: day(upload.upload_date ?? upload.uploaded_date) })}>
                <h2 className="upload-title">
                  {t("uploads.heading", { name: upload.baby_name, date: day(upload.upload_date ?? upload.uploaded_date) })}{" "}
                  <span className="pill">
                    {upload.status && isPublished(upload.status) ? t("uploads.resultReady") : upload.status && awaitsRecapture(upload.status) ? t("uploads.recaptureRequested") : t("uploads.inReview")}
                  </span>
                </h2>
                {/* The reviewer's reasons are the quiz's quality reasons: core's catalogue words them. */}
                {upload.recapture_reasons && upload.recapture_reasons.length > 0 ? (
                  <p className="muted small">{t("uploads.captureAgain", { reasons: upload.recapture_reasons.map(uiMessage).join("; ") })}</p>
                ) : null}
                <ul className="thumb-grid">
                  {attachments.map((a) => (
                    <li key={a.identifier}>
                      <Thumb a={a} onOpen={() => setOpen(a)} />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          {hidden > 0 || page < lastPage ? (
            <Button className="link-btn" onPress={() => setShown((s) => s + ATTACHMENTS_STEP)}>
              {t("uploads.loadMore")}
            </Button>
          ) : null}
        </>
      )}
      <AttachmentDialog a={open} onClose={() => setOpen(null)} />
    </section>
  );
}

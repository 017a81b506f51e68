import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { ApiError, messageOf } from "../api/crown.ts";
import { checkSelection, extensionOf, isVideoName, UPLOAD_ACCEPT, UPLOAD_LIMITS } from "@crown/core/capture/limits";
import { minimumShotsFor } from "../capture/rules.ts";
import { number } from "../i18n/dates.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { useSession } from "../session/store.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { finalizeReport, prepareReport, type UploadHandle, uploadFile } from "./api.ts";

type FileState = "ready" | "uploading" | "done" | "failed" | "cancelled";

interface Item {
  readonly id: number;
  readonly file: File;
  state: FileState;
  loaded: number;
  error: string | null;
}

/** Megabytes, in the portal's language's digits (the unit's words are the catalogue's `upload.megabytes`). */
const megabytes = (n: number) => number(n / (1024 * 1024), n < 1024 * 1024 ? 2 : 1);

/** What stops an upload from starting, worded when shown: a rule of core's (its message), too few photos, no baby. */
type Problem = { readonly rule: string } | { readonly photos: number; readonly video: boolean } | "baby";

let nextId = 1;
const itemsOf = (files: ReadonlyArray<File>): Item[] => files.map((file) => ({ id: nextId++, file, state: "ready", loaded: 0, error: null }));

function Progress({ value, label }: { value: number; label: string }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <div className="progress-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-valuetext={`${pct}%`}>
      <div className="progress-fill" style={{ width: `${pct}%` }} />
    </div>
  );
}

/**
 * The upload dialog: at least 5 photos (3 for physicians) and a short video; 20 files, 100 MB and
 * the formats checked before anything is sent; then prepare → upload (one request per file, with
 * XMLHttpRequest progress) → finalize. One file can be cancelled or retried without losing the others.
 */
export function UploadDialog(p: { readonly isOpen: boolean; readonly babyIdentifier: string | null; readonly babyName?: string; readonly initialFiles?: ReadonlyArray<File>; readonly onClose: (uploaded: boolean) => void }) {
  const { t } = useTranslation("reporting");
  const mb = (n: number) => t("upload.megabytes", { size: megabytes(n) });
  const session = useSession();
  const min = Math.max(minimumShotsFor(session), 1);
  const [items, setItems] = useState<Item[]>(() => itemsOf(p.initialFiles ?? []));
  const [problem, setProblem] = useState<Problem | null>(null);
  const [phase, setPhase] = useState<"select" | "sending" | "attention" | "finalizing" | "success">("select");
  const [errorDialog, setErrorDialog] = useState<string | null>(null);
  const reportId = useRef<string | null>(null);
  const handles = useRef(new Map<number, UploadHandle>());

  useEffect(() => {
    if (p.isOpen) {
      const fresh = itemsOf(p.initialFiles ?? []);
      states.current = new Map(fresh.map((i) => [i.id, i.state]));
      setItems(fresh);
      setProblem(null);
      setPhase("select");
      reportId.current = null;
    }
  }, [p.isOpen, p.initialFiles]);

  /** The latest state of each file, readable right after an await (React state is not). */
  const states = useRef(new Map<number, FileState>());
  const update = (id: number, patch: Partial<Item>) => {
    if (patch.state) states.current.set(id, patch.state);
    setItems((list) => list.map((i) => (i.id === id ? { ...i, ...patch } : i)));
  };

  const addFiles = (files: FileList | null) => {
    if (!files) return;
    const all = [...items.map((i) => i.file), ...Array.from(files)];
    const broken = checkSelection(all);
    if (broken) {
      setProblem({ rule: broken });
      return;
    }
    setProblem(null);
    const added = itemsOf(Array.from(files));
    for (const i of added) states.current.set(i.id, i.state);
    setItems((list) => [...list, ...added]);
  };

  const live = items.filter((i) => i.state !== "cancelled");
  const photos = live.filter((i) => !isVideoName(i.file.name)).length;
  const videos = live.length - photos;
  const totalBytes = live.reduce((s, i) => s + i.file.size, 0);
  const loadedBytes = live.reduce((s, i) => s + (i.state === "done" ? i.file.size : i.loaded), 0);

  const sendOne = async (item: Item): Promise<boolean> => {
    if (!reportId.current) return false;
    update(item.id, { state: "uploading", loaded: 0, error: null });
    const handle = uploadFile(reportId.current, item.file, (loaded) => update(item.id, { loaded }));
    handles.current.set(item.id, handle);
    try {
      await handle.promise;
      update(item.id, { state: "done", loaded: item.file.size });
      return true;
    } catch (e) {
      if (e instanceof DOMException && e.name === "AbortError") {
        update(item.id, { state: "cancelled", loaded: 0 });
        return true;
      }
      const message = e instanceof ApiError ? e.message : messageOf(e);
      update(item.id, { state: "failed", error: message });
      setErrorDialog(message);
      return false;
    } finally {
      handles.current.delete(item.id);
    }
  };

  const finish = async () => {
    if (!reportId.current) return;
    setPhase("finalizing");
    try {
      await finalizeReport(reportId.current);
      setPhase("success");
    } catch (e) {
      setPhase("attention");
      setErrorDialog(messageOf(e));
    }
  };

  const start = async () => {
    const broken = checkSelection(live.map((i) => i.file));
    if (broken) return setProblem({ rule: broken });
    if (photos < min) return setProblem({ photos: min, video: videos === 0 });
    if (!p.babyIdentifier) return setProblem("baby");
    setProblem(null);
    setPhase("sending");
    try {
      if (!reportId.current) reportId.current = (await prepareReport(p.babyIdentifier)).results.report_identifier;
    } catch (e) {
      setPhase("select");
      setErrorDialog(messageOf(e));
      return;
    }
    let ok = true;
    for (const item of live) {
      if (item.state === "done") continue;
      ok = (await sendOne(item)) && ok;
    }
    if (ok) await finish();
    else setPhase("attention");
  };

  const retry = async (item: Item) => {
    setPhase("sending");
    await sendOne(item);
    const pending = [...states.current.values()].some((s) => s === "failed" || s === "uploading" || s === "ready");
    if (!pending) await finish();
    else setPhase("attention");
  };

  const cancel = (item: Item) => {
    const h = handles.current.get(item.id);
    if (h) h.abort();
    else update(item.id, { state: "cancelled" });
  };

  const close = () => {
    for (const h of handles.current.values()) h.abort();
    p.onClose(phase === "success");
  };

  const busy = phase === "sending" || phase === "finalizing";
  const remaining = items.some((i) => i.state === "failed" || i.state === "ready");
  const uploadedPhotos = items.filter((i) => i.state === "done" && !isVideoName(i.file.name)).length;
  const problemText =
    problem === null
      ? null
      : problem === "baby"
        ? t("upload.chooseBaby")
        : "rule" in problem
          ? uiMessage(problem.rule)
          : problem.video
            ? t("upload.needPhotosAndVideo", { min: problem.photos })
            : t("upload.needPhotos", { min: problem.photos });
  const stateText = (i: Item) =>
    i.state === "done"
      ? t("upload.stateUploaded")
      : i.state === "uploading"
        ? t("upload.stateUploading")
        : i.state === "failed"
          ? t("upload.stateFailed", { error: i.error ?? "" })
          : i.state === "cancelled"
            ? t("upload.stateCancelled")
            : t("upload.stateReady");

  return (
    <>
      <ModalDialog isOpen={p.isOpen && phase !== "success" && errorDialog === null} title={t("upload.title")} wide dismissable={!busy} onOpenChange={(o) => !o && close()}>
        <p>{p.babyName ? t("upload.introFor", { min, name: p.babyName, max: UPLOAD_LIMITS.maxFiles }) : t("upload.intro", { min, max: UPLOAD_LIMITS.maxFiles })}</p>
        {problemText ? <FormMessage tone="error">{problemText}</FormMessage> : null}
        {phase === "select" ? (
          <div>
            <label className="btn btn-secondary file-btn">
              {t("upload.chooseFiles")}
              <input
                className="sr-only"
                type="file"
                multiple
                accept={UPLOAD_ACCEPT}
                onChange={(e) => {
                  addFiles(e.currentTarget.files);
                  e.currentTarget.value = "";
                }}
              />
            </label>
          </div>
        ) : null}
        <p className="muted small" aria-live="polite">
          {t("upload.counts", { photos, videos, size: mb(totalBytes) })}
        </p>
        {phase !== "select" ? (
          <div className="overall-progress">
            <div className="progress-label">
              <span>{t("upload.overall")}</span>
              <span>{t("upload.progress", { loaded: mb(loadedBytes), total: mb(totalBytes) })}</span>
            </div>
            <Progress value={totalBytes ? loadedBytes / totalBytes : 0} label={t("upload.overallProgress")} />
          </div>
        ) : null}
        <ul className="upload-list">
          {items.map((i) => (
            <li key={i.id} className={`upload-item state-${i.state}`}>
              <div className="row-between">
                <span className="upload-name">
                  {i.file.name} <span className="muted small">({extensionOf(i.file.name).toUpperCase()}, {mb(i.file.size)})</span>
                </span>
                <span className="upload-actions">
                  {i.state === "uploading" ? (
                    <Button className="btn btn-ghost btn-sm" onPress={() => cancel(i)} aria-label={t("upload.cancelFile", { name: i.file.name })}>
                      {t("upload.cancel")}
                    </Button>
                  ) : null}
                  {i.state === "failed" || (i.state === "cancelled" && phase !== "select") ? (
                    <Button className="btn btn-ghost btn-sm" onPress={() => void retry(i)} isDisabled={busy} aria-label={t("upload.retryFile", { name: i.file.name })}>
                      {t("upload.retry")}
                    </Button>
                  ) : null}
                  {i.state === "ready" || i.state === "failed" ? (
                    <Button className="btn btn-ghost btn-sm" onPress={() => update(i.id, { state: "cancelled" })} isDisabled={busy} aria-label={t("upload.removeFile", { name: i.file.name })}>
                      {t("upload.remove")}
                    </Button>
                  ) : null}
                </span>
              </div>
              {i.state !== "ready" ? <Progress value={i.state === "done" ? 1 : i.file.size ? i.loaded / i.file.size : 0} label={t("upload.progressOf", { name: i.file.name })} /> : null}
              <span className="muted small upload-state">{stateText(i)}</span>
            </li>
          ))}
        </ul>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={close} isDisabled={phase === "finalizing"}>
            {phase === "select" ? t("upload.cancel") : t("upload.close")}
          </Button>
          {phase === "select" ? (
            <Button className="btn btn-primary" onPress={() => void start()}>
              {t("upload.upload")}
            </Button>
          ) : null}
          {phase === "attention" && !remaining ? (
            <Button className="btn btn-primary" onPress={() => void finish()} isDisabled={uploadedPhotos === 0}>
              {t("upload.finish")}
            </Button>
          ) : null}
        </div>
      </ModalDialog>
      <ModalDialog isOpen={p.isOpen && phase === "success"} title={t("upload.successTitle")} role="alertdialog">
        <p>{t("upload.successBody")}</p>
        <div className="dialog-actions">
          <Button className="btn btn-primary" onPress={() => p.onClose(true)} autoFocus>
            {t("upload.ok")}
          </Button>
        </div>
      </ModalDialog>
      <ModalDialog isOpen={p.isOpen && errorDialog !== null} title={t("upload.errorTitle")} role="alertdialog">
        <p>{errorDialog}</p>
        <div className="dialog-actions">
          <Button className="btn btn-primary" onPress={() => setErrorDialog(null)} autoFocus>
            {t("upload.ok")}
          </Button>
        </div>
      </ModalDialog>
    </>
  );
}

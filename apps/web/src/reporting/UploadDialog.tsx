import { type FileProgress, submissionActors, type SubmissionEvent, submissionMachine } from "@crown/core/capture/submission";
import { useSelector } from "@xstate/react";
import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { checkSelection, extensionOf, isVideoName, UPLOAD_LIMITS } from "@crown/core/capture/limits";
import { minimumShotsFor } from "../capture/rules.ts";
import { number } from "../i18n/dates.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { useSession } from "../session/store.ts";
import { ChooseFiles } from "../ui/ChooseFiles.tsx";
import { ModalDialog } from "../ui/dialogs.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { type ActorRefFrom, createActor } from "xstate";
import { submissionPorts } from "./api.ts";

type FileState = "ready" | "uploading" | "done" | "failed" | "cancelled";

/** A file chosen in the dialog; `removed` before the upload started. */
interface Item {
  readonly id: string;
  readonly file: File;
  readonly removed: boolean;
}

/** How each of core's file states is shown. */
const SHOWN: { readonly [S in FileProgress["state"]]: FileState } = { queued: "ready", sending: "uploading", sent: "done", failed: "failed", cancelled: "cancelled" };

/** Megabytes, in the portal's language's digits (the unit's words are the catalogue's `upload.megabytes`). */
const megabytes = (n: number) => number(n / (1024 * 1024), n < 1024 * 1024 ? 2 : 1);

/** What stops an upload from starting, worded when shown: a rule of core's (its message), too few photos, no baby. */
type Problem = { readonly rule: string } | { readonly photos: number; readonly video: boolean } | "baby";

let nextId = 1;
const itemsOf = (files: ReadonlyArray<File>): Item[] => files.map((file) => ({ id: `file-${nextId++}`, file, removed: false }));

type Submission = ActorRefFrom<typeof submissionMachine>;
/** The retries of a passing failure, before the file waits for the person. */
const PORTAL_ATTEMPTS = 3;

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
 * the formats checked before anything is sent; then core's submission machine (capture/submission.ts)
 * runs prepare → upload (one request per file, with XMLHttpRequest progress) → finalize. One file can
 * be cancelled or retried without losing the others.
 */
export function UploadDialog(p: { readonly isOpen: boolean; readonly babyIdentifier: string | null; readonly babyName?: string; readonly initialFiles?: ReadonlyArray<File>; readonly onClose: (uploaded: boolean) => void }) {
  const { t } = useTranslation("reporting");
  const mb = (n: number) => t("upload.megabytes", { size: megabytes(n) });
  const session = useSession();
  const min = Math.max(minimumShotsFor(session), 1);
  const [items, setItems] = useState<Item[]>(() => itemsOf(p.initialFiles ?? []));
  const [problem, setProblem] = useState<Problem | null>(null);
  const [errorDialog, setErrorDialog] = useState<string | null>(null);
  const [submission, setSubmission] = useState<Submission | null>(null);
  const snapshot = useSelector(submission ?? undefined, (s) => s);

  useEffect(() => {
    if (p.isOpen) {
      setItems(itemsOf(p.initialFiles ?? []));
      setProblem(null);
      setSubmission(null);
    }
  }, [p.isOpen, p.initialFiles]);
  // A closed dialog (or a new run) stops the old run: its request in flight is aborted.
  useEffect(() => () => submission?.stop(), [submission]);

  const addFiles = (files: ReadonlyArray<File>) => {
    const all = [...items.filter((i) => !i.removed).map((i) => i.file), ...files];
    const broken = checkSelection(all);
    if (broken) {
      setProblem({ rule: broken });
      return;
    }
    setProblem(null);
    setItems((list) => [...list, ...itemsOf(files)]);
  };

  const value = snapshot ? String(snapshot.value) : null;
  // A prepare that failed leaves the dialog as it was before Upload (the error said); the person may try again.
  const phase = value === null || value === "failed" ? "select" : value === "done" ? "success" : value === "attention" ? "attention" : value.startsWith("finaliz") ? "finalizing" : "sending";
  const progressOf = (id: string) => snapshot?.context.progress.find((f) => f.id === id);
  const stateOf = (i: Item): FileState => {
    const shown = progressOf(i.id);
    return shown ? SHOWN[shown.state] : i.removed ? "cancelled" : "ready";
  };
  const loadedOf = (i: Item) => progressOf(i.id)?.loaded ?? 0;
  const live = items.filter((i) => stateOf(i) !== "cancelled");
  const photos = live.filter((i) => !isVideoName(i.file.name)).length;
  const videos = live.length - photos;
  const totalBytes = live.reduce((s, i) => s + i.file.size, 0);
  const loadedBytes = live.reduce((s, i) => s + loadedOf(i), 0);

  const start = () => {
    const chosen = items.filter((i) => !i.removed);
    const broken = checkSelection(chosen.map((i) => i.file));
    if (broken) return setProblem({ rule: broken });
    if (photos < min) return setProblem({ photos: min, video: videos === 0 });
    if (!p.babyIdentifier) return setProblem("baby");
    setProblem(null);
    const machine = submissionMachine.provide({ actors: submissionActors(submissionPorts(p.babyIdentifier)) });
    const files = chosen.map((i) => ({ id: i.id, name: i.file.name, size: i.file.size, content: i.file }));
    const actor = createActor(machine, { input: { files, byHand: true, maxAttempts: PORTAL_ATTEMPTS } });
    // Each failure the person must act on, in the error dialog; one being tried again is not shown.
    let shown: unknown = null;
    actor.subscribe((s) => {
      const { error } = s.context;
      if (error === shown) return;
      shown = error;
      if (error && !JSON.stringify(s.value).includes("Again")) setErrorDialog(error.message);
    });
    setSubmission(actor);
    actor.start();
  };

  const send = (event: SubmissionEvent) => submission?.send(event);
  const cancel = (i: Item) => send({ type: "CANCEL_FILE", id: i.id });
  const remove = (i: Item) => (submission ? send({ type: "CANCEL_FILE", id: i.id }) : setItems((list) => list.map((x) => (x.id === i.id ? { ...x, removed: true } : x))));

  const close = () => {
    send({ type: "CANCEL" });
    p.onClose(phase === "success");
  };

  const busy = phase === "sending" || phase === "finalizing";
  const remaining = items.some((i) => stateOf(i) === "failed" || stateOf(i) === "ready");
  const uploadedPhotos = items.filter((i) => stateOf(i) === "done" && !isVideoName(i.file.name)).length;
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
  const stateText = (i: Item) => {
    const state = stateOf(i);
    return state === "done"
      ? t("upload.stateUploaded")
      : state === "uploading"
        ? t("upload.stateUploading")
        : state === "failed"
          ? t("upload.stateFailed", { error: progressOf(i.id)?.error ?? "" })
          : state === "cancelled"
            ? t("upload.stateCancelled")
            : t("upload.stateReady");
  };

  return (
    <>
      <ModalDialog isOpen={p.isOpen && phase !== "success" && errorDialog === null} title={t("upload.title")} wide dismissable={!busy} onOpenChange={(o) => !o && close()}>
        <p>{p.babyName ? t("upload.introFor", { min, name: p.babyName, max: UPLOAD_LIMITS.maxFiles }) : t("upload.intro", { min, max: UPLOAD_LIMITS.maxFiles })}</p>
        {problemText ? <FormMessage tone="error">{problemText}</FormMessage> : null}
        {phase === "select" ? (
          <div>
            <ChooseFiles onChosen={addFiles}>{t("upload.chooseFiles")}</ChooseFiles>
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
            <li key={i.id} className={`upload-item state-${stateOf(i)}`}>
              <div className="row-between">
                <span className="upload-name">
                  {i.file.name} <span className="muted small">({extensionOf(i.file.name).toUpperCase()}, {mb(i.file.size)})</span>
                </span>
                <span className="upload-actions">
                  {stateOf(i) === "uploading" ? (
                    <Button className="btn btn-ghost btn-sm" onPress={() => cancel(i)} aria-label={t("upload.cancelFile", { name: i.file.name })}>
                      {t("upload.cancel")}
                    </Button>
                  ) : null}
                  {progressOf(i.id) && (stateOf(i) === "failed" || (stateOf(i) === "cancelled" && phase !== "select")) ? (
                    <Button className="btn btn-ghost btn-sm" onPress={() => send({ type: "RETRY_FILE", id: i.id })} isDisabled={busy} aria-label={t("upload.retryFile", { name: i.file.name })}>
                      {t("upload.retry")}
                    </Button>
                  ) : null}
                  {stateOf(i) === "ready" || stateOf(i) === "failed" ? (
                    <Button className="btn btn-ghost btn-sm" onPress={() => remove(i)} isDisabled={busy} aria-label={t("upload.removeFile", { name: i.file.name })}>
                      {t("upload.remove")}
                    </Button>
                  ) : null}
                </span>
              </div>
              {stateOf(i) !== "ready" ? <Progress value={stateOf(i) === "done" ? 1 : i.file.size ? loadedOf(i) / i.file.size : 0} label={t("upload.progressOf", { name: i.file.name })} /> : null}
              <span className="muted small upload-state">{stateText(i)}</span>
            </li>
          ))}
        </ul>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={close} isDisabled={phase === "finalizing"}>
            {phase === "select" ? t("upload.cancel") : t("upload.close")}
          </Button>
          {phase === "select" ? (
            <Button className="btn btn-primary" onPress={start}>
              {t("upload.upload")}
            </Button>
          ) : null}
          {phase === "attention" && !remaining ? (
            <Button className="btn btn-primary" onPress={() => send({ type: "FINISH" })} isDisabled={uploadedPhotos === 0}>
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

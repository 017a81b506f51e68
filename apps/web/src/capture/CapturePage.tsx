import { captureMachine, minimumShots, selectedShots } from "@crown/core/capture/machine";
import { AUTO_CAPTURE_SHOTS, CAPTURE_SECONDS, goodShotCount } from "@crown/core/capture/rules";
import { frameMessages } from "@crown/core/measurement/verdict";
import { useMachine } from "@xstate/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "react-aria-components";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { uiMessage } from "../i18n/i18n.ts";
import { UploadDialog } from "../reporting/UploadDialog.tsx";
import { selectedBaby, useSession } from "../session/store.ts";
import { ChooseFiles } from "../ui/ChooseFiles.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { LiveOverlay } from "./LiveOverlay.tsx";
import { PatientPicker, type PickedBaby } from "./PatientPicker.tsx";
import { isProvider } from "./rules.ts";
import { ShotSelection } from "./ShotSelection.tsx";
import { type ShotImage, useCameraCapture } from "./useCameraCapture.ts";

const NO_FILES: File[] = [];

/**
 * /capture: the camera (rear on phones) or a chosen video, the model drawing the outline live, Auto or
 * Regular Capture, then the good shots. Core's capture machine (core/src/capture/machine.ts) holds the
 * shots and decides; this page renders it and drives the camera (useCameraCapture).
 */
export default function CapturePage() {
  const { t } = useTranslation("capture");
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const withCap = params.get("cap") !== "0";
  const provider = isProvider(session);
  const parentBaby = selectedBaby(session);
  const [baby, setBaby] = useState<PickedBaby | null>(provider || !parentBaby ? null : { identifier: parentBaby.identifier, name: parentBaby.name });
  /** Photos chosen from the device, straight to the upload dialog. */
  const [chosenFiles, setChosenFiles] = useState<File[] | null>(null);

  const [snapshot, send, actor] = useMachine(captureMachine, { input: { role: session?.userRole ?? null } });
  const { context } = snapshot;
  const state = String(snapshot.value);
  const min = minimumShots(context);
  const camera = useCameraCapture(send, () => actor.getSnapshot());

  // Capture over: the camera stops (the model may still judge the shots taken).
  useEffect(() => {
    if (state === "selecting") camera.closeSource();
  }, [state]); // eslint-disable-line react-hooks/exhaustive-deps

  // Shots are JPEGs behind object URLs: released once the machine has dropped them.
  const urls = useRef(new Set<string>());
  useEffect(() => {
    const live = new Set(context.shots.map((s) => (s.image as ShotImage).url));
    for (const url of urls.current) if (!live.has(url)) URL.revokeObjectURL(url);
    urls.current = live;
  }, [context.shots]);

  const restart = () => {
    camera.reset();
    camera.closeSource();
    send({ type: "RESTART" });
  };

  const saving = state === "saving";
  // Made once on Save: a verdict arriving meanwhile must not hand the open dialog new files.
  const savedFiles = useMemo(
    () =>
      saving
        ? [
            ...selectedShots(context).map((s, i) => new File([(s.image as ShotImage).blob], `shot-${String(i + 1).padStart(2, "0")}.jpg`, { type: "image/jpeg" })),
            ...(camera.video.file ? [camera.video.file] : []),
          ]
        : null,
    [saving], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const uploadFiles = savedFiles ?? chosenFiles;
  const live = state === "live" || state === "capturing";
  const { model } = camera;
  // The live hint in the page's language: core's frame messages and quality reasons (its catalogue).
  const status = camera.frame ? frameMessages(camera.frame.analysis).map(uiMessage).join("; ") : "";
  const modelNote = model === "loading" ? t("page.modelLoading") : model === "ready" ? t("page.modelReady") : t("page.modelMissing", { detail: camera.modelError ?? t("page.modelNotLoaded") });

  return (
    <div className="capture-page">
      <div className="page-head">
        <h1>{withCap ? t("page.titleCap") : t("page.titleNoCap")}</h1>
        <p className="lead">
          {t("page.lead", { shots: AUTO_CAPTURE_SHOTS, seconds: CAPTURE_SECONDS, min })}{" "}
          <Link to={withCap ? "/instructions" : "/nocap-instructions/instructions"}>{t("page.readInstructions")}</Link>
        </p>
      </div>

      {provider ? <PatientPicker value={baby} onChange={setBaby} /> : baby ? <p>{t("page.baby")} <strong>{baby.name}</strong></p> : <FormMessage tone="error">{t("page.addBabyFirst")}</FormMessage>}

      {state === "choosing" ? (
        <section className="panel capture-sources" aria-labelledby="source-title">
          <h2 id="source-title">{t("page.chooseSource")}</h2>
          {camera.cameraError !== null ? <FormMessage tone="error">{t("page.cameraFailed", { detail: camera.cameraError })}</FormMessage> : null}
          <div className="page-actions">
            <Button className="btn btn-primary" onPress={() => void camera.openCamera()}>
              {t("page.openCamera")}
            </Button>
            <label className="btn btn-secondary file-btn">
              {t("page.chooseVideo")}
              <input className="sr-only" type="file" accept="video/mp4,video/quicktime,.mp4,.mov,video/*" onChange={(e) => e.currentTarget.files?.[0] && void camera.openVideo(e.currentTarget.files[0])} />
            </label>
            <ChooseFiles
              onChosen={(files) => {
                if (files.length > 0) setChosenFiles(files);
              }}
            >
              {t("page.choosePhotos")}
            </ChooseFiles>
          </div>
          <p className="muted small" role="status">
            {modelNote}
          </p>
        </section>
      ) : null}

      <div className={`capture-stage${live ? "" : " is-hidden"}`}>
        <div className="capture-view">
          <video ref={camera.videoRef} className="capture-video" playsInline muted aria-label={context.source === "camera" ? t("page.cameraPreview") : t("page.videoPreview")} />
          <LiveOverlay overlay={camera.frame} />
          {context.secondsLeft !== null ? (
            <span className="capture-timer" aria-hidden="true">
              {t("page.secondsLeft", { seconds: context.secondsLeft })}
            </span>
          ) : null}
        </div>
        <p className={`capture-status${camera.frame?.analysis.accepted ? " good" : ""}`} role="status" aria-live="polite" aria-atomic="true">
          {status || (model === "ready" ? t("page.lookingForHead") : model === "loading" ? t("page.modelLoading") : t("page.modelUnavailable"))}
        </p>
        {state === "capturing" && context.mode === "auto" ? (
          <p className="muted">
            {/* Referred frames are kept beside the good ones but are not good shots (capture/rules.ts). */}
            {t("page.goodShots", { count: goodShotCount(context.shots), total: AUTO_CAPTURE_SHOTS })}
          </p>
        ) : null}
        <div className="page-actions">
          {state !== "capturing" ? (
            <>
              <Button className="btn btn-primary" onPress={() => camera.start("auto")} isDisabled={model !== "ready"}>
                {t("page.autoCapture")}
              </Button>
              <Button className="btn btn-primary" onPress={() => camera.start("regular")}>
                {t("page.regularCapture")}
              </Button>
              <Button className="btn btn-ghost" onPress={restart}>
                {t("page.back")}
              </Button>
            </>
          ) : (
            <Button className="btn btn-secondary" onPress={camera.stop}>
              {t("page.stop")}
            </Button>
          )}
        </div>
      </div>

      {state === "selecting" || saving ? (
        <ShotSelection context={context} minimum={min} canSave={snapshot.can({ type: "SAVE" }) && baby !== null} video={camera.video} send={send} onRestart={restart} />
      ) : null}

      <UploadDialog
        isOpen={uploadFiles !== null}
        babyIdentifier={baby?.identifier ?? null}
        {...(baby ? { babyName: baby.name } : {})}
        initialFiles={uploadFiles ?? NO_FILES}
        onClose={(uploaded) => {
          if (saving) send({ type: "UPLOAD_CLOSED", uploaded });
          setChosenFiles(null);
          if (uploaded) navigate(provider ? "/dashboard" : "/uploads");
        }}
      />
    </div>
  );
}

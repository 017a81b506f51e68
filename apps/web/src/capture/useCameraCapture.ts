import type { CaptureContext, CaptureEvent } from "@crown/core/capture/machine";
import { AUTO_CAPTURE_REFERRED, AUTO_CAPTURE_SHOTS, CAPTURE_SECONDS, type CaptureMode, isReferredShot, REGULAR_MAX_SHOTS } from "@crown/core/capture/rules";
import { uploadableVideo } from "@crown/core/capture/limits";
import { ANALYSIS_MAX_SIDE, drawScaled, type HeadContourWorkerClient, headContourWorker, type JudgedFrame, jpegOf, judgeFrame, SHOT_MAX_SIDE } from "@crown/inference/web";
import { useEffect, useRef, useState } from "react";

/** Why Regular Capture's shots go without a video: the chosen one is not uploadable, or the browser cannot record MP4. */
export type VideoNote = "notUploadable" | "noRecorder";

/** What the page holds for a shot: the JPEG, and its object URL for the thumbnail. */
export interface ShotImage {
  readonly blob: Blob;
  readonly url: string;
}

const REGULAR_SHOT_GAP_MS = 450;
const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));

const recorderType = (): string | null => {
  if (typeof MediaRecorder === "undefined") return null;
  for (const t of ["video/mp4;codecs=avc1", "video/mp4"]) if (MediaRecorder.isTypeSupported(t)) return t;
  return null;
};

/**
 * The camera (or a chosen video) and the model for the capture page: opens the source, runs the live
 * preview, and takes the shots of Auto or Regular Capture, sending the capture machine what it saw.
 * The machine (core/src/capture/machine.ts) decides what is kept, when capture ends and what may be saved.
 */
export const useCameraCapture = (send: (event: CaptureEvent) => void, current: () => { value: unknown; context: CaptureContext }) => {
  const capturing = () => current().value === "capturing";
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const sourceFileRef = useRef<File | null>(null);
  const workerRef = useRef<HeadContourWorkerClient | null>(null);
  const runRef = useRef(0);
  const shotId = useRef(1);
  const [model, setModel] = useState<"loading" | "ready" | "failed">("loading");
  /** Why the model could not load (its own words, technical), when it says. */
  const [modelError, setModelError] = useState<string | null>(null);
  const [frame, setFrame] = useState<JudgedFrame | null>(null);
  /** The browser's reason the camera did not open (the page says the rest in its language); null while it is fine. */
  const [cameraError, setCameraError] = useState<string | null>(null);
  /** The video uploaded with Regular Capture's shots, or why there is none (the page words it). */
  const [video, setVideo] = useState<{ file: File | null; note: VideoNote | null }>({ file: null, note: null });

  // The model loads in the background as soon as the page opens.
  useEffect(() => {
    let live = true;
    headContourWorker()
      .then((w) => {
        if (!live) return;
        workerRef.current = w;
        setModel("ready");
      })
      .catch((e: Error) => {
        if (!live) return;
        setModel("failed");
        setModelError(e.message || null);
      });
    return () => {
      live = false;
    };
  }, []);

  const stopStream = () => {
    streamRef.current?.getTracks().forEach((t) => t.stop());
    streamRef.current = null;
  };
  useEffect(
    () => () => {
      runRef.current++;
      stopStream();
    },
    [],
  );

  const analyse = async (canvas: HTMLCanvasElement): Promise<JudgedFrame | null> => {
    const w = workerRef.current;
    if (!w) return null;
    try {
      const judged = await judgeFrame(w, canvas);
      if (judged) setFrame(judged);
      return judged;
    } catch {
      return null;
    }
  };

  /** The live preview: analyses frames one after another and draws the outline, until capture starts or the page closes. */
  const preview = async () => {
    const run = ++runRef.current;
    while (runRef.current === run) {
      const canvas = videoRef.current ? drawScaled(videoRef.current, ANALYSIS_MAX_SIDE) : null;
      if (canvas && workerRef.current) await analyse(canvas);
      else await sleep(200);
      await sleep(30);
    }
  };

  const openCamera = async () => {
    setCameraError(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
      stopStream();
      streamRef.current = stream;
      sourceFileRef.current = null;
      send({ type: "SOURCE_OPENED", source: "camera" });
      const v = videoRef.current;
      if (v) {
        v.removeAttribute("src");
        v.srcObject = stream;
        await v.play().catch(() => undefined);
      }
      void preview();
    } catch (e) {
      setCameraError(e instanceof Error ? e.message : String(e));
    }
  };

  const openVideo = async (file: File) => {
    stopStream();
    sourceFileRef.current = file;
    send({ type: "SOURCE_OPENED", source: "video" });
    const v = videoRef.current;
    if (v) {
      v.srcObject = null;
      v.src = URL.createObjectURL(file);
      v.muted = true;
      await v.play().catch(() => undefined);
    }
    void preview();
  };

  const shotOf = async (canvas: HTMLCanvasElement, judged: JudgedFrame | null) => {
    const blob = await jpegOf(canvas);
    if (!blob) return null;
    const image: ShotImage = { blob, url: URL.createObjectURL(blob) };
    return { id: `shot-${shotId.current++}`, image, verdict: judged ? judged.analysis.verdict : null, reasons: judged?.analysis.reasons ?? [] };
  };

  const judged = (id: string, j: JudgedFrame) => send({ type: "SHOT_JUDGED", id, verdict: j.analysis.verdict, reasons: j.analysis.reasons });

  /** Judges the shots the model had no time for during Regular Capture, one after another. */
  const judgeRest = async (run: number) => {
    for (const shot of current().context.shots.filter((s) => s.verdict === null)) {
      if (runRef.current !== run || !workerRef.current) return;
      const canvas = drawScaled(await createImageBitmap((shot.image as ShotImage).blob), SHOT_MAX_SIDE);
      const j = canvas ? await analyse(canvas) : null;
      if (j) judged(shot.id, j);
    }
  };

  const ended = () => sourceFileRef.current !== null && videoRef.current?.ended === true;

  const autoCapture = async (run: number) => {
    let kept = 0;
    while (runRef.current === run && capturing() && kept < AUTO_CAPTURE_SHOTS && !ended()) {
      const canvas = videoRef.current ? drawScaled(videoRef.current, SHOT_MAX_SIDE) : null;
      if (!canvas) {
        await sleep(150);
        continue;
      }
      const j = await analyse(canvas);
      // good frames, and a few the model was unsure of (flagged, for the reviewer; capture/rules.ts)
      const unsure = j?.analysis.verdict === "refer" && current().context.shots.filter(isReferredShot).length < AUTO_CAPTURE_REFERRED;
      if (j?.analysis.accepted || unsure) {
        const shot = await shotOf(canvas, j);
        if (shot && runRef.current === run) {
          send({ type: "SHOT_TAKEN", shot });
          if (j?.analysis.accepted) kept++;
        }
      }
      await sleep(30);
    }
    if (runRef.current === run && capturing()) send({ type: "STOP" });
  };

  /** The video: the chosen file itself, or 10 seconds of the camera recorded as MP4 where the browser can. */
  const startRecording = () => {
    const file = sourceFileRef.current;
    if (file) {
      if (uploadableVideo(file)) setVideo({ file, note: null });
      else setVideo({ file: null, note: "notUploadable" });
      return async () => undefined;
    }
    const type = streamRef.current ? recorderType() : null;
    if (!streamRef.current) return async () => undefined;
    if (!type) {
      setVideo({ file: null, note: "noRecorder" });
      return async () => undefined;
    }
    const chunks: Blob[] = [];
    const recorder = new MediaRecorder(streamRef.current, { mimeType: type });
    recorder.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
    recorder.start(1000);
    return async () => {
      if (recorder.state === "inactive") return;
      const stopped = new Promise<void>((r) => (recorder.onstop = () => r()));
      recorder.stop();
      await stopped;
      const blob = new Blob(chunks, { type: "video/mp4" });
      if (blob.size > 0) setVideo({ file: new File([blob], "capture.mp4", { type: "video/mp4" }), note: null });
    };
  };

  const regularCapture = async (run: number) => {
    const stopRecording = startRecording();
    // Shots are taken on a clock; the model judges them as fast as it can, without holding the clock back.
    const started = performance.now();
    let taken = 0;
    let judging = false;
    const verdicts: Array<Promise<void>> = [];
    while (runRef.current === run && capturing()) {
      const elapsed = performance.now() - started;
      if (elapsed >= CAPTURE_SECONDS * 1000 || ended()) break;
      send({ type: "TICK", elapsedMs: elapsed });
      const canvas = videoRef.current ? drawScaled(videoRef.current, SHOT_MAX_SIDE) : null;
      if (canvas && taken < REGULAR_MAX_SHOTS) {
        const shot = await shotOf(canvas, null);
        if (shot) {
          taken++;
          send({ type: "SHOT_TAKEN", shot });
          if (workerRef.current && !judging) {
            judging = true;
            verdicts.push(
              analyse(canvas)
                .then((j) => void (j && judged(shot.id, j)))
                .finally(() => {
                  judging = false;
                }),
            );
          }
        }
      }
      await sleep(REGULAR_SHOT_GAP_MS);
    }
    await Promise.race([Promise.all(verdicts), sleep(5000)]);
    await stopRecording();
    if (runRef.current !== run) return;
    // The clock's end (or the video's): the machine selects the good and unjudged shots.
    if (capturing()) send({ type: "STOP" });
    void judgeRest(run);
  };

  const start = (mode: CaptureMode) => {
    const run = ++runRef.current;
    setVideo({ file: null, note: null });
    send({ type: "START", mode });
    void (mode === "auto" ? autoCapture(run) : regularCapture(run));
  };

  /** The person stops capture: the loops end, and the machine moves on to the selection. */
  const stop = () => {
    runRef.current++;
    send({ type: "STOP" });
  };

  /** Capture is over (stopped, or the machine ended it): the camera stops; the model may still judge the shots. */
  const closeSource = () => {
    stopStream();
    videoRef.current?.pause();
  };

  const reset = () => {
    runRef.current++;
    setFrame(null);
    setVideo({ file: null, note: null });
  };

  return { videoRef, model, modelError, frame, cameraError, video, openCamera, openVideo, start, stop, closeSource, reset };
};

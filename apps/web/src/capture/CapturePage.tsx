import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import type { HeadContourWorkerClient } from "../../../../adapters/inference/src/worker-protocol.ts";
import { UploadDialog } from "../reporting/UploadDialog.tsx";
import { selectedBaby, useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { frameMessage } from "@crown/core/measurement/verdict";
import { headContourWorker, type PhotoAnalysis } from "./inference.ts";
import { PatientPicker, type PickedBaby } from "./PatientPicker.tsx";
import { AUTO_CAPTURE_SHOTS, CAPTURE_SECONDS, extensionOf, isProvider, minGoodShots, UPLOAD_LIMITS } from "./rules.ts";

interface Shot {
  readonly id: number;
  readonly blob: Blob;
  readonly url: string;
  readonly good: boolean | null;
  readonly reasons: ReadonlyArray<string>;
}

interface Overlay {
  readonly width: number;
  readonly height: number;
  readonly analysis: PhotoAnalysis;
}

type Mode = "auto" | "regular";
type Phase = "setup" | "live" | "select";

const NO_FILES: File[] = [];
const ANALYSIS_MAX_SIDE = 640;
const SHOT_MAX_SIDE = 1600;
const REGULAR_SHOT_GAP_MS = 450;
const REGULAR_MAX_SHOTS = 20;

const recorderType = (): string | null => {
  if (typeof MediaRecorder === "undefined") return null;
  for (const t of ["video/mp4;codecs=avc1", "video/mp4"]) if (MediaRecorder.isTypeSupported(t)) return t;
  return null;
};

const scaled = (w: number, h: number, max: number) => {
  const k = Math.min(1, max / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)) };
};

const reasonText = (a: PhotoAnalysis) => frameMessage(a);

/** The live outline over the preview: head contour, nose tip and sticker, in the analysed frame's pixels. */
function LiveOverlay({ overlay }: { overlay: Overlay | null }) {
  if (!overlay) return null;
  const { analysis: a, width, height } = overlay;
  const stroke = a.accepted ? "#22c55e" : "#f97316";
  return (
    <svg className="live-overlay" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="xMidYMid meet" aria-hidden="true">
      {a.outline.length > 2 ? <polygon points={a.outline.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke={stroke} strokeWidth={Math.max(2, width / 200)} /> : null}
      {a.noseTip ? <circle cx={a.noseTip.x} cy={a.noseTip.y} r={Math.max(4, width / 120)} fill={stroke} /> : null}
      {a.centre && a.noseTip ? <line x1={a.centre.x} y1={a.centre.y} x2={a.noseTip.x} y2={a.noseTip.y} stroke={stroke} strokeDasharray="6 4" strokeWidth={Math.max(1.5, width / 320)} /> : null}
      {a.sticker ? <circle cx={a.sticker.centre.x} cy={a.sticker.centre.y} r={a.sticker.radius} fill="none" stroke="#38bdf8" strokeWidth={2} /> : null}
    </svg>
  );
}

/** /capture: the camera (rear on phones) or a chosen video, the model drawing the outline live, Auto or Regular Capture, then the good shots. */
export default function CapturePage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const withCap = params.get("cap") !== "0";
  const provider = isProvider(session);
  const min = minGoodShots(session);
  const parentBaby = selectedBaby(session);
  const [baby, setBaby] = useState<PickedBaby | null>(provider || !parentBaby ? null : { identifier: parentBaby.identifier, name: parentBaby.name });

  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const sourceFileRef = useRef<File | null>(null);
  const workerRef = useRef<HeadContourWorkerClient | null>(null);
  const runRef = useRef(0);
  const shotId = useRef(1);

  const [phase, setPhase] = useState<Phase>("setup");
  const [source, setSource] = useState<"camera" | "video" | null>(null);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [model, setModel] = useState<"loading" | "ready" | string>("loading");
  const [overlay, setOverlay] = useState<Overlay | null>(null);
  const [status, setStatus] = useState<string>("");
  const [mode, setMode] = useState<Mode | null>(null);
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [shots, setShots] = useState<Shot[]>([]);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [video, setVideo] = useState<File | null>(null);
  const [videoNote, setVideoNote] = useState<string | null>(null);
  const [uploadFiles, setUploadFiles] = useState<File[] | null>(null);

  // The model loads in the background as soon as the page opens.
  useEffect(() => {
    let live = true;
    headContourWorker()
      .then((w) => {
        if (!live) return;
        workerRef.current = w;
        setModel("ready");
      })
      .catch((e: Error) => live && setModel(e.message || "The AI model could not be loaded"));
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

  const openCamera = async () => {
    setCameraError(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
      stopStream();
      streamRef.current = stream;
      sourceFileRef.current = null;
      setSource("camera");
      setPhase("live");
      const v = videoRef.current;
      if (v) {
        v.removeAttribute("src");
        v.srcObject = stream;
        await v.play().catch(() => undefined);
      }
      void preview();
    } catch (e) {
      setCameraError(`Crown could not open the camera (${e instanceof Error ? e.message : String(e)}). You can choose a video or photos instead.`);
    }
  };

  const openVideo = async (file: File) => {
    stopStream();
    sourceFileRef.current = file;
    setSource("video");
    setPhase("live");
    const v = videoRef.current;
    if (v) {
      v.srcObject = null;
      v.src = URL.createObjectURL(file);
      v.muted = true;
      await v.play().catch(() => undefined);
    }
    void preview();
  };

  /** Draws the current video frame (longest side `max`) and returns the canvas. */
  const grab = (max: number): HTMLCanvasElement | null => {
    const v = videoRef.current;
    if (!v || v.readyState < 2 || !v.videoWidth) return null;
    const size = scaled(v.videoWidth, v.videoHeight, max);
    const canvas = document.createElement("canvas");
    canvas.width = size.width;
    canvas.height = size.height;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return null;
    ctx.drawImage(v, 0, 0, size.width, size.height);
    return canvas;
  };

  const analyse = async (canvas: HTMLCanvasElement): Promise<PhotoAnalysis | null> => {
    const w = workerRef.current;
    if (!w) return null;
    const small = scaled(canvas.width, canvas.height, ANALYSIS_MAX_SIDE);
    const c = document.createElement("canvas");
    c.width = small.width;
    c.height = small.height;
    const ctx = c.getContext("2d", { willReadFrequently: true })!;
    ctx.drawImage(canvas, 0, 0, small.width, small.height);
    const frame = ctx.getImageData(0, 0, small.width, small.height);
    try {
      const { analysis } = await w.analyzeFrame(frame);
      setOverlay({ width: small.width, height: small.height, analysis });
      setStatus(reasonText(analysis));
      return analysis;
    } catch {
      return null;
    }
  };

  const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));

  /** The live preview: analyses frames one after another and draws the outline, until capture starts or the page closes. */
  const preview = async () => {
    const run = ++runRef.current;
    while (runRef.current === run) {
      const canvas = grab(ANALYSIS_MAX_SIDE);
      if (canvas && workerRef.current) await analyse(canvas);
      else await sleep(200);
      await sleep(30);
    }
  };

  const toShot = async (canvas: HTMLCanvasElement, analysis: PhotoAnalysis | null): Promise<Shot | null> => {
    const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/jpeg", 0.92));
    if (!blob) return null;
    return { id: shotId.current++, blob, url: URL.createObjectURL(blob), good: analysis ? analysis.accepted : null, reasons: analysis?.reasons ?? [] };
  };

  /** Records the model's verdict on one shot (in place, so the list being captured sees it too). */
  const judge = (kept: Shot[], id: number, a: PhotoAnalysis) => {
    const i = kept.findIndex((s) => s.id === id);
    if (i < 0) return;
    kept[i] = { ...kept[i]!, good: a.accepted, reasons: a.reasons };
    setShots((list) => list.map((s) => (s.id === id ? { ...s, good: a.accepted, reasons: a.reasons } : s)));
  };

  /** Judges the shots the model had no time for during Regular Capture, one after another. */
  const judgeRest = async (kept: Shot[], run: number) => {
    for (const shot of kept) {
      if (shot.good !== null || runRef.current !== run || !workerRef.current) continue;
      const bitmap = await createImageBitmap(shot.blob);
      const c = document.createElement("canvas");
      c.width = bitmap.width;
      c.height = bitmap.height;
      c.getContext("2d")?.drawImage(bitmap, 0, 0);
      const a = await analyse(c);
      if (a) judge(kept, shot.id, a);
    }
  };

  const finishCapture = (kept: Shot[]) => {
    setShots(kept);
    const goodOnes = kept.filter((s) => s.good !== false);
    setChosen(new Set((goodOnes.length > 0 ? goodOnes : kept).map((s) => s.id)));
    setSecondsLeft(null);
    setPhase("select");
    stopStream();
    videoRef.current?.pause();
  };

  const autoCapture = async () => {
    setMode("auto");
    const run = ++runRef.current;
    const kept: Shot[] = [];
    setShots([]);
    const v = videoRef.current;
    while (runRef.current === run && kept.length < AUTO_CAPTURE_SHOTS) {
      if (v && source === "video" && v.ended) break;
      const canvas = grab(SHOT_MAX_SIDE);
      if (!canvas) {
        await sleep(150);
        continue;
      }
      const analysis = await analyse(canvas);
      if (analysis?.accepted) {
        const shot = await toShot(canvas, analysis);
        if (shot) {
          kept.push(shot);
          setShots([...kept]);
        }
      }
      await sleep(30);
    }
    if (runRef.current === run) finishCapture(kept);
  };

  const regularCapture = async () => {
    setMode("regular");
    const run = ++runRef.current;
    const kept: Shot[] = [];
    setShots([]);
    setVideo(null);
    setVideoNote(null);
    const v = videoRef.current;
    // The video: the chosen file itself, or 10 seconds of the camera recorded as MP4 where the browser can.
    let recorder: MediaRecorder | null = null;
    const chunks: Blob[] = [];
    const file = sourceFileRef.current;
    if (file) {
      if (["mp4", "mov"].includes(extensionOf(file.name)) && file.size <= UPLOAD_LIMITS.maxBytes) setVideo(file);
      else setVideoNote("This video cannot be uploaded (only .mp4 or .mov up to 100 MB); the shots will be uploaded without it.");
    } else if (streamRef.current) {
      const type = recorderType();
      if (type) {
        recorder = new MediaRecorder(streamRef.current, { mimeType: type });
        recorder.ondataavailable = (e) => e.data.size > 0 && chunks.push(e.data);
        recorder.start(1000);
      } else {
        setVideoNote("This browser cannot record MP4 video; the shots will be uploaded without a video.");
      }
    }
    // Shots are taken on a clock; the model judges them as fast as it can, without holding the clock back.
    const started = performance.now();
    let judging = false;
    const verdicts: Array<Promise<void>> = [];
    while (runRef.current === run) {
      const elapsed = performance.now() - started;
      setSecondsLeft(Math.max(0, Math.ceil(CAPTURE_SECONDS - elapsed / 1000)));
      if (elapsed >= CAPTURE_SECONDS * 1000 || (v && source === "video" && v.ended)) break;
      const canvas = grab(SHOT_MAX_SIDE);
      if (canvas && kept.length < REGULAR_MAX_SHOTS) {
        const shot = await toShot(canvas, null);
        if (shot) {
          kept.push(shot);
          setShots([...kept]);
          if (workerRef.current && !judging) {
            judging = true;
            verdicts.push(
              analyse(canvas)
                .then((a) => {
                  if (a) judge(kept, shot.id, a);
                })
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
    if (recorder && recorder.state !== "inactive") {
      const stopped = new Promise<void>((r) => (recorder!.onstop = () => r()));
      recorder.stop();
      await stopped;
      const blob = new Blob(chunks, { type: "video/mp4" });
      if (blob.size > 0) setVideo(new File([blob], "capture.mp4", { type: "video/mp4" }));
    }
    if (runRef.current === run) {
      finishCapture(kept);
      void judgeRest(kept, run);
    }
  };

  const stop = () => {
    runRef.current++;
    finishCapture(shots);
  };

  const restart = () => {
    runRef.current++;
    for (const s of shots) URL.revokeObjectURL(s.url);
    setShots([]);
    setChosen(new Set());
    setVideo(null);
    setOverlay(null);
    setStatus("");
    setMode(null);
    setPhase("setup");
    setSource(null);
  };

  const toggle = (id: number) =>
    setChosen((c) => {
      const next = new Set(c);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const save = () => {
    const files = shots
      .filter((s) => chosen.has(s.id))
      .map((s, i) => new File([s.blob], `shot-${String(i + 1).padStart(2, "0")}.jpg`, { type: "image/jpeg" }));
    setUploadFiles(video ? [...files, video] : files);
  };

  const capturing = phase === "live" && mode !== null;

  return (
    <div className="capture-page">
      <div className="page-head">
        <h1>{withCap ? "Capture with the cap" : "Capture without a cap"}</h1>
        <p className="lead">
          Hold the phone above the head: the whole head outline, only the nose tip at the front. Auto Capture keeps {AUTO_CAPTURE_SHOTS} good shots
          and stops; Regular Capture records {CAPTURE_SECONDS} seconds. You need at least {min} good shots.{" "}
          <Link to={withCap ? "/instructions" : "/nocap-instructions/instructions"}>Read the instructions</Link>
        </p>
      </div>

      {provider ? <PatientPicker value={baby} onChange={setBaby} /> : baby ? <p>Baby: <strong>{baby.name}</strong></p> : <FormMessage tone="error">Please add your baby in your profile first.</FormMessage>}

      {phase === "setup" ? (
        <section className="panel capture-sources" aria-labelledby="source-title">
          <h2 id="source-title">Choose how to capture</h2>
          {cameraError ? <FormMessage tone="error">{cameraError}</FormMessage> : null}
          <div className="page-actions">
            <Button className="btn btn-primary" onPress={() => void openCamera()}>
              Open the camera
            </Button>
            <label className="btn btn-secondary file-btn">
              Choose a video
              <input className="sr-only" type="file" accept="video/mp4,video/quicktime,.mp4,.mov,video/*" onChange={(e) => e.currentTarget.files?.[0] && void openVideo(e.currentTarget.files[0])} />
            </label>
            <label className="btn btn-secondary file-btn">
              Choose photos
              <input
                className="sr-only"
                type="file"
                multiple
                accept=".jpg,.jpeg,.png,.mp4,.mov,image/jpeg,image/png,video/mp4,video/quicktime"
                onChange={(e) => {
                  const files = Array.from(e.currentTarget.files ?? []);
                  if (files.length > 0) setUploadFiles(files);
                  e.currentTarget.value = "";
                }}
              />
            </label>
          </div>
          <p className="muted small" role="status">
            {model === "loading" ? "Loading the AI check…" : model === "ready" ? "The AI check is ready." : `The AI check is not available (${model}). Regular Capture still works: pick the good shots yourself.`}
          </p>
        </section>
      ) : null}

      <div className={`capture-stage${phase === "live" ? "" : " is-hidden"}`}>
        <div className="capture-view">
          <video ref={videoRef} className="capture-video" playsInline muted aria-label={source === "camera" ? "Camera preview" : "Video preview"} />
          <LiveOverlay overlay={overlay} />
          {secondsLeft !== null ? (
            <span className="capture-timer" aria-hidden="true">
              {secondsLeft}s
            </span>
          ) : null}
        </div>
        <p className={`capture-status${overlay?.analysis.accepted ? " good" : ""}`} role="status" aria-live="polite" aria-atomic="true">
          {status || (model === "ready" ? "Looking for the head…" : model === "loading" ? "Loading the AI check…" : "AI check not available")}
        </p>
        {mode === "auto" ? (
          <p className="muted">
            Good shots: {shots.length} of {AUTO_CAPTURE_SHOTS}
          </p>
        ) : null}
        <div className="page-actions">
          {!capturing ? (
            <>
              <Button className="btn btn-primary" onPress={() => void autoCapture()} isDisabled={model !== "ready"}>
                Auto Capture
              </Button>
              <Button className="btn btn-primary" onPress={() => void regularCapture()}>
                Regular Capture
              </Button>
              <Button className="btn btn-ghost" onPress={restart}>
                Back
              </Button>
            </>
          ) : (
            <Button className="btn btn-secondary" onPress={stop}>
              Stop
            </Button>
          )}
        </div>
      </div>

      {phase === "select" ? (
        <section className="panel" aria-labelledby="select-title">
          <h2 id="select-title">Select good shots</h2>
          <p>
            Select at least {min} good shots: sharp, the whole head outline visible, only the nose tip at the front. Selected: {chosen.size}.
          </p>
          {videoNote ? <FormMessage tone="info">{videoNote}</FormMessage> : null}
          {video ? <p className="muted small">The video ({(video.size / (1024 * 1024)).toFixed(1)} MB) is uploaded with the shots.</p> : null}
          {shots.length === 0 ? <p className="empty">No shots were taken. Please try again.</p> : null}
          <ul className="shot-grid">
            {shots.map((s, i) => (
              <li key={s.id} className={`shot${chosen.has(s.id) ? " chosen" : ""}`}>
                <label>
                  <input type="checkbox" checked={chosen.has(s.id)} onChange={() => toggle(s.id)} />
                  <img src={s.url} alt={`Shot ${i + 1}`} />
                  <span className={`shot-verdict ${s.good === true ? "good" : s.good === false ? "bad" : ""}`}>
                    {s.good === true ? "Good" : s.good === false ? s.reasons.join("; ") || "Not good" : "Not checked"}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <div className="page-actions">
            <Button className="btn btn-primary" onPress={save} isDisabled={chosen.size < min || !baby}>
              Save
            </Button>
            <Button className="btn btn-ghost" onPress={restart}>
              Capture again
            </Button>
          </div>
        </section>
      ) : null}

      <UploadDialog
        isOpen={uploadFiles !== null}
        babyIdentifier={baby?.identifier ?? null}
        {...(baby ? { babyName: baby.name } : {})}
        initialFiles={uploadFiles ?? NO_FILES}
        onClose={(uploaded) => {
          setUploadFiles(null);
          if (uploaded) navigate(provider ? "/dashboard" : "/uploads");
        }}
      />
    </div>
  );
}

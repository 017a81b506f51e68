import { AUTO_CAPTURE_SHOTS, type KioskShot } from "@crown/core/kiosk/machine";
import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { frameMessage } from "@crown/core/measurement/verdict";
import { headContourWorker, type PhotoAnalysis } from "./inference.ts";

const ANALYSIS_MAX_SIDE = 640;
const SHOT_MAX_SIDE = 1600;

const scaled = (w: number, h: number, max: number) => {
  const k = Math.min(1, max / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)) };
};
const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));
const reasonText = (a: PhotoAnalysis) => frameMessage(a);

interface Overlay {
  readonly width: number;
  readonly height: number;
  readonly analysis: PhotoAnalysis;
}

/**
 * The rear camera full screen with the model's outline and the reason for a bad frame. Auto Capture
 * keeps good frames until there are 10 (the machine then moves to review on its own).
 */
export function Capture({ taken, onShot, onStop, onCancel }: { taken: number; onShot: (shot: KioskShot) => void; onStop: () => void; onCancel: () => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [overlay, setOverlay] = useState<Overlay | null>(null);
  const [status, setStatus] = useState("Starting the camera…");
  const [problem, setProblem] = useState<string | null>(null);
  const takenRef = useRef(taken);
  takenRef.current = taken;
  const onShotRef = useRef(onShot);
  onShotRef.current = onShot;

  useEffect(() => {
    let live = true;
    let stream: MediaStream | null = null;
    let nextId = 1;
    const run = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" }, width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false });
      } catch (e) {
        setProblem(`The camera could not be opened (${e instanceof Error ? e.message : String(e)}).`);
        return;
      }
      if (!live) return stream.getTracks().forEach((t) => t.stop());
      const video = videoRef.current!;
      video.srcObject = stream;
      await video.play().catch(() => undefined);
      setStatus("Loading the AI model…");
      let worker;
      try {
        worker = await headContourWorker();
      } catch (e) {
        setProblem(`The AI model could not be loaded (${e instanceof Error ? e.message : String(e)}).`);
        return;
      }
      setStatus("Point the camera at the top of the baby's head");
      while (live && takenRef.current < AUTO_CAPTURE_SHOTS) {
        if (video.readyState < 2 || !video.videoWidth) {
          await sleep(100);
          continue;
        }
        const full = scaled(video.videoWidth, video.videoHeight, SHOT_MAX_SIDE);
        const canvas = document.createElement("canvas");
        canvas.width = full.width;
        canvas.height = full.height;
        canvas.getContext("2d")!.drawImage(video, 0, 0, full.width, full.height);
        const small = scaled(full.width, full.height, ANALYSIS_MAX_SIDE);
        const c = document.createElement("canvas");
        c.width = small.width;
        c.height = small.height;
        const ctx = c.getContext("2d", { willReadFrequently: true })!;
        ctx.drawImage(canvas, 0, 0, small.width, small.height);
        let analysis: PhotoAnalysis;
        try {
          analysis = (await worker.analyzeFrame(ctx.getImageData(0, 0, small.width, small.height))).analysis;
        } catch {
          await sleep(100);
          continue;
        }
        if (!live) break;
        setOverlay({ width: small.width, height: small.height, analysis });
        setStatus(reasonText(analysis));
        if (analysis.accepted) {
          const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/jpeg", 0.92));
          if (blob && live) onShotRef.current({ id: `shot-${Date.now()}-${nextId++}`, image: blob });
        }
        await sleep(30);
      }
    };
    void run();
    return () => {
      live = false;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  const a = overlay?.analysis;
  const stroke = a?.accepted ? "#22c55e" : "#f97316";
  return (
    <div className="capture" data-testid="capture">
      <video ref={videoRef} className="capture-video" playsInline muted autoPlay />
      {overlay && a ? (
        <svg className="capture-overlay" viewBox={`0 0 ${overlay.width} ${overlay.height}`} preserveAspectRatio="xMidYMid slice" aria-hidden="true">
          {a.outline.length > 2 ? <polygon points={a.outline.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke={stroke} strokeWidth={Math.max(2, overlay.width / 200)} /> : null}
          {a.noseTip ? <circle cx={a.noseTip.x} cy={a.noseTip.y} r={Math.max(4, overlay.width / 120)} fill={stroke} /> : null}
        </svg>
      ) : null}
      <div className="capture-bar">
        <p className={`capture-status ${a?.accepted ? "good" : "bad"}`} role="status" aria-live="polite">
          {problem ?? status}
        </p>
        <p className="capture-count" data-testid="shot-count">
          Auto Capture: {taken} / {AUTO_CAPTURE_SHOTS} good shots
        </p>
        <div className="row">
          <Button className="big secondary" onPress={onCancel}>
            Change patient
          </Button>
          <Button className="big" onPress={onStop} isDisabled={taken === 0}>
            Review shots
          </Button>
        </div>
      </div>
    </div>
  );
}

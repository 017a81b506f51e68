import { AUTO_CAPTURE_SHOTS } from "@crown/core/capture/rules";
import type { KioskShot } from "@crown/core/kiosk/machine";
import { frameMessage } from "@crown/core/measurement/verdict";
import { drawScaled, headContourWorker, type JudgedFrame, jpegOf, judgeFrame, SHOT_MAX_SIDE } from "@crown/inference/web";
import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";

const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));

/**
 * The rear camera full screen with the model's outline and the reason for a bad frame. Auto Capture
 * keeps good frames until there are 10 (the machine then moves to review on its own).
 */
export function Capture({ taken, onShot, onStop, onCancel }: { taken: number; onShot: (shot: KioskShot) => void; onStop: () => void; onCancel: () => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [overlay, setOverlay] = useState<JudgedFrame | null>(null);
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
        const canvas = drawScaled(video, SHOT_MAX_SIDE);
        if (!canvas) {
          await sleep(100);
          continue;
        }
        let judged: JudgedFrame | null;
        try {
          judged = await judgeFrame(worker, canvas);
        } catch {
          judged = null;
        }
        if (!judged) {
          await sleep(100);
          continue;
        }
        if (!live) break;
        setOverlay(judged);
        setStatus(frameMessage(judged.analysis));
        // Auto Capture keeps good frames only; the machine applies the same rule (capture/rules.ts).
        if (judged.analysis.accepted) {
          const blob = await jpegOf(canvas);
          if (blob && live) onShotRef.current({ id: `shot-${Date.now()}-${nextId++}`, image: blob, verdict: judged.analysis.verdict, reasons: judged.analysis.reasons });
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

import { AUTO_CAPTURE_SHOTS } from "@crown/core/capture/rules";
import type { KioskShot } from "@crown/core/kiosk/machine";
import { frameMessages } from "@crown/core/measurement/verdict";
import { drawScaled, headContourWorker, type JudgedFrame, jpegOf, judgeFrame, SHOT_MAX_SIDE } from "@crown/inference/web";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { coreText } from "../i18n/i18n.ts";

const sleep = (ms: number) => new Promise((r) => window.setTimeout(r, ms));

/** What the bar says, kept as words to look up at render: the language may change mid-capture. */
type Status = { readonly step: "starting" | "loadingModel" | "point" } | { readonly frame: readonly string[] };
type Problem = { readonly what: "cameraFailed" | "modelFailed"; readonly reason: string };

/**
 * The rear camera full screen with the model's outline and the reason for a bad frame. Auto Capture
 * keeps good frames until there are 10 (the machine then moves to review on its own).
 */
export function Capture({
  taken,
  onShot,
  onStop,
  onCancel,
  languageToggle,
}: {
  taken: number;
  onShot: (shot: KioskShot) => void;
  onStop: () => void;
  onCancel: () => void;
  /** English / Español, in the camera's bar (the session's language can change during capture). */
  languageToggle?: ReactNode;
}) {
  const { t } = useTranslation("capture");
  const videoRef = useRef<HTMLVideoElement>(null);
  const [overlay, setOverlay] = useState<JudgedFrame | null>(null);
  const [status, setStatus] = useState<Status>({ step: "starting" });
  const [problem, setProblem] = useState<Problem | null>(null);
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
        setProblem({ what: "cameraFailed", reason: e instanceof Error ? e.message : String(e) });
        return;
      }
      if (!live) return stream.getTracks().forEach((t) => t.stop());
      const video = videoRef.current!;
      video.srcObject = stream;
      await video.play().catch(() => undefined);
      setStatus({ step: "loadingModel" });
      let worker;
      try {
        worker = await headContourWorker();
      } catch (e) {
        setProblem({ what: "modelFailed", reason: e instanceof Error ? e.message : String(e) });
        return;
      }
      setStatus({ step: "point" });
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
        setStatus({ frame: frameMessages(judged.analysis) });
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
  const steps = { starting: t("capture.starting"), loadingModel: t("capture.loadingModel"), point: t("capture.point") };
  const problems = { cameraFailed: (reason: string) => t("capture.cameraFailed", { reason }), modelFailed: (reason: string) => t("capture.modelFailed", { reason }) };
  // Core's frame hints, each in the session's language, joined as core joins them.
  const said = problem ? problems[problem.what](problem.reason) : "step" in status ? steps[status.step] : status.frame.map(coreText).join("; ");
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
          {said}
        </p>
        <p className="capture-count" data-testid="shot-count">
          {t("capture.count", { taken, total: AUTO_CAPTURE_SHOTS })}
        </p>
        <div className="row">
          <Button className="big secondary" onPress={onCancel}>
            {t("capture.change")}
          </Button>
          <Button className="big" onPress={onStop} isDisabled={taken === 0}>
            {t("capture.review")}
          </Button>
        </div>
        {languageToggle}
      </div>
    </div>
  );
}

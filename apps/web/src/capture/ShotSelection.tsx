import type { CaptureContext, CaptureEvent } from "@crown/core/capture/machine";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { number } from "../i18n/dates.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { FormMessage } from "../ui/fields.tsx";
import type { ShotImage, VideoNote } from "./useCameraCapture.ts";

/** "Select good shots": each shot with the model's verdict; Save needs the minimum good shots (the machine's SAVE guard). */
export function ShotSelection(p: {
  readonly context: CaptureContext;
  readonly minimum: number;
  readonly canSave: boolean;
  readonly video: { file: File | null; note: VideoNote | null };
  readonly send: (event: CaptureEvent) => void;
  readonly onRestart: () => void;
}) {
  const { t } = useTranslation("capture");
  const { shots, selected } = p.context;
  return (
    <section className="panel" aria-labelledby="select-title">
      <h2 id="select-title">{t("shots.title")}</h2>
      <p>{t("shots.intro", { min: p.minimum, selected: selected.length })}</p>
      {p.video.note ? <FormMessage tone="info">{p.video.note === "notUploadable" ? t("shots.videoNotUploadable") : t("shots.noRecorder")}</FormMessage> : null}
      {p.video.file ? <p className="muted small">{t("shots.video", { size: number(p.video.file.size / (1024 * 1024)) })}</p> : null}
      {shots.length === 0 ? <p className="empty">{t("shots.none")}</p> : null}
      <ul className="shot-grid">
        {shots.map((s, i) => {
          const chosen = selected.includes(s.id);
          return (
            <li key={s.id} className={`shot${chosen ? " chosen" : ""}`}>
              <label>
                <input type="checkbox" checked={chosen} onChange={() => p.send({ type: "TOGGLE_SHOT", id: s.id })} />
                <img src={(s.image as ShotImage).url} alt={t("shots.shot", { number: i + 1 })} />
                <span className={`shot-verdict ${s.verdict === "accept" ? "good" : s.verdict === "refer" ? "unsure" : s.verdict ? "bad" : ""}`}>
                  {s.verdict === "accept" ? t("shots.good") : s.verdict === "refer" ? t("shots.unsure") : s.verdict ? s.reasons?.map(uiMessage).join("; ") || t("shots.notGood") : t("shots.notChecked")}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="page-actions">
        <Button className="btn btn-primary" onPress={() => p.send({ type: "SAVE" })} isDisabled={!p.canSave}>
          {t("shots.save")}
        </Button>
        <Button className="btn btn-ghost" onPress={p.onRestart}>
          {t("shots.again")}
        </Button>
      </div>
    </section>
  );
}

import type { CaptureContext, CaptureEvent } from "@crown/core/capture/machine";
import { Button } from "react-aria-components";
import { FormMessage } from "../ui/fields.tsx";
import type { ShotImage } from "./useCameraCapture.ts";

/** "Select good shots": each shot with the model's verdict; Save needs the minimum good shots (the machine's SAVE guard). */
export function ShotSelection(p: {
  readonly context: CaptureContext;
  readonly minimum: number;
  readonly canSave: boolean;
  readonly video: { file: File | null; note: string | null };
  readonly send: (event: CaptureEvent) => void;
  readonly onRestart: () => void;
}) {
  const { shots, selected } = p.context;
  return (
    <section className="panel" aria-labelledby="select-title">
      <h2 id="select-title">Select good shots</h2>
      <p>
        Select at least {p.minimum} good shots: sharp, the whole head outline visible, only the nose tip at the front. Selected: {selected.length}.
      </p>
      {p.video.note ? <FormMessage tone="info">{p.video.note}</FormMessage> : null}
      {p.video.file ? <p className="muted small">The video ({(p.video.file.size / (1024 * 1024)).toFixed(1)} MB) is uploaded with the shots.</p> : null}
      {shots.length === 0 ? <p className="empty">No shots were taken. Please try again.</p> : null}
      <ul className="shot-grid">
        {shots.map((s, i) => {
          const chosen = selected.includes(s.id);
          return (
            <li key={s.id} className={`shot${chosen ? " chosen" : ""}`}>
              <label>
                <input type="checkbox" checked={chosen} onChange={() => p.send({ type: "TOGGLE_SHOT", id: s.id })} />
                <img src={(s.image as ShotImage).url} alt={`Shot ${i + 1}`} />
                <span className={`shot-verdict ${s.verdict === "accept" ? "good" : s.verdict === "refer" ? "unsure" : s.verdict ? "bad" : ""}`}>
                  {s.verdict === "accept" ? "Good" : s.verdict === "refer" ? "Unsure: the reviewer will check it" : s.verdict ? s.reasons?.join("; ") || "Not good" : "Not checked"}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="page-actions">
        <Button className="btn btn-primary" onPress={() => p.send({ type: "SAVE" })} isDisabled={!p.canSave}>
          Save
        </Button>
        <Button className="btn btn-ghost" onPress={p.onRestart}>
          Capture again
        </Button>
      </div>
    </section>
  );
}

import type { KioskContext } from "@crown/core/kiosk/machine";
import { Header } from "./shared.tsx";

const STEP_TEXT = { prepare: "Preparing the report", upload: "Uploading the shots", finalize: "Sending to the physician" } as const;


/** prepare → upload → finalize, and the queue kept in memory while the network is down. */
export function Uploading({ context }: { context: KioskContext }) {
  const progress = context.upload;
  const fraction = progress ? (progress.step === "finalize" ? 1 : progress.total > 0 ? progress.sent / progress.total : 0) : 0;
  return (
    <section className="panel narrow">
      <Header title="Uploading" subtitle={progress ? STEP_TEXT[progress.step] : ""} />
      <progress max={1} value={fraction} aria-label="Upload progress" data-testid="upload-progress" />
      <p>
        {progress?.sent ?? 0} of {progress?.total ?? 0} shots sent
      </p>
      {!context.online ? <p className="error">Waiting for the network; {context.queue.length} shots are queued on this tablet until they are sent.</p> : null}
    </section>
  );
}

import { type KioskContext, kioskMinimumShots } from "@crown/core/kiosk/machine";
import { Button } from "react-aria-components";
import { Header, type Send } from "./shared.tsx";

/** The shots before upload: any bad one removed; the upload needs the minimum for who signed in. */
export function Review({ context, urls, send }: { context: KioskContext; urls: Map<string, string>; send: Send }) {
  const minimum = kioskMinimumShots(context);
  const enough = context.shots.length >= minimum;
  return (
    <section className="panel">
      <Header title={`Review the shots of ${context.patient?.name ?? ""}`} subtitle={`${context.shots.length} shots; remove any bad one. At least ${minimum} are needed.`} />
      {context.error ? (
        <p className="error" role="alert">
          Oops! There was some error: {context.error}
        </p>
      ) : null}
      <ul className="shots" data-testid="shots">
        {context.shots.map((s, i) => (
          <li key={s.id}>
            <img src={urls.get(s.id)} alt={`Shot ${i + 1}`} draggable={false} />
            <Button className="remove" aria-label={`Remove shot ${i + 1}`} onPress={() => send({ type: "DISCARD_SHOT", id: s.id })}>
              ✕
            </Button>
          </li>
        ))}
      </ul>
      <div className="row">
        <Button className="big secondary" onPress={() => send({ type: "RETAKE" })}>
          Retake
        </Button>
        <Button className="big" isDisabled={!enough} onPress={() => send({ type: "UPLOAD" })}>
          Upload {context.shots.length} shots
        </Button>
      </div>
    </section>
  );
}

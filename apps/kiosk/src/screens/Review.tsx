import { type KioskContext, kioskMinimumShots } from "@crown/core/kiosk/machine";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Header, type Send } from "./shared.tsx";

/** The shots before upload: any bad one removed; the upload needs the minimum for who signed in. */
export function Review({ context, urls, send }: { context: KioskContext; urls: Map<string, string>; send: Send }) {
  const { t } = useTranslation("capture");
  const minimum = kioskMinimumShots(context);
  const enough = context.shots.length >= minimum;
  return (
    <section className="panel">
      <Header title={t("review.title", { name: context.patient?.name ?? "" })} subtitle={t("review.subtitle", { count: context.shots.length, minimum })} />
      {context.error ? (
        <p className="error" role="alert">
          {t("review.failed", { message: context.error })}
        </p>
      ) : null}
      <ul className="shots" data-testid="shots">
        {context.shots.map((s, i) => (
          <li key={s.id}>
            <img src={urls.get(s.id)} alt={t("review.shot", { number: i + 1 })} draggable={false} />
            <Button className="remove" aria-label={t("review.remove", { number: i + 1 })} onPress={() => send({ type: "DISCARD_SHOT", id: s.id })}>
              ✕
            </Button>
          </li>
        ))}
      </ul>
      <div className="row">
        <Button className="big secondary" onPress={() => send({ type: "RETAKE" })}>
          {t("review.retake")}
        </Button>
        <Button className="big" isDisabled={!enough} onPress={() => send({ type: "UPLOAD" })}>
          {t("review.upload", { count: context.shots.length })}
        </Button>
      </div>
    </section>
  );
}

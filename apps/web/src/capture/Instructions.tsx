import { Trans, useTranslation } from "react-i18next";
import { Link, useParams } from "react-router-dom";
import { useSession } from "../session/store.ts";
import { Collapsible } from "./Collapsible.tsx";
import { Illustration, type IllustrationName } from "./Illustrations.tsx";
import { isProvider, minimumShotsFor } from "./rules.ts";

interface Step {
  readonly title: string;
  readonly art: IllustrationName;
  readonly body: React.ReactNode;
}

function LiabilityNotice() {
  const { t } = useTranslation("capture");
  return (
    <Collapsible title={t("instructions.notice.title")} number="!" defaultOpen={false} tone="notice">
      <div className="step-body">
        <Illustration name="notice" />
        <div>
          <p>{t("instructions.notice.privacy")}</p>
          <p>{t("instructions.notice.caution")}</p>
        </div>
      </div>
    </Collapsible>
  );
}

function StepList({ steps }: { steps: ReadonlyArray<Step> }) {
  return (
    <ol className="steps">
      {steps.map((s, i) => (
        <Collapsible key={s.title} number={i + 1} title={s.title}>
          <div className="step-body">
            <Illustration name={s.art} />
            <div>{s.body}</div>
          </div>
        </Collapsible>
      ))}
      <LiabilityNotice />
    </ol>
  );
}

export type CapVariant = "capture" | "quiz" | "optional-quiz";

/** The cap instructions: /instructions (then capture), /quiz-instructions and /optional-quiz-instructions (then the quiz). */
export function CapInstructions({ variant }: { variant: CapVariant }) {
  const { t } = useTranslation("capture");
  const session = useSession();
  const provider = isProvider(session);
  const physician = session?.userRole === "physician";
  const min = minimumShotsFor(session);
  const steps: Step[] = [
    { title: t("instructions.cap.placeCap"), art: "cap", body: <p>{t("instructions.cap.placeCapBody")}</p> },
    { title: t("instructions.cap.sticker"), art: "sticker", body: <p>{t("instructions.cap.stickerBody")}</p> },
    {
      title: t("instructions.cap.hold"),
      art: "hold",
      body: (
        <ul>
          <li>{t("instructions.cap.holdCarSeat")}</li>
          <li>{t("instructions.cap.holdTwo")}</li>
          <li>{t("instructions.cap.holdUnderFour")}</li>
          <li>{t("instructions.cap.holdOverFour")}</li>
        </ul>
      ),
    },
    { title: t("instructions.cap.nose"), art: "nose", body: <p>{t("instructions.cap.noseBody")}</p> },
    {
      title: t("instructions.cap.video"),
      art: "video",
      body: (
        <p>
          <Trans t={t} i18nKey="instructions.cap.videoBody" components={{ strong: <strong /> }} />
        </p>
      ),
    },
    { title: t("instructions.cap.select"), art: "select", body: <p>{t("instructions.cap.selectBody", { min })}</p> },
    { title: t("instructions.cap.save"), art: "save", body: <p>{t("instructions.cap.saveBody")}</p> },
  ];
  if (physician) {
    steps.push({ title: t("instructions.cap.results"), art: "results", body: <p>{t("instructions.cap.resultsBody")}</p> });
  }
  const next = variant === "capture" ? "/capture?cap=1" : variant === "quiz" ? "/quiz" : "/optional-quiz";
  return (
    <section className="card card-wide instructions" aria-labelledby="page-title">
      <h1 id="page-title">{variant === "capture" ? t("instructions.cap.title") : t("instructions.cap.quizTitle")}</h1>
      <p className="card-subtitle">{provider ? t("instructions.cap.providerIntro") : t("instructions.cap.parentIntro")}</p>
      <p className="prescription">{provider ? t("instructions.cap.providerMinimum", { min }) : t("instructions.cap.parentMinimum", { min })}</p>
      <StepList steps={steps} />
      <div className="form-actions">
        <Link className="btn btn-primary" to={next}>
          {t("instructions.next")}
        </Link>
      </div>
    </section>
  );
}

/** /nocap-instructions/{instructions|quiz}: hair instead of a cap; in instructions mode no Next, the quiz reminder instead. */
export function NoCapInstructions() {
  const { t } = useTranslation("capture");
  const { mode } = useParams();
  const session = useSession();
  const provider = isProvider(session);
  const quizMode = mode === "quiz";
  const steps: Step[] = [
    { title: t("instructions.noCap.hair"), art: "hair", body: <p>{t("instructions.noCap.hairBody")}</p> },
    { title: t("instructions.noCap.hold"), art: "hold", body: <p>{t("instructions.noCap.holdBody")}</p> },
    { title: t("instructions.noCap.nose"), art: "nose", body: <p>{t("instructions.noCap.noseBody")}</p> },
    { title: t("instructions.noCap.video"), art: "video", body: <p>{t("instructions.noCap.videoBody")}</p> },
    { title: t("instructions.noCap.select"), art: "select", body: <p>{t("instructions.noCap.selectBody")}</p> },
    { title: t("instructions.noCap.save"), art: "save", body: <p>{t("instructions.noCap.saveBody")}</p> },
  ];
  return (
    <section className="card card-wide instructions" aria-labelledby="page-title">
      <h1 id="page-title">{t("instructions.noCap.title")}</h1>
      <p className="card-subtitle">{provider ? t("instructions.noCap.providerIntro") : t("instructions.noCap.parentIntro")}</p>
      <StepList steps={steps} />
      {quizMode ? (
        <div className="form-actions">
          <Link className="btn btn-primary" to="/no-cap-quiz">
            {t("instructions.next")}
          </Link>
        </div>
      ) : (
        <>
          <p className="banner">
            {t("instructions.noCap.quizReminder")} <Link to="/nocap-instructions/quiz">{t("instructions.noCap.takeQuiz")}</Link>
          </p>
          <div className="page-actions">
            <Link className="btn btn-secondary" to="/capture?cap=0">
              {t("instructions.noCap.openCamera")}
            </Link>
          </div>
        </>
      )}
    </section>
  );
}

/** /select-cap-mode: 'Do you have {product} Kit?' */
export function SelectCapMode() {
  const { t } = useTranslation("capture");
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{t("instructions.kit.title")}</h1>
      <p className="card-subtitle">{t("instructions.kit.intro")}</p>
      <ul className="choice-rows">
        <li>
          <Link className="choice-row" to="/nocap-instructions/instructions">
            <Illustration name="hair" />
            <span>{t("instructions.kit.noCap")}</span>
          </Link>
        </li>
        <li>
          <Link className="choice-row" to="/instructions">
            <Illustration name="sticker" />
            <span>{t("instructions.kit.haveCap")}</span>
          </Link>
        </li>
      </ul>
    </section>
  );
}

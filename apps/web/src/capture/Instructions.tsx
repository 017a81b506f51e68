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
  return (
    <Collapsible title="Cybersecurity and liability notice" number="!" defaultOpen={false} tone="notice">
      <div className="step-body">
        <Illustration name="notice" />
        <div>
          <p>
            Photos and videos travel to Crown over an encrypted connection and are kept only for the baby's head-shape reports. Only you, the
            baby's provider and Crown's reviewers can see them. Do not share your password, and sign out on shared devices.
          </p>
          <p>
            Crown is a screening aid, not a diagnosis. The figures in a report come from photos and can be wrong; they do not replace an
            examination by a doctor. Keep the baby safe at all times while taking photos: never leave the baby alone on a raised surface, and
            stop if the baby is upset.
          </p>
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
  const session = useSession();
  const provider = isProvider(session);
  const physician = session?.userRole === "physician";
  const min = minimumShotsFor(session);
  const steps: Step[] = [
    { title: "Place the cap", art: "cap", body: <p>Pull the cap over the head until it is fully stretched and smooth. It must not cover the ears.</p> },
    { title: "Place the sticker", art: "sticker", body: <p>Put a round sticker on the cap, roughly at the centre of the head as seen from above.</p> },
    {
      title: "Hold the baby properly",
      art: "hold",
      body: (
        <ul>
          <li>In a car seat: the head must not rest on the seat.</li>
          <li>Otherwise two people: one holds the baby, the other takes the photos.</li>
          <li>Under four months: hold the baby horizontally.</li>
          <li>Over four months: sit the baby on the ground, a lap or a seat, holding the chin.</li>
        </ul>
      ),
    },
    { title: "Only the tip of the nose", art: "nose", body: <p>From above, only the tip of the nose must be visible at the front of the head, with the ears at the sides.</p> },
    {
      title: "Take the video or the shots",
      art: "video",
      body: (
        <p>
          Take a 10-second video with <strong>Regular Capture</strong>, or use <strong>Auto Capture</strong>: Crown's AI checks every frame and
          keeps 10 good shots, then stops.
        </p>
      ),
    },
    {
      title: "Select good shots",
      art: "select",
      body: (
        <p>
          Pick the sharp shots where the whole head outline and only the nose tip are visible. You need at least {min} good shots.
        </p>
      ),
    },
    { title: "Save", art: "save", body: <p>Press Save to upload the shots and the video. We will review them and get back to you.</p> },
  ];
  if (physician) {
    steps.push({
      title: "Results",
      art: "results",
      body: <p>A notification arrives when the report is ready (usually within one business day). Log in and click Results to download it.</p>,
    });
  }
  const next = variant === "capture" ? "/capture?cap=1" : variant === "quiz" ? "/quiz" : "/optional-quiz";
  return (
    <section className="card card-wide instructions" aria-labelledby="page-title">
      <h1 id="page-title">{variant === "capture" ? "How to scan with the cap" : "Before the quiz: how to scan with the cap"}</h1>
      <p className="card-subtitle">
        {provider
          ? "Follow these steps to scan a patient's head in your office. Scan every infant aged 0-7 months monthly."
          : "Follow these steps to scan your baby's head at home. Scan once a month until month 7; results are usually ready within one business day."}
      </p>
      <p className="prescription">
        {provider
          ? `At least ${min} good shots are needed for a report.`
          : `At least ${min} good shots are needed for a report. Ask your baby's doctor about at-home exercises.`}
      </p>
      <StepList steps={steps} />
      <div className="form-actions">
        <Link className="btn btn-primary" to={next}>
          Next
        </Link>
      </div>
    </section>
  );
}

/** /nocap-instructions/{instructions|quiz}: hair instead of a cap; in instructions mode no Next, the quiz reminder instead. */
export function NoCapInstructions() {
  const { mode } = useParams();
  const session = useSession();
  const provider = isProvider(session);
  const quizMode = mode === "quiz";
  const steps: Step[] = [
    { title: "Prepare the hair", art: "hair", body: <p>Wet the hair lightly so it lies flat. Do not use hair products.</p> },
    { title: "Hold the baby", art: "hold", body: <p>Two people: one holds the baby still, the other takes the photos from above.</p> },
    { title: "Only the tip of the nose", art: "nose", body: <p>From above, only the tip of the nose must be visible at the front of the head.</p> },
    { title: "Take a 10-second video", art: "video", body: <p>Record a 10-second video from above, or let Auto Capture keep 10 good shots.</p> },
    { title: "Select five good shots", art: "select", body: <p>Select five good shots (at least 5) where the whole head outline is sharp and visible.</p> },
    { title: "Save", art: "save", body: <p>Save to upload them. Multiple scans are welcome: more good shots make a more reliable report.</p> },
  ];
  return (
    <section className="card card-wide instructions" aria-labelledby="page-title">
      <h1 id="page-title">How to scan without a cap</h1>
      <p className="card-subtitle">
        {provider
          ? "Without a cap, wet hair must lie flat so the head outline is visible. Scan every infant aged 0-7 months monthly."
          : "Without a cap, your baby's wet hair must lie flat so the head outline is visible. Scan once a month until month 7."}
      </p>
      <StepList steps={steps} />
      {quizMode ? (
        <div className="form-actions">
          <Link className="btn btn-primary" to="/no-cap-quiz">
            Next
          </Link>
        </div>
      ) : (
        <>
          <p className="banner">
            Have you taken the quiz? If not, please go and take it first (it takes &lt; 5 min).{" "}
            <Link to="/nocap-instructions/quiz">Take the no-cap quiz</Link>
          </p>
          <div className="page-actions">
            <Link className="btn btn-secondary" to="/capture?cap=0">
              Open the camera
            </Link>
          </div>
        </>
      )}
    </section>
  );
}

/** /select-cap-mode: 'Do you have {product} Kit?' */
export function SelectCapMode() {
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">Do you have Crown Kit?</h1>
      <p className="card-subtitle">The kit has a soft cap and round stickers. You can also scan without it.</p>
      <ul className="choice-rows">
        <li>
          <Link className="choice-row" to="/nocap-instructions/instructions">
            <Illustration name="hair" />
            <span>I dont have cap</span>
          </Link>
        </li>
        <li>
          <Link className="choice-row" to="/instructions">
            <Illustration name="sticker" />
            <span>I have cap</span>
          </Link>
        </li>
      </ul>
    </section>
  );
}

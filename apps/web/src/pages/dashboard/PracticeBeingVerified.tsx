import { PRACTICE_BEING_VERIFIED_MESSAGE } from "@crown/core/practice/statuses";
import { useCallback, useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Link } from "react-router-dom";
import { getProfile } from "../../api/accounts.ts";
import type { Profile } from "../../api/types.ts";
import type { Session } from "../../machines/session.ts";
import { updateSession } from "../../session/store.ts";
import { FormMessage } from "../../ui/fields.tsx";

/**
 * The practice's verification as the server answers it now: asked when the screen opens, when the tab
 * comes back into view and on "Check again". Once verified, the session says so and the caller's
 * normal screen takes this one's place. Only the profile is asked for, which a practice being
 * verified may read: nothing here can answer 403 (ADR 60).
 */
function usePracticeCheck() {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [checked, setChecked] = useState<"idle" | "checking" | "still">("idle");
  const check = useCallback(async (byHand: boolean) => {
    if (byHand) setChecked("checking");
    try {
      const { results } = await getProfile();
      setProfile(results);
      if (results.practice_verification === "verified") updateSession({ practiceVerification: "verified" });
      else if (byHand) setChecked("still");
    } catch {
      if (byHand) setChecked("idle");
    }
  }, []);
  useEffect(() => {
    void check(false);
    const onVisible = () => document.visibilityState === "visible" && void check(false);
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [check]);
  return { profile, checked, check };
}

function CheckAgain({ checked, onCheck }: { checked: "idle" | "checking" | "still"; onCheck: () => void }) {
  return (
    <div className="page-actions">
      <Button className="btn btn-secondary" isDisabled={checked === "checking"} onPress={onCheck}>
        Check again
      </Button>
      {checked === "still" ? <FormMessage tone="info">Your practice is still being verified.</FormMessage> : null}
    </div>
  );
}

/** The physician's dashboard while the practice is being verified: what is happening, and what they can do meanwhile. */
export function PracticeBeingVerifiedDashboard({ session, title }: { session: Session; title: string }) {
  const { profile, checked, check } = usePracticeCheck();
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
      </div>
      <section className="panel verification-panel" aria-labelledby="verification-title">
        <h2 id="verification-title">Your practice is being verified</h2>
        <p>{PRACTICE_BEING_VERIFIED_MESSAGE}</p>
        <p>
          Crown checks each new practice, with the NPI number you gave when you signed up, before families can find it in the provider search. We will
          e-mail you at <strong>{session.email}</strong> when it is verified, and this page will then show your reports.
        </p>
        {profile?.npi ? (
          <dl className="facts">
            <dt>NPI number</dt>
            <dd>{profile.npi}</dd>
          </dl>
        ) : null}
        <CheckAgain checked={checked} onCheck={() => void check(true)} />
      </section>
      <div className="dash-grid">
        <section className="panel" aria-labelledby="meanwhile-title">
          <h2 id="meanwhile-title">Meanwhile you can</h2>
          <ul className="link-list">
            <li>
              <Link to="/optional-quiz-instructions">Take the cap quiz</Link>, so you and your staff know what a good head photo looks like.
            </li>
            <li>
              <Link to="/workflow">Read how Crown works</Link>, from the first scan to the report.
            </li>
            <li>
              <Link to="/help-center">Browse the Help Center</Link>.
            </li>
            <li>
              <Link to="/profile">Complete your profile</Link>, for example your fax number.
            </li>
          </ul>
        </section>
        <section className="panel" aria-labelledby="after-title">
          <h2 id="after-title">Once your practice is verified</h2>
          <ul className="plain-list">
            <li>Families can choose you in the provider search.</li>
            <li>You can add patients and scan them, and read their results.</li>
            <li>You can add your staff and pair kiosks for your office.</li>
          </ul>
        </section>
      </div>
    </>
  );
}

/** A practice screen (patients, results, staff, capture, kiosks) opened while the practice is being verified. */
export function PracticeBeingVerifiedScreen() {
  const { checked, check } = usePracticeCheck();
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">Your practice is being verified</h1>
      <p>{PRACTICE_BEING_VERIFIED_MESSAGE}</p>
      <CheckAgain checked={checked} onCheck={() => void check(true)} />
      <Link className="btn btn-primary" to="/dashboard">
        Go to Home
      </Link>
    </section>
  );
}

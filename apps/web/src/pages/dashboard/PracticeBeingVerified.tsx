import { PRACTICE_BEING_VERIFIED_MESSAGE } from "@crown/core/accounts/practice-statuses";
import { useCallback, useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { getProfile } from "../../api/account-pages.ts";
import type { Profile } from "../../api/types.ts";
import { uiMessage } from "../../i18n/i18n.ts";
import type { Session } from "../../session/machine.ts";
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
  const { t } = useTranslation("dashboard");
  return (
    <div className="page-actions">
      <Button className="btn btn-secondary" isDisabled={checked === "checking"} onPress={onCheck}>
        {t("verification.checkAgain")}
      </Button>
      {checked === "still" ? <FormMessage tone="info">{t("verification.still")}</FormMessage> : null}
    </div>
  );
}

/** The physician's dashboard while the practice is being verified: what is happening, and what they can do meanwhile. */
export function PracticeBeingVerifiedDashboard({ session, title }: { session: Session; title: string }) {
  const { t } = useTranslation("dashboard");
  const { profile, checked, check } = usePracticeCheck();
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
      </div>
      <section className="panel verification-panel" aria-labelledby="verification-title">
        <h2 id="verification-title">{t("verification.title")}</h2>
        <p>{uiMessage(PRACTICE_BEING_VERIFIED_MESSAGE)}</p>
        <p>
          <Trans t={t} i18nKey="verification.how" values={{ email: session.email }} components={{ strong: <strong /> }} />
        </p>
        {profile?.npi ? (
          <dl className="facts">
            <dt>{t("verification.npi")}</dt>
            <dd>{profile.npi}</dd>
          </dl>
        ) : null}
        <CheckAgain checked={checked} onCheck={() => void check(true)} />
      </section>
      <div className="dash-grid">
        <section className="panel" aria-labelledby="meanwhile-title">
          <h2 id="meanwhile-title">{t("verification.meanwhile")}</h2>
          <ul className="link-list">
            <li>
              <Trans t={t} i18nKey="verification.quiz" components={{ go: <Link to="/optional-quiz-instructions" /> }} />
            </li>
            <li>
              <Trans t={t} i18nKey="verification.workflow" components={{ go: <Link to="/workflow" /> }} />
            </li>
            <li>
              <Trans t={t} i18nKey="verification.help" components={{ go: <Link to="/help-center" /> }} />
            </li>
            <li>
              <Trans t={t} i18nKey="verification.profile" components={{ go: <Link to="/profile" /> }} />
            </li>
          </ul>
        </section>
        <section className="panel" aria-labelledby="after-title">
          <h2 id="after-title">{t("verification.after")}</h2>
          <ul className="plain-list">
            <li>{t("verification.families")}</li>
            <li>{t("verification.patients")}</li>
            <li>{t("verification.staff")}</li>
          </ul>
        </section>
      </div>
    </>
  );
}

/** A practice screen (patients, results, staff, capture, kiosks) opened while the practice is being verified. */
export function PracticeBeingVerifiedScreen() {
  const { t } = useTranslation("dashboard");
  const { checked, check } = usePracticeCheck();
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{t("verification.title")}</h1>
      <p>{uiMessage(PRACTICE_BEING_VERIFIED_MESSAGE)}</p>
      <CheckAgain checked={checked} onCheck={() => void check(true)} />
      <Link className="btn btn-primary" to="/dashboard">
        {t("verification.home")}
      </Link>
    </section>
  );
}

import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router-dom";
import { getProfile } from "../../api/account-pages.ts";
import { SecondFactorSetup } from "../../security/SecondFactorSetup.tsx";
import { useProof } from "../../security/useProof.tsx";
import { homeFor } from "../../session/home.ts";
import { updateSession, useSession } from "../../session/store.ts";
import { secondFactorDue } from "@crown/core/onboarding/steps";

/**
 * /two-step: physicians (after the BAA), their staff, reviewers and admins set up two-step sign-in
 * before anything else (issue 44); the server refuses their every other call until then. Core's
 * onboarding step decides who comes here; the page leaves by the step the server answers next.
 */
export default function TwoStep() {
  const { t } = useTranslation("security");
  const session = useSession();
  const navigate = useNavigate();
  const { withProof, dialog } = useProof();
  if (!session) return null;
  if (!secondFactorDue(session.step)) return <Navigate to={homeFor(session)} replace />;

  const done = async () => {
    const { results } = await getProfile();
    updateSession({ step: results.step, isFirstLogin: results.first_time_login, isQuizTime: results.is_quiz_time });
    navigate(homeFor({ ...session, step: results.step }), { replace: true });
  };

  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">{t("setup.title")}</h1>
      <p className="card-subtitle">{t("setup.subtitle")}</p>
      <SecondFactorSetup run={withProof} onDone={() => void done()} />
      {dialog}
    </section>
  );
}

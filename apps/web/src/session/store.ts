import { useSelector } from "@xstate/react";
import { ApiError, configureApi, crown } from "../api/crown.ts";
import type { Baby, Profile } from "../api/types.ts";
import { createSessionActor, type Session, sessionFromSignIn } from "./machine.ts";
import { forgetToken, keptToken } from "./persist.ts";
import { SECOND_FACTOR_STEP, secondFactorDue } from "@crown/core/onboarding/steps";
import { SESSION_ENDED } from "@crown/core/shared/messages";
import { uiMessage } from "../i18n/i18n.ts";

/** The one session actor of the tab, reachable from React (through @xstate/react) and from the API client. */
export const sessionActor = createSessionActor();
sessionActor.start();

configureApi({
  getToken: () => sessionActor.getSnapshot().context.session?.token ?? null,
  // A signed-in user's 401 means the session ended (revoked, expired, signed out elsewhere): the sign-in
  // page says so, not the server's "not authorised", which reads as if they did something wrong.
  onUnauthorised: () => {
    if (sessionActor.getSnapshot().matches("signedIn")) sessionActor.send({ type: "UNAUTHORISED", message: uiMessage(SESSION_ENDED) });
  },
  onBaaRequired: () => {
    const session = sessionActor.getSnapshot().context.session;
    // The server's 403 BaaRequired: the agreement is the step now.
    if (session?.userRole === "physician" && session.baaSigned) sessionActor.send({ type: "UPDATE", patch: { baaSigned: false, step: "baa" } });
  },
  onSecondFactorSetup: () => {
    const session = sessionActor.getSnapshot().context.session;
    // The server's 403 SecondFactorSetupRequired (a reset by an admin): setting it up is the step now.
    if (session && !secondFactorDue(session.step)) sessionActor.send({ type: "UPDATE", patch: { step: SECOND_FACTOR_STEP } });
  },
  onPracticeBeingVerified: () => {
    const session = sessionActor.getSnapshot().context.session;
    // The server's 403 PracticeBeingVerified: the being-verified dashboard replaces the practice screens.
    if (session?.userRole === "physician" && session.practiceVerification !== "being_verified") {
      sessionActor.send({ type: "UPDATE", patch: { practiceVerification: "being_verified" } });
    }
  },
});

/**
 * A tab opened without a session of its own resumes the browser's (the shared token, ADR 32): the
 * profile answer carries what sign-in did. A token the server no longer accepts is forgotten.
 */
export const resumeSession = async (): Promise<void> => {
  const token = keptToken();
  if (!token || sessionActor.getSnapshot().context.session) return;
  try {
    const { results } = await crown.call((api) => api.user.profile.$get(), { token, keepSessionOn401: true, quiet: true });
    sessionActor.send({ type: "RESUMED", session: sessionFromSignIn({ ...results, token }) });
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus === 401) forgetToken();
  }
};

export const useSession = (): Session | null => useSelector(sessionActor, (s) => s.context.session);
export const useLists = () => useSelector(sessionActor, (s) => s.context.lists);
export const useNotice = () => useSelector(sessionActor, (s) => s.context.notice);
export const useLeftByChoice = () => useSelector(sessionActor, (s) => s.context.leftByChoice);
export const updateSession = (patch: Partial<Session>) => sessionActor.send({ type: "UPDATE", patch });

export const selectedBaby = (s: Session | null): Baby | null =>
  s ? (s.babies.find((b) => b.identifier === s.selectedBabyId) ?? s.babies[0] ?? null) : null;

/** Results are shown to a parent only when the selected baby has a physician other than 'No Physician'. */
export const babyHasPhysician = (b: Baby | null): boolean =>
  Boolean(b?.physician && b.physician.identifier !== "no-physician" && b.physician.name.trim().toLowerCase() !== "no physician");

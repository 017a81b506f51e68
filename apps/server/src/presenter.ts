import { Onboarding } from "@crown/core";
import { runUseCase, type SessionPresenter } from "@crown/http";

/** Sign-in and profile answers, composed here so the accounts routes do not depend on onboarding. */
export const sessionPresenter: SessionPresenter = {
  signIn: (c, user, token) => runUseCase(c, Onboarding.signInAnswer(user, token)),
  profile: (c, user, profile) => runUseCase(c, Onboarding.profileAnswer(user, profile)),
};

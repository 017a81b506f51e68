import { BAA_REQUIRED_STATUS, PRACTICE_BEING_VERIFIED } from "@crown/core/accounts/practice-statuses";
import { createClient, DEFAULT_API_BASE, messageOf as messageOrFallback } from "@crown/client";
import i18next from "i18next";
import { uiMessage } from "../i18n/i18n.ts";
import { apiBase } from "../i18n/language.ts";
import { requestEnded, requestStarted } from "./pending.ts";

/**
 * The portal's Crown client (@crown/client, ADR 0143): every call names its route through `hc<AppType>`.
 * Here only what is the portal's: the API address in the portal's language, the session's token, the
 * loader, and what a 401 or a 403 means for the session.
 */

export { ApiError, encodePassword } from "@crown/client";

/** core's SECOND_FACTOR_SETUP_STATUS (its module brings Effect, which the sign-in page does not load). */
export const SECOND_FACTOR_SETUP_REQUIRED = "SecondFactorSetupRequired";
/** core's SECOND_FACTOR_STEP_STATUS: the password was right and the sign-in's second step is due. */
export const SECOND_FACTOR_STEP_REQUIRED = "SecondFactorRequired";

export const API_BASE = import.meta.env.VITE_API_BASE ?? DEFAULT_API_BASE;

/** The API in the portal's current language (`/api/v1/es/...` answers in Spanish, ADR 76). */
export const localizedApiBase = () => apiBase(API_BASE);

/** core's `errors.unauthenticated` (its module brings Effect, which the sign-in page does not load), in the portal's language. */
export const unauthorisedMessage = (): string => uiMessage("You are not authorised to perform this action");
/** When the server gives no message (unreachable, or an answer that is not Crown's), in the portal's language. */
export const fallbackMessage = (): string => i18next.t("shell.failed");

interface Hooks {
  getToken: () => string | null;
  onUnauthorised: (message: string) => void;
  /** A 403 naming the unsigned BAA: the session's flag is stale, the agreement is due. */
  onBaaRequired: () => void;
  /** A 403 naming the practice as being verified: the session's flag is stale. */
  onPracticeBeingVerified: () => void;
  /** A 403 naming a second factor still to set up: the session's step is stale. */
  onSecondFactorSetup?: () => void;
}
let hooks: Hooks = { getToken: () => null, onUnauthorised: () => undefined, onBaaRequired: () => undefined, onPracticeBeingVerified: () => undefined };
export const configureApi = (h: Hooks) => {
  hooks = h;
};

export const crown = createClient({
  base: localizedApiBase,
  token: () => hooks.getToken(),
  onUnauthorised: (message) => hooks.onUnauthorised(message),
  onForbidden: (status) => {
    if (status === BAA_REQUIRED_STATUS) hooks.onBaaRequired();
    if (status === PRACTICE_BEING_VERIFIED) hooks.onPracticeBeingVerified();
    if (status === SECOND_FACTOR_SETUP_REQUIRED) hooks.onSecondFactorSetup?.();
  },
  onRequest: () => {
    requestStarted();
    return requestEnded;
  },
  messages: {
    unreachable: () => "The Crown server could not be reached. Please check your connection and try again.",
    failed: fallbackMessage,
    unauthorised: unauthorisedMessage,
  },
});

export const messageOf = (error: unknown, fallback = fallbackMessage()): string => messageOrFallback(error, fallback);

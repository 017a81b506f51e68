import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import type { Language } from "../shared/i18n.ts";
import type { OutgoingMail } from "../shared/ports.ts";

/** The accounts e-mails, in the recipient's language (copy: core/src/i18n/mails, ADR 77). */

export const verificationMail = (to: string, firstName: string, url: string, ttlHours: number, language: Language = "en"): OutgoingMail => {
  const t = mailText(language, "verification");
  return composeIn(language, {
    to,
    subject: t("subject"),
    greeting: greeting(language, firstName),
    paragraphs: [t("thanks"), t("expires", { hours: ttlHours })],
    action: { label: t("action"), url },
  });
};

export const passwordResetMail = (to: string, firstName: string, url: string, ttlMinutes: number, language: Language = "en"): OutgoingMail => {
  const t = mailText(language, "reset");
  return composeIn(language, {
    to,
    subject: t("subject"),
    greeting: greeting(language, firstName),
    paragraphs: [t("received"), t("expires", { minutes: ttlMinutes })],
    action: { label: t("action"), url },
  });
};

/**
 * The answer to a reset request for an address with no account (or a blocked one): the same work
 * and the same mail queue as a real reset, so the answer's timing says nothing (ADR 22).
 */
export const resetUnavailableMail = (to: string, signUpUrl: string, language: Language = "en"): OutgoingMail => {
  const t = mailText(language, "reset");
  return composeIn(language, {
    to,
    subject: t("subject"),
    greeting: greeting(language, null),
    paragraphs: [t("unavailable"), t("unavailableHelp")],
    action: { label: t("signUp"), url: signUpUrl },
  });
};

export const passwordChangedMail = (to: string, firstName: string, language: Language = "en"): OutgoingMail => {
  const t = mailText(language, "passwordChanged");
  return composeIn(language, { to, subject: t("subject"), greeting: greeting(language, firstName), paragraphs: [t("changed"), t("notYou")] });
};

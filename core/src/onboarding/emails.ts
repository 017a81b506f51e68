import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import type { Language } from "../shared/i18n.ts";
import { composeMail } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/ports.ts";

/** Onboarding's e-mails, in the recipient's language (copy: core/src/i18n/mails, ADR 77). */

export const approvedMail = (to: string, firstName: string, signInUrl: string, language: Language = "en"): OutgoingMail => {
  const t = mailText(language, "approval");
  return composeIn(language, {
    to,
    subject: t("approvedSubject"),
    greeting: greeting(language, firstName),
    paragraphs: [t("approved")],
    action: { label: mailText(language, "common")("signIn"), url: signInUrl },
  });
};

export const rejectedMail = (to: string, firstName: string, reason: string | null, language: Language = "en"): OutgoingMail => {
  const t = mailText(language, "approval");
  return composeIn(language, {
    to,
    subject: t("rejectedSubject"),
    greeting: greeting(language, firstName),
    paragraphs: [t("rejected"), ...(reason ? [t("reason", { reason })] : []), t("mistake")],
  });
};

export const invitationAcceptedMail = (to: string, firstName: string, text: string, signInUrl: string): OutgoingMail =>
  composeMail({ to, subject: "Your Crown invitation was accepted", greeting: greeting("en", firstName), paragraphs: [text], action: { label: "Sign in", url: signInUrl } });

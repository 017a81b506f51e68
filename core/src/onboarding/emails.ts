import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import type { Language } from "../shared/i18n.ts";
import type { User } from "../accounts/model.ts";
import { type NoticeParams, noticeText } from "../i18n/mails/notices.ts";
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

/** Tells the physician someone accepted: the same words as the notification, in the physician's language. */
export const invitationAcceptedMail = (
  to: Pick<User, "email" | "firstName" | "language">,
  key: "invitationAcceptedBaby" | "invitationAcceptedStaff",
  params: NoticeParams,
  signInUrl: string,
): OutgoingMail =>
  composeIn(to.language, {
    to: to.email,
    subject: mailText(to.language, "invitation")("acceptedSubject"),
    greeting: greeting(to.language, to.firstName),
    paragraphs: [noticeText(to.language, key, params)],
    action: { label: mailText(to.language, "common")("signIn"), url: signInUrl },
  });

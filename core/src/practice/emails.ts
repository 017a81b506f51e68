import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import type { Language } from "../shared/i18n.ts";
import type { OutgoingMail } from "../shared/ports.ts";
import { mailName } from "./policy.ts";

/**
 * The e-mails a practice causes (issue 15, ADR 56): fixed templates, in the recipient's language (copy:
 * core/src/i18n/mails, ADR 77). The only account text they carry is the physician's name, on one line
 * and bounded; nothing a practice types about a patient (names, notes) reaches an e-mail: the invitee
 * reads that in the portal, signed in.
 */

const hello = (language: Language, firstName: string) => greeting(language, firstName ? mailName(firstName) : null);

type InvitationText = ReturnType<typeof mailText<"invitation">>;

/** The invitation copy in `language`, with the physician's name made one bounded line for every line that names them. */
const fromPhysician = (language: Language, physicianName: string) => ({ t: mailText(language, "invitation"), physician: mailName(physicianName) });

/** An invitation to set the password of an account a practice made: staff and caregivers differ only in what it says. */
const setPasswordMail = (to: string, physicianName: string, url: string, language: Language, says: (t: InvitationText, physician: string) => ReadonlyArray<string>): OutgoingMail => {
  const { t, physician } = fromPhysician(language, physicianName);
  return composeIn(language, {
    to,
    subject: t("staffSubject", { physician }),
    greeting: greeting(language, null),
    paragraphs: says(t, physician),
    action: { label: t("setPasswordAction"), url },
  });
};

export const staffInvitationMail = (to: string, physicianName: string, staffType: string, url: string, ttlDays: number, language: Language = "en"): OutgoingMail =>
  setPasswordMail(to, physicianName, url, language, (t, physician) => [t(staffType === "office_admin" ? "staffAsOfficeAdmin" : "staffAsNurse", { physician }), t("setPassword", { days: ttlDays })]);

export const caregiverInvitationMail = (to: string, physicianName: string, url: string, ttlDays: number, language: Language = "en"): OutgoingMail =>
  setPasswordMail(to, physicianName, url, language, (t, physician) => [t("caregiverRegistered", { physician }), t("caregiverOpen"), t("caregiverExpires", { days: ttlDays })]);

/** A practice's request that an existing account join it (as a patient's family or as staff), to review in the portal. */
const reviewRequestMail = (
  to: string,
  firstName: string,
  physicianName: string,
  url: string,
  language: Language,
  says: (t: InvitationText, physician: string) => { subject: string; paragraphs: ReadonlyArray<string> },
): OutgoingMail => {
  const { t, physician } = fromPhysician(language, physicianName);
  return composeIn(language, { to, ...says(t, physician), greeting: hello(language, firstName), action: { label: t("reviewRequest"), url } });
};

export const patientLinkRequestMail = (to: string, firstName: string, physicianName: string, url: string, language: Language = "en"): OutgoingMail =>
  reviewRequestMail(to, firstName, physicianName, url, language, (t, physician) => ({
    subject: t("patientRequestSubject", { physician }),
    paragraphs: [t("patientRequest", { physician }), t("patientRequestConsent")],
  }));

export const staffLinkRequestMail = (to: string, firstName: string, physicianName: string, staffType: string, url: string, language: Language = "en"): OutgoingMail =>
  reviewRequestMail(to, firstName, physicianName, url, language, (t, physician) => ({
    subject: t("staffRequestSubject", { physician }),
    paragraphs: [t(staffType === "office_admin" ? "staffRequestAsOfficeAdmin" : "staffRequestAsNurse", { physician }), t("staffRequestConsent")],
  }));

export const linkDeclinedMail = (to: string, firstName: string, signInUrl: string, language: Language = "en"): OutgoingMail => {
  const t = mailText(language, "invitation");
  return composeIn(language, {
    to,
    subject: t("declinedSubject"),
    greeting: hello(language, firstName),
    paragraphs: [t("declined")],
    action: { label: mailText(language, "common")("signIn"), url: signInUrl },
  });
};

/**
 * To an address whose account cannot take what the practice asked (a physician's as a caregiver, a
 * parent's as staff, a blocked account): nothing changed. Every add with an e-mail sends one e-mail,
 * so neither the answer nor its timing tells whether the address has an account (ADR 22, 56).
 */
export const nothingLinkedMail = (to: string, physicianName: string, asked: "patient" | "staff", language: Language = "en"): OutgoingMail => {
  const { t, physician } = fromPhysician(language, physicianName);
  return composeIn(language, {
    to,
    subject: t("nothingLinkedSubject", { physician }),
    greeting: greeting(language, null),
    paragraphs: [t(asked === "patient" ? "nothingLinkedPatient" : "nothingLinkedStaff", { physician }), t("otherAddress")],
  });
};

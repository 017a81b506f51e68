import { composeMail } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/ports.ts";
import { mailName } from "./policy.ts";

/**
 * The e-mails a practice causes (issue 15, ADR 56): fixed templates. The only account text they carry
 * is the physician's name, on one line and bounded; nothing a practice types about a patient (names,
 * notes) reaches an e-mail: the invitee reads that in the portal, signed in.
 */

const hello = (firstName: string) => (firstName ? `Hello ${mailName(firstName)},` : "Hello,");
const staffRole = (staffType: string) => (staffType === "office_admin" ? "an office admin" : "a nurse");

export const staffInvitationMail = (to: string, physicianName: string, staffType: string, url: string, ttlDays: number): OutgoingMail =>
  composeMail({
    to,
    subject: `${mailName(physicianName)} invited you to Crown`,
    greeting: "Hello,",
    paragraphs: [
      `${mailName(physicianName)} added you as ${staffRole(staffType)} on Crown, the infant head-shape screening portal.`,
      `Set a password to accept the invitation. The link works once and expires in ${ttlDays} days.`,
    ],
    action: { label: "Set your password", url },
  });

export const caregiverInvitationMail = (to: string, physicianName: string, url: string, ttlDays: number): OutgoingMail =>
  composeMail({
    to,
    subject: `${mailName(physicianName)} invited you to Crown`,
    greeting: "Hello,",
    paragraphs: [
      `${mailName(physicianName)} registered your baby on Crown, the infant head-shape screening portal, with this e-mail address as the caregiver's.`,
      "Set a password to open your account: you will find your baby there, and you can upload monthly head scans.",
      `The link works once and expires in ${ttlDays} days.`,
    ],
    action: { label: "Set your password", url },
  });

export const patientLinkRequestMail = (to: string, firstName: string, physicianName: string, url: string): OutgoingMail =>
  composeMail({
    to,
    subject: `${mailName(physicianName)} asks to add a patient to your Crown account`,
    greeting: hello(firstName),
    paragraphs: [
      `${mailName(physicianName)} registered a baby as a patient on Crown with your e-mail address as the caregiver's.`,
      "Nothing is added to your account until you accept. Sign in to see the request, then accept or decline it.",
    ],
    action: { label: "Review the request", url },
  });

export const staffLinkRequestMail = (to: string, firstName: string, physicianName: string, staffType: string, url: string): OutgoingMail =>
  composeMail({
    to,
    subject: `${mailName(physicianName)} asks you to join their staff on Crown`,
    greeting: hello(firstName),
    paragraphs: [
      `${mailName(physicianName)} asks you to act as ${staffRole(staffType)} for their practice on Crown.`,
      "You act for the practice only after you accept. Sign in to see the request, then accept or decline it.",
    ],
    action: { label: "Review the request", url },
  });

export const linkDeclinedMail = (to: string, firstName: string, signInUrl: string): OutgoingMail =>
  composeMail({
    to,
    subject: "Your request on Crown was declined",
    greeting: hello(firstName),
    paragraphs: ["Someone you asked to link on Crown declined, so nothing was linked. Your notifications on Crown tell which request it was."],
    action: { label: "Sign in", url: signInUrl },
  });

/**
 * To an address whose account cannot take what the practice asked (a physician's as a caregiver, a
 * parent's as staff, a blocked account): nothing changed. Every add with an e-mail sends one e-mail,
 * so neither the answer nor its timing tells whether the address has an account (ADR 22, 56).
 */
export const nothingLinkedMail = (to: string, physicianName: string, asked: "patient" | "staff"): OutgoingMail =>
  composeMail({
    to,
    subject: `${mailName(physicianName)} used your e-mail address on Crown`,
    greeting: "Hello,",
    paragraphs: [
      asked === "patient"
        ? `${mailName(physicianName)} registered a patient on Crown with this e-mail address as the caregiver's. The account of this address cannot hold a patient, so nothing was added to it.`
        : `${mailName(physicianName)} asked to add this e-mail address to their staff on Crown. The account of this address cannot act as staff, so nothing was changed.`,
      "If you are the person the practice meant, please give them another e-mail address.",
    ],
  });

import { composeMail } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/ports.ts";

const hello = (firstName: string) => (firstName ? `Hello ${firstName},` : "Hello,");

export const approvedMail = (to: string, firstName: string, signInUrl: string): OutgoingMail =>
  composeMail({
    to,
    subject: "Your Crown account is approved",
    greeting: hello(firstName),
    paragraphs: ["An administrator reviewed your information and approved your Crown account. You can sign in now."],
    action: { label: "Sign in", url: signInUrl },
  });

export const rejectedMail = (to: string, firstName: string, reason: string | null): OutgoingMail =>
  composeMail({
    to,
    subject: "Your Crown account request",
    greeting: hello(firstName),
    paragraphs: [
      "An administrator reviewed your information and could not approve your Crown account.",
      ...(reason ? [`Reason: ${reason}`] : []),
      "If you think this is a mistake, please contact Crown support.",
    ],
  });

export const staffInvitationMail = (to: string, physicianName: string, staffType: string, url: string, ttlDays: number): OutgoingMail =>
  composeMail({
    to,
    subject: `${physicianName} invited you to Crown`,
    greeting: "Hello,",
    paragraphs: [
      `${physicianName} added you as ${staffType === "office_admin" ? "an office admin" : "a nurse"} on Crown, the infant head-shape screening portal.`,
      `Set a password to accept the invitation. The link works once and expires in ${ttlDays} days.`,
    ],
    action: { label: "Set your password", url },
  });

export const staffAddedMail = (to: string, firstName: string, physicianName: string, signInUrl: string): OutgoingMail =>
  composeMail({
    to,
    subject: `You can now act for ${physicianName} on Crown`,
    greeting: hello(firstName),
    paragraphs: [`${physicianName} added you to their staff on Crown. Choose them in the physician selector after you sign in.`],
    action: { label: "Sign in", url: signInUrl },
  });

export const caregiverInvitationMail = (to: string, physicianName: string, babyName: string, url: string, ttlDays: number): OutgoingMail =>
  composeMail({
    to,
    subject: `${physicianName} invited you to follow ${babyName}'s head shape on Crown`,
    greeting: "Hello,",
    paragraphs: [
      `${physicianName} registered ${babyName} on Crown, the infant head-shape screening portal, with this e-mail address as the caregiver's.`,
      "Set a password to open your account: you will find your baby there, and you can upload monthly head scans.",
      `The link works once and expires in ${ttlDays} days.`,
    ],
    action: { label: "Set your password", url },
  });

export const patientLinkedMail = (to: string, firstName: string, physicianName: string, babyName: string, signInUrl: string): OutgoingMail =>
  composeMail({
    to,
    subject: `${physicianName} added ${babyName} to your Crown account`,
    greeting: hello(firstName),
    paragraphs: [`${physicianName} registered ${babyName} as a patient on Crown with your e-mail address. ${babyName} now appears in your account.`],
    action: { label: "Sign in", url: signInUrl },
  });

export const invitationAcceptedMail = (to: string, firstName: string, text: string, signInUrl: string): OutgoingMail =>
  composeMail({ to, subject: "Your Crown invitation was accepted", greeting: hello(firstName), paragraphs: [text], action: { label: "Sign in", url: signInUrl } });

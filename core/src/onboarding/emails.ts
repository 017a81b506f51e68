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

export const invitationAcceptedMail = (to: string, firstName: string, text: string, signInUrl: string): OutgoingMail =>
  composeMail({ to, subject: "Your Crown invitation was accepted", greeting: hello(firstName), paragraphs: [text], action: { label: "Sign in", url: signInUrl } });

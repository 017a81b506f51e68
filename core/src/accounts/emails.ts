import { composeMail } from "../shared/mail.ts";
import type { OutgoingMail } from "../shared/ports.ts";

const hello = (firstName: string) => `Hello ${firstName},`;

export const verificationMail = (to: string, firstName: string, url: string, ttlHours: number): OutgoingMail =>
  composeMail({
    to,
    subject: "Verify your e-mail address for Crown",
    greeting: hello(firstName),
    paragraphs: [
      "Thank you for signing up for Crown. Please confirm that this is your e-mail address.",
      `The link works once and expires in ${ttlHours} hours.`,
    ],
    action: { label: "Verify e-mail address", url },
  });

export const passwordResetMail = (to: string, firstName: string, url: string, ttlMinutes: number): OutgoingMail =>
  composeMail({
    to,
    subject: "Reset your Crown password",
    greeting: hello(firstName),
    paragraphs: [
      "We received a request to reset the password of your Crown account.",
      `The link works once and expires in ${ttlMinutes} minutes. If you did not ask for it, your password stays as it is.`,
    ],
    action: { label: "Reset password", url },
  });

/**
 * The answer to a reset request for an address with no account (or a blocked one): the same work
 * and the same mail queue as a real reset, so the answer's timing says nothing (ADR 22).
 */
export const resetUnavailableMail = (to: string, signUpUrl: string): OutgoingMail =>
  composeMail({
    to,
    subject: "Reset your Crown password",
    greeting: "Hello,",
    paragraphs: [
      "We received a request to reset the password of a Crown account for this e-mail address, but no password can be reset for it.",
      "If you have not signed up yet, you can create an account. If you think this is a mistake, please contact Crown support. If you did not ask for this, you can ignore this e-mail.",
    ],
    action: { label: "Sign up", url: signUpUrl },
  });

export const passwordChangedMail = (to: string, firstName: string): OutgoingMail =>
  composeMail({
    to,
    subject: "Your Crown password was changed",
    greeting: hello(firstName),
    paragraphs: [
      "The password of your Crown account was just changed, and every other signed-in device was signed out.",
      "If this was not you, reset your password at once and contact Crown support.",
    ],
  });

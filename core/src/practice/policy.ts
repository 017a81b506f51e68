import type { RateRule } from "../shared/throttle.ts";

/**
 * Invitation e-mails a practice may cause per day (issue 15, ADR 56): every add with an e-mail address
 * counts, whether it invites a new person or asks an existing account's consent, so the limit tells
 * nothing about who has an account. Staff acting for the physician count against the same practice.
 */
export const INVITATIONS_PER_PRACTICE: RateRule = { limit: 50, windowSeconds: 24 * 3600 };

/** The rate limiter's bucket of a practice's invitation e-mails. */
export const invitationBucket = (physicianId: string) => `practice-invitations:${physicianId}`;

export const INVITATION_LIMIT_MESSAGE = "Too many invitations today. Please try again tomorrow.";

/** The longest a person's name runs in an e-mail: names are the only account text a template carries. */
export const MAIL_NAME_MAX = 80;

/** A name as an e-mail may show it: one line, at most MAIL_NAME_MAX characters. */
export const mailName = (name: string) => {
  const line = name.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, " ").trim();
  return line.length > MAIL_NAME_MAX ? `${line.slice(0, MAIL_NAME_MAX - 1)}…` : line;
};

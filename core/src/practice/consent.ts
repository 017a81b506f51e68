import { setup, transition } from "xstate";

/**
 * A practice's request to link someone who already has an account (issue 15, ADR 56): a baby to a
 * parent's account, or a staff member to the practice. Nothing is linked until the invitee accepts;
 * the machine answers every "may I?" about a request, from its status as it is now.
 */
export const CONSENT_STATUSES = ["pending", "accepted", "declined", "withdrawn"] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export type ConsentEvent = { type: "ACCEPT" } | { type: "DECLINE" } | { type: "WITHDRAW" };

export const consentMachine = setup({ types: {} as { events: ConsentEvent } }).createMachine({
  id: "consent",
  initial: "pending",
  states: {
    pending: { on: { ACCEPT: "accepted", DECLINE: "declined", WITHDRAW: "withdrawn" } },
    accepted: { type: "final" },
    declined: { type: "final" },
    withdrawn: { type: "final" },
  },
});

/** The status after `event`, or null when the request's status does not allow it. */
export const consentAfter = (status: ConsentStatus, event: ConsentEvent["type"]): ConsentStatus | null => {
  const snapshot = consentMachine.resolveState({ value: status, context: undefined });
  if (!snapshot.can({ type: event })) return null;
  const [next] = transition(consentMachine, snapshot, { type: event });
  return next.value as ConsentStatus;
};

export const consentCan = (status: ConsentStatus, event: ConsentEvent["type"]) => consentAfter(status, event) !== null;

export const PENDING_CONSENT = "pending" satisfies ConsentStatus;

/**
 * A staff delegation carries its consent in its own columns: offered (not accepted, not ended) is
 * pending; accepted and live is accepted; ended before acceptance is declined by the staff member
 * or withdrawn by the practice.
 */
export const delegationConsent = (d: { acceptedAt: Date | null; endedAt: Date | null; endedBy: string | null; staffId: string }): ConsentStatus =>
  d.acceptedAt !== null ? "accepted" : d.endedAt === null ? "pending" : d.endedBy === d.staffId ? "declined" : "withdrawn";

/** Only an accepted delegation that has not ended lets its staff member act (the repository's `findActive` asks the same). */
export const delegationActs = (d: { acceptedAt: Date | null; endedAt: Date | null }) => d.acceptedAt !== null && d.endedAt === null;

import { assign, setup, transition } from "xstate";

export * from "./statuses.ts";
import type { UserStatus, UserType } from "./statuses.ts";

export interface AccountContext {
  readonly type: UserType;
  readonly emailVerified: boolean;
}

export type AccountEvent =
  | { type: "EMAIL_VERIFIED" }
  /** The parent's first baby is saved; `needsApproval` when its physician or referral code must be checked. */
  | { type: "FIRST_BABY_REGISTERED"; needsApproval: boolean }
  | { type: "APPROVED" }
  | { type: "REJECTED" }
  | { type: "BLOCKED" }
  | { type: "UNBLOCKED" };

/** The account status lifecycle of api-contract.md, as one machine the server persists by its state value. */
export const accountStatusMachine = setup({
  types: {} as { context: AccountContext; events: AccountEvent; input: AccountContext },
  guards: {
    isParent: ({ context }) => context.type === "parent",
    needsApprovalByType: ({ context }) => context.type === "other",
    needsApproval: ({ event }) => event.type === "FIRST_BABY_REGISTERED" && event.needsApproval,
    emailVerified: ({ context }) => context.emailVerified,
  },
}).createMachine({
  id: "accountStatus",
  context: ({ input }) => input,
  initial: "EmailVerificationRequired" satisfies UserStatus,
  states: {
    EmailVerificationRequired: {
      on: {
        EMAIL_VERIFIED: [
          { guard: "isParent", target: "AdditionalInformationRequired", actions: assign({ emailVerified: true }) },
          { guard: "needsApprovalByType", target: "WaitingApproval", actions: assign({ emailVerified: true }) },
          { target: "Active", actions: assign({ emailVerified: true }) },
        ],
        BLOCKED: "Blocked",
      },
    },
    AdditionalInformationRequired: {
      on: {
        FIRST_BABY_REGISTERED: [{ guard: "needsApproval", target: "WaitingApproval" }, { target: "Active" }],
        BLOCKED: "Blocked",
      },
    },
    WaitingApproval: {
      on: { APPROVED: "Active", REJECTED: "Blocked", BLOCKED: "Blocked" },
    },
    Active: { on: { BLOCKED: "Blocked" } },
    Blocked: {
      on: {
        UNBLOCKED: [{ guard: "emailVerified", target: "Active" }, { target: "EmailVerificationRequired" }],
      },
    },
  },
});

/**
 * The next status of an account for an event, or null when the event is not allowed in its
 * current status. Pure: the stored status and verification flag are the whole state.
 */
export const nextStatus = (current: UserStatus, context: AccountContext, event: AccountEvent): UserStatus | null => {
  const snapshot = accountStatusMachine.resolveState({ value: current, context });
  if (!snapshot.can(event)) return null;
  const [next] = transition(accountStatusMachine, snapshot, event);
  return next.value as UserStatus;
};

/** What the machine reads of a stored account. */
export interface AccountHolder {
  readonly type: UserType;
  readonly status: UserStatus;
  readonly emailVerifiedAt: Date | null;
}

/** The account's status after an event, or null when its status does not allow it. */
export const statusAfter = (account: AccountHolder, event: AccountEvent): UserStatus | null =>
  nextStatus(account.status, { type: account.type, emailVerified: account.emailVerifiedAt !== null }, event);

/** May this account take this event now? Every other feature asks this rather than reading a status list. */
export const accountCan = (account: AccountHolder, event: AccountEvent): boolean => statusAfter(account, event) !== null;

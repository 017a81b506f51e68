import type { OnboardingStep, UserStatus, UserType } from "@crown/core";
import type { PracticeVerification } from "@crown/core/accounts/practice-statuses";
import { assign, createActor, setup } from "xstate";
import type { Baby, Notification, PhysicianRef, Profile, SignInResult } from "../api/types.ts";
import { forgetToken, keepToken, keptToken } from "./persist.ts";

/**
 * The signed-in session of the portal as one machine: who is signed in, their flags and the
 * client state the spec lists (selected child, notifications, photo, active physician). It is
 * persisted to sessionStorage under the spec's keys so a reload keeps the user signed in; the token
 * is also kept in a cookie that every tab shares (session/persist.ts, ADR 32), so a new tab of the
 * browser resumes the session, and signing out in one tab ends it in all.
 */

export interface Session {
  readonly token: string;
  readonly userRole: UserType;
  readonly userIdentifier: string;
  readonly isQuizTime: boolean;
  readonly isFirstLogin: boolean;
  readonly status: UserStatus;
  /** Core's onboarding step, from the server's answers (session/home.ts routes by it). */
  readonly step: OnboardingStep;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly babies: ReadonlyArray<Baby>;
  readonly selectedBabyId: string | null;
  readonly disclaimerAccepted: boolean;
  readonly baaSigned: boolean;
  readonly activePhysicianId: string | null;
  /** A physician's practice as the server last answered (null for everyone else); session/home.ts reads it. */
  readonly practiceVerification: PracticeVerification | null;
  /** With Remember me: the session's absolute end, until which the token outlives the browser. */
  readonly rememberUntil: string | null;
}

/** Lists and media the header and dashboards show; reset on sign-out and on a 401. */
export interface Lists {
  readonly notificationCount: number;
  readonly notifications: ReadonlyArray<Notification>;
  readonly unreadChatCount: number;
  readonly profilePicture: string | null;
  readonly physicians: ReadonlyArray<PhysicianRef>;
}

export const emptyLists: Lists = { notificationCount: 0, notifications: [], unreadChatCount: 0, profilePicture: null, physicians: [] };

export interface SessionContext {
  readonly session: Session | null;
  readonly lists: Lists;
  /** A message for the login screen (after a 401, an approval sign-out...). */
  readonly notice: { readonly text: string; readonly tone: "error" | "info" } | null;
  /** Signed out by the user's own choice: the next sign-in starts at home, not on the page left behind. */
  readonly leftByChoice: boolean;
}

export type SessionEvent =
  | { type: "SIGNED_IN"; session: Session }
  | { type: "RESUMED"; session: Session }
  | { type: "UPDATE"; patch: Partial<Session> }
  | { type: "LISTS"; patch: Partial<Lists> }
  | { type: "SIGN_OUT"; notice?: SessionContext["notice"] }
  | { type: "UNAUTHORISED"; message: string }
  | { type: "NOTICE_SEEN" };

const STORAGE_KEY = "crown.session";

const storage = (): Storage | null => {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
};

/** The tab's stored session, when it still holds the browser's token (another tab may have signed out or in). */
export const loadSession = (): Session | null => {
  const s = storage();
  const raw = s?.getItem(STORAGE_KEY);
  const token = keptToken();
  if (!raw || !token || s?.getItem("token") !== token) {
    s?.clear();
    return null;
  }
  try {
    return JSON.parse(raw) as Session;
  } catch {
    return null;
  }
};

const saveSession = (session: Session | null) => {
  const s = storage();
  if (!s) return;
  if (!session) {
    s.clear();
    forgetToken();
    return;
  }
  s.setItem("token", session.token);
  s.setItem("userRole", session.userRole);
  s.setItem("userIdentifier", session.userIdentifier);
  s.setItem("isQuizTime", String(session.isQuizTime));
  s.setItem(STORAGE_KEY, JSON.stringify(session));
};

/**
 * What a session is made of: the sign-in answer, or the profile answer with the browser's kept token
 * (a resumed tab); both carry these fields (core's `signInAnswer` and `profileAnswer`).
 */
export type SessionAnswer = Omit<Profile, "phone" | "photo" | "language"> & Partial<Pick<SignInResult, "expires_at">> & { readonly token: string };

/** Reads the sign-in (or profile) answer. */
export const sessionFromSignIn = (r: SessionAnswer, rememberMe = false): Session => {
  const babies = r.babies ?? [];
  return {
    token: r.token,
    userRole: r.type,
    userIdentifier: r.identifier,
    isQuizTime: r.is_quiz_time,
    isFirstLogin: r.first_time_login,
    status: r.status,
    step: r.step,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    babies,
    selectedBabyId: babies[0]?.identifier ?? null,
    disclaimerAccepted: r.disclaimer_accepted,
    baaSigned: r.baa_signed,
    // Staff act for the first of their physicians until they choose another (spec section 6).
    activePhysicianId: r.physicians?.[0]?.identifier ?? null,
    practiceVerification: r.practice_verification ?? null,
    rememberUntil: rememberMe ? (r.expires_at ?? null) : null,
  };
};

export const sessionMachine = setup({
  types: {} as { context: SessionContext; events: SessionEvent; input: { session: Session | null } },
  guards: {
    restored: ({ context }) => context.session !== null,
  },
  actions: {
    persist: ({ context }) => saveSession(context.session),
    keepToken: ({ context }) => {
      if (context.session) keepToken(context.session.token, context.session.rememberUntil);
    },
  },
}).createMachine({
  id: "session",
  context: ({ input }) => ({ session: input.session, lists: emptyLists, notice: null, leftByChoice: false }),
  initial: "restoring",
  states: {
    restoring: { always: [{ guard: "restored", target: "signedIn" }, { target: "signedOut" }] },
    signedOut: {
      on: {
        SIGNED_IN: { target: "signedIn", actions: [assign({ session: ({ event }) => event.session, lists: emptyLists, notice: null, leftByChoice: false }), "persist", "keepToken"] },
        // A new tab that found the browser's token: the cookie stays as it was set at sign-in.
        RESUMED: { target: "signedIn", actions: [assign({ session: ({ event }) => event.session, lists: emptyLists, notice: null, leftByChoice: false }), "persist"] },
        NOTICE_SEEN: { actions: assign({ notice: null }) },
        SIGN_OUT: { actions: assign({ notice: ({ event }) => event.notice ?? null }) },
      },
    },
    signedIn: {
      on: {
        UPDATE: {
          actions: [assign({ session: ({ context, event }) => (context.session ? { ...context.session, ...event.patch } : null) }), "persist"],
        },
        LISTS: { actions: assign({ lists: ({ context, event }) => ({ ...context.lists, ...event.patch }) }) },
        SIGNED_IN: { actions: [assign({ session: ({ event }) => event.session, lists: emptyLists, notice: null, leftByChoice: false }), "persist", "keepToken"] },
        SIGN_OUT: {
          target: "signedOut",
          actions: [assign({ session: null, lists: emptyLists, notice: ({ event }) => event.notice ?? null, leftByChoice: true }), "persist"],
        },
        UNAUTHORISED: {
          target: "signedOut",
          actions: [assign({ session: null, lists: emptyLists, notice: ({ event }) => ({ text: event.message, tone: "error" as const }), leftByChoice: false }), "persist"],
        },
      },
    },
  },
});

export const createSessionActor = (session: Session | null = loadSession()) => createActor(sessionMachine, { input: { session } });

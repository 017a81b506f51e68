import { USER_TYPES } from "@crown/core/accounts/statuses";
import { takesQuiz } from "@crown/core/onboarding/steps";
import { practiceBeingVerified } from "./home.ts";
import type { Session } from "./machine.ts";

type Role = Session["userRole"];

/**
 * Which roles each signed-in screen is for (issue 22, item 12). The server refuses the calls behind
 * a screen to anyone else; this keeps the portal from drawing that screen (filters, Add buttons, an
 * error toast) for the wrong role: the route shows "not available for your account" instead.
 */
export const ROLES = {
  /** Capture, instructions, uploads and the kiosk: whoever scans babies. */
  capture: ["parent", "physician", "physician_staff"],
  /** The cap quizzes: the roles the server's is_quiz_time is ever true for. */
  quiz: USER_TYPES.filter(takesQuiz),
  /** The practice's screens: results, patients, staff, workflow. */
  provider: ["physician", "physician_staff"],
  parent: ["parent"],
  /** Who answers a practice's request to link an existing account (ADR 56): a parent, a staff member. */
  invitee: ["parent", "physician_staff"],
  reviewer: ["reviewer"],
  /** The support inbox: Crown's own team answers the chat. */
  support: ["reviewer", "admin"],
  admin: ["admin"],
} as const satisfies Record<string, ReadonlyArray<Role>>;

export type Audience = keyof typeof ROLES;

export const isFor = (audience: Audience, role: Role): boolean => (ROLES[audience] as ReadonlyArray<Role>).includes(role);

/** Who has a part in the exam-room kiosk (/kiosk-settings): physicians and staff set a PIN, parents show a baby code. */
export const usesKiosk = (session: Session) => isFor("capture", session.userRole);

/** Parents, providers and staff upload; Crown's internal roles do not, nor a physician whose practice is being verified (ADR 60). */
export const uploads = (session: Session) => usesKiosk(session) && !practiceBeingVerified(session);

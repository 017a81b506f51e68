import { Effect } from "effect";
import { Conflict } from "../shared/errors.ts";
import { fill } from "../shared/i18n.ts";
import { STATUS_MESSAGES } from "../shared/messages.ts";
import type { AccountsConfig, User } from "./model.ts";
import { type AccountEvent, statusAfter, type UserType } from "./lifecycle.ts";

export const PROFILE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

/** The account's next status by the account machine, or 409 when its status does not allow the event. */
export const requireStatusAfter = (user: User, event: AccountEvent) => {
  const next = statusAfter(user, event);
  return next === null
    ? Effect.fail(new Conflict({ message: fill(STATUS_MESSAGES.accountRefused, { status: user.status }) }))
    : Effect.succeed(next);
};

const isInternalOrPractice = (type: UserType) => type !== "parent";

/** How long a session lives: staff and internal users have an idle limit too; parents an absolute one, longer with Remember me (ADR 32). */
export const sessionLifetime = (type: UserType, rememberMe: boolean, config: AccountsConfig) =>
  isInternalOrPractice(type)
    ? { absoluteSeconds: config.staffAbsoluteSeconds, idleSeconds: config.staffIdleSeconds as number | null }
    : { absoluteSeconds: rememberMe ? config.parentRememberSeconds : config.parentAbsoluteSeconds, idleSeconds: null };

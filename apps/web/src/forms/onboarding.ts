import * as CalendarDays from "@crown/core/shared/days";
import { BabyRequest, SignBaaRequest } from "@crown/core/onboarding/schemas";

/**
 * The baby and BAA forms validate with core's request schemas (the spec's messages live there).
 * The baby schema depends on today, so the browser builds it for its own day, as the server does.
 */
export { GENDERS, NO_PHYSICIAN, NO_PHYSICIAN_NAME, RACES, RELATIONS } from "@crown/core/onboarding/model";
export { FORM_MESSAGES, PRETERM_WEEKS_MAX } from "@crown/core/onboarding/schemas";

export const babyDetailsSchema = () => BabyRequest(CalendarDays.dayOf(new Date(Date.now() - new Date().getTimezoneOffset() * 60_000)));

export const BaaForm = SignBaaRequest;

/** Empty optional answers are left out, so "" never meets a one-of rule. */
export const withoutBlanks = <T extends Record<string, unknown>>(v: T): Partial<T> =>
  Object.fromEntries(Object.entries(v).filter(([, x]) => x !== "" && x !== null && x !== undefined)) as Partial<T>;

import { Schema } from "effect";
import { OptionalText, Required } from "../shared/validation.ts";

/** The account removal request body and messages; shared by the server and the portal's /remove-account page. */

export const REMOVAL_MESSAGES = {
  requested: "Your account removal request has been received. We have sent a confirmation to your e-mail address.",
  alreadyRequested: "Your account removal request was already received. Crown's administrators will contact you by e-mail.",
  wrongPassword: "The password is incorrect.",
  list: "Account removal requests fetched successfully",
  tooManyAttempts: "Too many attempts. Please try again later.",
  erasureScheduled: "Your account will be erased on {date}. Signing in again before then cancels it. We have sent the details to your e-mail address.",
  erasureAlreadyScheduled: "Your account is already set to be erased on {date}. Signing in again before then cancels it.",
  held: "The removal request is on legal hold: nothing is erased until the hold is lifted.",
  released: "The legal hold is lifted: the account is erased once its grace period has ended.",
} as const;

export const RemovalRequestBody = Schema.Struct({
  password: Required("Password"),
  reason: OptionalText(1000),
});


export const HoldRequestBody = Schema.Struct({
  identifier: Required("Identifier"),
  reason: Required("Reason"),
});
export const ReleaseRequestBody = Schema.Struct({ identifier: Required("Identifier") });

import { Schema } from "effect";
import { OptionalText, Required } from "../shared/validation.ts";

/** The account removal request body and messages; shared by the server and the portal's /remove-account page. */

export const REMOVAL_MESSAGES = {
  requested: "Your account removal request has been received. We have sent a confirmation to your e-mail address.",
  alreadyRequested: "Your account removal request was already received. Crown's administrators will contact you by e-mail.",
  wrongPassword: "The password is incorrect.",
  list: "Account removal requests fetched successfully",
  tooManyAttempts: "Too many attempts. Please try again later.",
} as const;

export const RemovalRequestBody = Schema.Struct({
  password: Required("Password"),
  reason: OptionalText(1000),
});


import { Effect } from "effect";
import { sendAll } from "../notifications/service.ts";
import { transaction } from "../shared/ports.ts";
import { decideWaiting, requireAdmin } from "./approvals.ts";
import { rejectedMail } from "./emails.ts";
import { IdentifierRequest, validateForm } from "./schemas.ts";

/** Rejects a WaitingApproval account; a rejected account cannot sign in, so the e-mail is its only news. */
export const rejectAccount = (input: unknown) =>
  Effect.gen(function* () {
    const admin = yield* requireAdmin;
    const { identifier, reason } = yield* validateForm(IdentifierRequest, input);
    const { result, mail } = yield* transaction(
      decideWaiting(identifier, { type: "REJECTED" }, admin.user.id, (user) => Effect.succeed(rejectedMail(user.email, user.firstName, reason ?? null, user.language))),
    );
    yield* sendAll([mail]);
    return result;
  });

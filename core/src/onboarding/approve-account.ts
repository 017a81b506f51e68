import { Effect } from "effect";
import { AccountsConfig } from "../accounts/model.ts";
import { notify, sendAll } from "../notifications/service.ts";
import { transaction } from "../shared/ports.ts";
import { decideWaiting, requireAdmin } from "./approvals.ts";
import { approvedMail } from "./emails.ts";
import { IdentifierRequest, validateForm } from "./schemas.ts";

/** Approves a WaitingApproval account: status, notification and e-mail in one transaction. */
export const approveAccount = (input: unknown) =>
  Effect.gen(function* () {
    const admin = yield* requireAdmin;
    const { identifier } = yield* validateForm(IdentifierRequest, input);
    return yield* approve(identifier, admin.user.id);
  });

/** The approval itself, for the admin API and `crown user:approve`. */
export const approve = (userId: string, actorId: string | null) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig;
    const { result, mail } = yield* transaction(
      decideWaiting(userId, { type: "APPROVED" }, actorId, (user) =>
        Effect.as(notify(user.id, "account_approved", "accountApproved", {}, user.id), approvedMail(user.email, user.firstName, `${config.publicUrl}/`, user.language)),
      ),
    );
    yield* sendAll([mail]);
    return result;
  });

import { Effect } from "effect";
import { accountSummary } from "../accounts/present.ts";
import { Users } from "../accounts/model.ts";
import { pageOf } from "../shared/page.ts";
import { requireAdmin } from "./approvals.ts";
import { Babies } from "./model.ts";
import { presentBabies } from "./present.ts";
import { WAITING_APPROVAL_STATUS } from "../accounts/lifecycle.ts";

/** The accounts waiting for an administrator, oldest first, with a parent's babies. */
export const listPendingApprovals = (page: number, perPage = 10) =>
  Effect.gen(function* () {
    yield* requireAdmin;
    // One page from the database (the index by status and age), not every waiting account.
    const pending = yield* (yield* Users).listByStatus(WAITING_APPROVAL_STATUS, { page, perPage });
    const data = [];
    for (const user of pending.data) {
      const babies = user.type === "parent" ? yield* presentBabies(yield* (yield* Babies).listByParent(user.id)) : [];
      data.push({ ...accountSummary(user), created_at: user.createdAt.toISOString(), babies });
    }
    return pageOf(data, pending.total, page, perPage);
  });

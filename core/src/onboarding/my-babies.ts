import { Effect } from "effect";
import { requireType } from "../accounts/access.ts";
import { auditAll } from "../shared/ports.ts";
import { Babies } from "./model.ts";
import { presentBabies } from "./present.ts";

/** The parent's babies; a read of a child's data, so audited. */
export const myBabies = Effect.gen(function* () {
  const caller = yield* requireType("parent");
  const babies = yield* (yield* Babies).listByParent(caller.user.id);
  // A read of a child's data: one row per baby, one insert.
  yield* auditAll(babies.map((b) => ({ action: "baby.listed", actorId: caller.user.id, subjectId: b.id })));
  return yield* presentBabies(babies);
});

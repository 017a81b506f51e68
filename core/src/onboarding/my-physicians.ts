import { Effect } from "effect";
import { requireActive } from "../accounts/access.ts";
import { physicianRef, physiciansOfStaff } from "./present.ts";

/** GET /physician/list: the physicians a staff member works for (a physician: themself). */
export const myPhysicians = Effect.gen(function* () {
  const caller = yield* requireActive("physician", "physician_staff");
  if (caller.user.type === "physician") return [{ ...physicianRef(caller.user), first_name: caller.user.firstName, last_name: caller.user.lastName, staff_type: null }];
  return yield* physiciansOfStaff(caller.user);
});

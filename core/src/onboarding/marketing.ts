import { Effect } from "effect";
import { requireType } from "../accounts/access.ts";
import { NotFound } from "../shared/errors.ts";
import { audit, now, Random, transaction } from "../shared/ports.ts";
import { MarketingLeads } from "./model.ts";
import { blanksAsAbsent, orNull } from "./policy.ts";
import { MarketingRequest, validateForm } from "./schemas.ts";

/** A parent asks for the kit offer. */
export const addMarketingInfo = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireType("parent");
    const request = yield* validateForm(MarketingRequest, blanksAsAbsent(input));
    if (request.parent_identifier && request.parent_identifier !== caller.user.id) return yield* NotFound.of("Parent");
    const lead = {
      id: (yield* Random).identifier(),
      parentId: caller.user.id,
      physicianName: orNull(request.physician_name),
      babyName: orNull(request.baby_name),
      createdAt: yield* now,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* MarketingLeads).insert(lead);
        yield* audit({ action: "marketing.kit_offer_requested", actorId: caller.user.id, subjectId: caller.user.id });
      }),
    );
    return { identifier: lead.id, parent_identifier: lead.parentId, physician_name: lead.physicianName, baby_name: lead.babyName };
  });

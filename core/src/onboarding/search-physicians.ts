import { Effect } from "effect";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { NO_PHYSICIAN, NO_PHYSICIAN_NAME, PhysicianDirectory } from "./model.ts";
import { physicianRef } from "./present.ts";
import { PhysicianSearchQuery, validateForm } from "./schemas.ts";

export const PHYSICIAN_SEARCH_LIMIT = 20;

/** The search needs no token, so it is limited per client address (60 a minute). */
export const PHYSICIAN_SEARCH_LIMIT_PER_ADDRESS = { limit: 60, windowSeconds: 60 } as const;

/** The provider search: active physicians whose name contains the text, then the 'No Physician' choice. */
export const searchPhysicians = (query: unknown) =>
  Effect.gen(function* () {
    const { name } = yield* validateForm(PhysicianSearchQuery, query);
    yield* throttle(`physician-search:addr:${yield* clientAddress}`, PHYSICIAN_SEARCH_LIMIT_PER_ADDRESS);
    // Names are shown as "Dr. First Last"; a typed "Dr." prefix is not part of the stored name.
    const text = name.replace(/^dr\.?\s+/i, "") || name;
    const found = yield* (yield* PhysicianDirectory).search(text, PHYSICIAN_SEARCH_LIMIT);
    return [...found.map(physicianRef), { identifier: NO_PHYSICIAN, name: NO_PHYSICIAN_NAME }];
  });

import { Effect } from "effect";
import { visiblePractitioner } from "./policy.ts";
import { presentPractitioner } from "./present.ts";

/** `GET /Practitioner/{id}`: a physician (name, NPI) or a reviewer; no child's data, so no audit row. */
export const readPractitioner = (userId: string) => Effect.map(visiblePractitioner(userId), presentPractitioner);

import { Effect, Option } from "effect";
import { Users } from "../accounts/model.ts";
import { auditPatientRead, isPractitioner, visiblePatient } from "./policy.ts";
import { presentPatient } from "./present.ts";

/** `GET /Patient/{id}`: a baby the caller may read (audited as a read of the child's record). */
export const readPatient = (babyId: string) =>
  Effect.gen(function* () {
    const { caller, baby } = yield* visiblePatient(babyId);
    const physician = baby.physicianId ? Option.getOrNull(yield* (yield* Users).findById(baby.physicianId)) : null;
    yield* auditPatientRead(caller, baby);
    return presentPatient(baby, physician && isPractitioner(physician) ? physician : null);
  });

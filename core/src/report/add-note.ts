import { Effect } from "effect";
import { now } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { Reports } from "./model.ts";
import { NoteRequest } from "./requests.ts";
import { reviewAction } from "./review-action.ts";

/** `POST /review/report/{id}/note`: the reviewer's note, printed in the report (empty removes it). */
export const addNote = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(NoteRequest, input);
    const note = request.note?.trim() || null;
    return yield* reviewAction(reportId, "note", { note }, (report) =>
      Effect.gen(function* () {
        yield* (yield* Reports).update(report.id, { reviewNote: note, updatedAt: yield* now });
        return { note };
      }),
    );
  });

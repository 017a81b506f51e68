import { Effect } from "effect";
import { now } from "../shared/ports.ts";
import { advance } from "./advance.ts";
import { reopenable } from "./lifecycle.ts";
import { Reports } from "./model.ts";
import { reviewAction } from "./review-action.ts";

/** `POST /review/report/{id}/reopen`: a published report back in review, to correct it; publishing again makes a new version. */
export const reopenReport = (reportId: string) =>
  reviewAction(
    reportId,
    "reopened",
    {},
    (report, reviewer) =>
      Effect.gen(function* () {
        const status = yield* advance(report, { type: "REOPEN", reviewerId: reviewer.id });
        yield* (yield* Reports).update(report.id, { status, reviewerId: reviewer.id, updatedAt: yield* now });
        return { status };
      }),
    reopenable,
  );

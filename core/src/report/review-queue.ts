import { Effect } from "effect";
import { validate } from "../shared/validation.ts";
import { Reports } from "./model.ts";
import { requireReviewer } from "./policy.ts";
import { presentForReview, presentSummary } from "./present.ts";
import { babyOf, previousResults } from "./queries.ts";
import { QueueRequest } from "./requests.ts";
import { pageOf } from "../notifications/service.ts";

/** `POST /review/queue?page=`: reports waiting for review, oldest submission first, with the baby's age and previous results. */
export const reviewQueue = (page: number, input: unknown) =>
  Effect.gen(function* () {
    yield* requireReviewer;
    const perPage = (yield* validate(QueueRequest, input)).per_page ?? 10;
    const result = yield* (yield* Reports).reviewQueue({ page, perPage });
    const data = yield* Effect.forEach(result.data, (report) =>
      Effect.gen(function* () {
        const baby = yield* babyOf(report);
        return {
          ...presentForReview(report, baby),
          summary: presentSummary(report.analysis),
          previous_results: yield* previousResults(report),
        };
      }),
    );
    return pageOf(data, result.total, page, perPage);
  });

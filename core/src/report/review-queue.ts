import { Effect, Option } from "effect";
import { validate } from "../shared/validation.ts";
import { Reports } from "./model.ts";
import { requireReviewer } from "./policy.ts";
import { presentForReview, presentSummary } from "./present.ts";
import { previousResultsOf } from "./queries.ts";
import { QueueRequest } from "./requests.ts";
import { pageOf } from "../shared/page.ts";

/** `POST /review/queue?page=`: reports waiting for review, oldest submission first, with the baby's age and previous results. */
export const reviewQueue = (page: number, input: unknown) =>
  Effect.gen(function* () {
    yield* requireReviewer;
    const perPage = (yield* validate(QueueRequest, input)).per_page ?? 10;
    const result = yield* (yield* Reports).reviewQueue({ page, perPage });
    // The babies are joined and the previous results read in one query: no lookup per row (ADR 0072).
    const previous = yield* previousResultsOf(result.data.map((row) => row.report));
    const data = result.data.map(({ report, baby }) => ({
      ...presentForReview(report, Option.fromNullable(baby)),
      summary: presentSummary(report.analysis),
      previous_results: previous.get(report.id) ?? [],
    }));
    return pageOf(data, result.total, page, perPage);
  });

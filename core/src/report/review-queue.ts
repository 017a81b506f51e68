import { Effect, Option } from "effect";
import { babyName } from "../onboarding/model.ts";
import { validate } from "../shared/validation.ts";
import { Reports } from "./model.ts";
import { requireReviewer } from "./policy.ts";
import { ageAt, pageResult, presentSummary } from "./present.ts";
import { babyOf, previousResults } from "./queries.ts";
import { QueueRequest } from "./requests.ts";

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
          report_identifier: report.id,
          status: report.status,
          baby_name: Option.isSome(baby) ? babyName(baby.value) : report.babyName,
          baby_age: Option.isSome(baby) ? ageAt(baby.value.dateOfBirth, report.submittedAt ?? report.createdAt) : null,
          submitted_at: report.submittedAt?.toISOString() ?? null,
          reviewer_identifier: report.reviewerId,
          summary: presentSummary(report.analysis),
          previous_results: yield* previousResults(report),
        };
      }),
    );
    return pageResult(data, result.total, page, perPage);
  });

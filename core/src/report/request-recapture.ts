import { Effect, Option } from "effect";
import { AccountsConfig } from "../accounts/model.ts";
import { QUALITY_REASONS } from "../measurement/verdict.ts";
import { notify } from "../notifications/service.ts";
import { babyName } from "../onboarding/model.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { queueMail } from "../shared/mail-jobs.ts";
import { now } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { advance } from "./advance.ts";
import { Reports } from "./model.ts";
import { recaptureMail, recipients } from "./notices.ts";
import { babyOf } from "./queries.ts";
import { RecaptureRequest, REVIEW_MESSAGES } from "./requests.ts";
import { reviewAction } from "./review-action.ts";

/** `POST /review/report/{id}/recapture`: the user is told what to redo (the quiz's bad-image reasons) and uploads again. */
export const requestRecapture = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(RecaptureRequest, input);
    const reasons = [...new Set(request.reasons.map((r) => r.trim()).filter((r) => r !== ""))];
    if (reasons.length === 0) return yield* ValidationFailed.field("reasons", REVIEW_MESSAGES.reasonsRequired);
    if (reasons.some((r) => !(QUALITY_REASONS as ReadonlyArray<string>).includes(r))) return yield* ValidationFailed.field("reasons", REVIEW_MESSAGES.reasonUnknown);
    const note = request.note?.trim() || null;
    const config = yield* AccountsConfig;
    return yield* reviewAction(reportId, "recapture_requested", { reasons, note }, (report, reviewer) =>
      Effect.gen(function* () {
        const status = yield* advance(report, { type: "REQUEST_RECAPTURE", reviewerId: reviewer.id });
        yield* (yield* Reports).update(report.id, { status, recaptureReasons: reasons, reviewNote: note ?? report.reviewNote, reviewerId: reviewer.id, updatedAt: yield* now });
        const baby = yield* babyOf(report);
        const name = Option.isSome(baby) ? babyName(baby.value) : report.babyName;
        for (const user of yield* recipients(report, baby)) {
          yield* notify(user.id, "recapture_requested", "recaptureRequested", { baby: name, reasons }, report.id);
          // Queued with the change: sent by the worker once committed, retried until the mail server takes it.
          yield* queueMail(recaptureMail(user, name, reasons, note, `${config.publicUrl}/uploads`));
        }
        return { status, reasons };
      }),
    );
  });

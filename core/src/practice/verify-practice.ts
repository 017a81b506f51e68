import { Effect, Option, Schema } from "effect";
import { AccountsConfig, Users } from "../accounts/model.ts";
import { sendAll } from "../notifications/service.ts";
import { composeIn, MAILS, mailText } from "../i18n/mails/index.ts";
import type { Language } from "../shared/i18n.ts";
import { fill } from "../shared/i18n.ts";
import { Conflict, NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { Required, validate } from "../shared/validation.ts";
import { physicianName, requireActive } from "../accounts/access.ts";
import { PRACTICE_MESSAGES, practiceVerification } from "../accounts/practice-verification.ts";

export const VerifyPracticeRequest = Schema.Struct({ physician_identifier: Required("Physician") });

/** In the physician's language. */
export const practiceVerifiedMail = (to: string, doctor: string, url: string, language: Language = "en") => {
  const t = mailText(language, "practice");
  return composeIn(language, {
    to,
    subject: t("verifiedSubject"),
    greeting: fill(MAILS[language].common.hello, { name: doctor }),
    paragraphs: [t("verified")],
    action: { label: mailText(language, "common")("signIn"), url },
  });
};

/** `POST /admin/practices/verify`: an admin verifies a physician's practice; audited and e-mailed to the physician. */
export const verifyPractice = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(VerifyPracticeRequest, input);
    const admin = yield* requireActive("admin");
    const users = yield* Users;
    const config = yield* AccountsConfig;
    const { physician, at } = yield* transaction(
      Effect.gen(function* () {
        const found = yield* users.findById(request.physician_identifier);
        if (Option.isNone(found)) return yield* NotFound.of("Physician");
        const physician = found.value;
        if (physician.type !== "physician") return yield* ValidationFailed.field("physician_identifier", PRACTICE_MESSAGES.notPhysician);
        if (practiceVerification(physician) === "verified") return yield* new Conflict({ message: PRACTICE_MESSAGES.alreadyVerified });
        const at = yield* now;
        yield* users.update(physician.id, { practiceVerifiedAt: at });
        yield* audit({ action: "practice.verified", actorId: admin.user.id, subjectId: physician.id, details: { npi: physician.npi } });
        return { physician, at };
      }),
    );
    yield* sendAll([practiceVerifiedMail(physician.email, physicianName(physician), `${config.publicUrl}/`, physician.language)]);
    return { identifier: physician.id, practice_verification: "verified" as const, practice_verified_at: at.toISOString() };
  });

import { Effect, Option } from "effect";
import { type User, Users } from "../accounts/model.ts";
import type { Baby } from "../onboarding/model.ts";
import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import { reasonsIn } from "../i18n/mails/notices.ts";
import type { Report } from "./model.ts";
import type { Language } from "../shared/i18n.ts";
import { babyOf } from "./queries.ts";

/** Who hears of a review's outcome, and the e-mails they get. */

/** In the recipient's language (their profile's, ADR 77). */
export const recaptureMail = (to: User, baby: string, reasons: ReadonlyArray<string>, note: string | null, url: string) => {
  const t = mailText(to.language, "report");
  return composeIn(to.language, {
    to: to.email,
    subject: t("recaptureSubject", { baby }),
    greeting: greeting(to.language, to.firstName),
    paragraphs: [
      t("recaptureLooked", { baby }),
      t("recaptureWhat", { reasons: reasonsIn(to.language, reasons) }),
      ...(note ? [t("recaptureNote", { note })] : []),
      t("recaptureFollow"),
    ],
    action: { label: t("recaptureAction"), url },
  });
};

export const publishedMail = (to: User, baby: string, url: string) => {
  const t = mailText(to.language, "report");
  return composeIn(to.language, {
    to: to.email,
    subject: t("publishedSubject", { baby }),
    greeting: greeting(to.language, to.firstName),
    paragraphs: [t("publishedReady", { baby }), t("publishedCaution")],
    action: { label: t("publishedAction"), url },
  });
};

/** The parent and the physician of a report (each once), to notify. */
export const recipients = (report: Report, baby: Option.Option<Baby>) =>
  Effect.gen(function* () {
    const users = yield* Users;
    const ids = [...new Set([Option.isSome(baby) ? baby.value.parentId : report.uploaderId, report.physicianId].filter((x): x is string => x !== null))];
    const found = yield* Effect.forEach(ids, (id) => users.findById(id));
    return found.filter(Option.isSome).map((u) => u.value);
  });

/** The languages other than English that a report's readers (its parent and physician) read it in. */
export const readerLanguages = (report: Report) =>
  Effect.gen(function* () {
    const readers = yield* recipients(report, yield* babyOf(report));
    return [...new Set(readers.map((u) => u.language))].filter((l): l is Exclude<Language, "en"> => l !== "en");
  });

/** Where a version's PDF in another language is kept: beside the English one, named by the language. */
export const localizedPdfKey = (blobKey: string, language: Language) => (language === "en" ? blobKey : blobKey.replace(/\.pdf$/, `.${language}.pdf`));

/** Where each kind of user reads results in the portal. */
export const resultsPath = (user: User) => (user.type === "parent" ? "/parent-results" : "/results");

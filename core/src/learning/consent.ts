import { Effect, Option } from "effect";
import { Babies, type Baby, babyName } from "../onboarding/model.ts";
import { requireType } from "../accounts/access.ts";
import { Reports } from "../report/model.ts";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { fill } from "../shared/i18n.ts";
import { audit, now, requestLanguage, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { CONSENT_TEXT, CONSENT_TEXT_VERSION } from "./consent-text.ts";
import { type ResearchConsent, ResearchConsents, ReviewedSets, SetFiles } from "./model.ts";
import { ConsentAskedRequest, ConsentRequest, LEARNING_MESSAGES } from "./requests.ts";

/**
 * A parent's choice, per child, whether the child's reviewed photos may improve Crown (issue 41):
 * off until chosen; asked once, after the child's first published report; changeable in the
 * profile. Kiosk scans are the same child's photos, so they follow the same choice.
 */

const noChoice = (babyId: string): ResearchConsent => ({ babyId, choice: null, chosenBy: null, chosenAt: null, textVersion: null, askedAt: null });

const ownBaby = (babyId: string) =>
  Effect.gen(function* () {
    const caller = yield* requireType("parent");
    const baby = yield* (yield* Babies).findById(babyId);
    // Another parent's child answers as no child at all.
    if (Option.isNone(baby) || baby.value.parentId !== caller.user.id) return yield* NotFound.of("Baby");
    return { caller, baby: baby.value };
  });

/** Whether the child has had a report published: the question comes after the first one. */
const hasPublishedReport = (baby: Baby) => Effect.map((Reports).pipe(Effect.flatMap((r) => r.publishedForBaby(baby.id))), (published) => published.length > 0);

/** `GET /user/research-consent`: each of the parent's children with the choice, whether to ask now, and the text in the caller's language. */
export const myConsents = Effect.gen(function* () {
  const caller = yield* requireType("parent");
  const babies = yield* (yield* Babies).listByParent(caller.user.id);
  const known = new Map((yield* (yield* ResearchConsents).listByBabies(babies.map((b) => b.id))).map((c) => [c.babyId, c]));
  const language = yield* requestLanguage;
  const children = [];
  for (const baby of babies) {
    const c = known.get(baby.id) ?? noChoice(baby.id);
    children.push({
      baby_identifier: baby.id,
      name: babyName(baby),
      choice: c.choice,
      consented: c.choice === "granted",
      chosen_at: c.chosenAt?.toISOString() ?? null,
      // Asked once: after the first published report, never again once asked or chosen.
      ask: c.choice === null && c.askedAt === null && (yield* hasPublishedReport(baby)),
    });
  }
  return { children, text: { version: CONSENT_TEXT_VERSION, ...CONSENT_TEXT[language] } };
});

/**
 * `POST /user/research-consent`: grant, decline or withdraw for one child. A withdrawal takes the
 * child's examples out of every set no shipped model has used, files included, and says how many.
 */
export const chooseConsent = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ConsentRequest, input);
    const { caller, baby } = yield* ownBaby(request.baby_identifier);
    const consents = yield* ResearchConsents;
    const before = Option.getOrElse(yield* consents.find(baby.id), () => noChoice(baby.id));
    if (request.choice === "withdrawn" && before.choice !== "granted") return yield* ValidationFailed.field("choice", LEARNING_MESSAGES.withdrawOnlyGranted);
    const at = yield* now;
    const removed = yield* transaction(
      Effect.gen(function* () {
        yield* consents.save({ ...before, choice: request.choice, chosenBy: caller.user.id, chosenAt: at, textVersion: CONSENT_TEXT_VERSION, askedAt: before.askedAt ?? at });
        const removed = request.choice === "granted" ? [] : yield* (yield* ReviewedSets).removeChild(baby.id);
        yield* audit({
          action: `research_consent.${request.choice}`,
          actorId: caller.user.id,
          subjectId: baby.id,
          details: { text_version: CONSENT_TEXT_VERSION, sets: removed.length, examples: removed.reduce((n, s) => n + s.images.length, 0) },
        });
        return removed;
      }),
    );
    // The files go once the rows are gone (a failure here leaves files no set names, which the next export's manifest does not list).
    const files = yield* SetFiles;
    for (const set of removed) yield* files.removeExamples(set.directory, set.images);
    const name = baby.firstName;
    const message =
      request.choice === "granted"
        ? fill(LEARNING_MESSAGES.granted, { name })
        : request.choice === "declined" && before.choice !== "granted"
          ? fill(LEARNING_MESSAGES.declined, { name })
          : fill(LEARNING_MESSAGES.withdrawn, { name, sets: removed.length });
    return { message, results: { baby_identifier: baby.id, choice: request.choice, consented: request.choice === "granted", removed_from_sets: removed.length } };
  });

/** `POST /user/research-consent/asked`: the parent closed the question without choosing ("Not now"): off, and not asked again. */
export const consentAsked = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ConsentAskedRequest, input);
    const { baby } = yield* ownBaby(request.baby_identifier);
    const consents = yield* ResearchConsents;
    const before = Option.getOrElse(yield* consents.find(baby.id), () => noChoice(baby.id));
    if (before.askedAt === null) yield* consents.save({ ...before, askedAt: yield* now });
    return { baby_identifier: baby.id, choice: before.choice };
  });

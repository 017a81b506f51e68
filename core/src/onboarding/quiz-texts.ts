/**
 * The quiz's words as the person reads them (core's catalogue group `quizTexts`, Spanish beside it), in a
 * module of their own: the catalogue takes them without the quiz machine (xstate).
 */

export type QuizFeedback = "correct" | "saidGoodOnBad" | "saidBadOnGood";

export const QUIZ_FEEDBACK_TEXT: Record<QuizFeedback, string> = {
  correct: "Correct!",
  saidGoodOnBad: "Not quite: this image is not good enough for a measurement.",
  saidBadOnGood: "Not quite: this image is good enough for a measurement.",
};

/**
 * Why a good photo of the quiz is good (the manifest's `reason` of a good image; a bad image's is one of
 * the quality reasons). Core's catalogue holds both, so a question's reason is shown in the person's language.
 */
export const QUIZ_GOOD_IMAGE_TEXT = {
  goodCap: "Good image: the whole head outline is visible, only the nose tip shows, and the photo is sharp.",
  goodNocap: "Good image: the wet hair lies flat, the whole head outline is visible, only the nose tip shows, and the photo is sharp.",
} as const;


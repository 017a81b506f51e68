import { Schema } from "effect";
import { Required } from "../shared/validation.ts";
import { CONSENT_CHOICES } from "./model.ts";

/** The learning feature's requests and messages, every one defined here (Spanish in i18n/es/learning.ts). */
export const LEARNING_MESSAGES = {
  consents: "Consent choices fetched successfully",
  granted: "Thank you: {name}'s reviewed photos may now be used to improve Crown.",
  declined: "Your choice is saved: {name}'s photos will not be used to improve Crown.",
  withdrawn: "Consent withdrawn: {name}'s photos were removed from every set not yet used for a shipped model (sets changed: {sets}), and no new set will include them. A model that has already shipped keeps what it learnt.",
  asked: "We will not ask again; you can choose at any time in your profile.",
  choice: "Choice must be granted, declined or withdrawn",
  withdrawOnlyGranted: "There is no consent to withdraw for this child.",
  model: "Model figures fetched successfully",
  shadowInstalled: "Candidate model installed as the shadow model",
  promoted: "The candidate is now the shipped model",
  rolledBack: "The previous model is the shipped model again",
  models: "Installed models fetched successfully",
  noShadow: "No candidate model is installed as the shadow model.",
  noPrevious: "There is no earlier shipped model to roll back to.",
  modelFile: "Choose the candidate's .onnx file and its model.json.",
  modelCard: "The model.json could not be read as JSON.",
} as const;

export const ConsentRequest = Schema.Struct({
  baby_identifier: Required("Baby"),
  choice: Schema.Literal(...CONSENT_CHOICES).annotations({ message: () => LEARNING_MESSAGES.choice }),
});

export const ConsentAskedRequest = Schema.Struct({ baby_identifier: Required("Baby") });

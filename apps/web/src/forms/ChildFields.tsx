import { Button, FieldError, Group, Input, Label, NumberField, Text, TextArea, TextField } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { GENDERS, PRETERM_WEEKS_MAX, RACES } from "./onboarding.ts";
import { Choice } from "../ui/choices.tsx";

/**
 * The child's four questions (sex, weeks born early, race, previous conditions): one definition,
 * asked one at a time by the onboarding wizard and all at once by the profile's child form, so a
 * second child gets the same questions and a first child's answers can be corrected.
 */

export interface ChildAnswers {
  gender: string;
  nicu_time: number;
  ethnicity: string;
  previous_condition: string;
}

export const noAnswers: ChildAnswers = { gender: "", nicu_time: 0, ethnicity: "", previous_condition: "" };

/** The four questions, as keys of the `app` catalogue's `child.questions` (their short names). */
export const CHILD_QUESTIONS = ["gender", "early", "race", "conditions"] as const;
export type ChildQuestionName = (typeof CHILD_QUESTIONS)[number];

/** A question's short name in the portal's language. */
export const useQuestionName = () => {
  const { t } = useTranslation("app");
  return (question: ChildQuestionName) => t(`child.questions.${question}`);
};

/** The race options' keys in the `app` catalogue (the value sent stays core's English). */
const RACE_KEYS: Readonly<Record<(typeof RACES)[number], string>> = {
  "American Indian or Alaska Native": "indian",
  Asian: "asian",
  "Black or African American": "black",
  "Native Hawaiian or other Pacific Islander": "islander",
  White: "white",
};
export type ChildQuestionIndex = 0 | 1 | 2 | 3;

/** The answers stored for a baby (or carried in the onboarding draft). */
/** A saved baby's answers, or a draft's (its values not checked yet). */
type AnswerSource = { readonly [K in "gender" | "ethnicity" | "previous_condition"]?: string | null } & { readonly nicu_time?: number | string | null };
export const answersOf = (b: AnswerSource): ChildAnswers => ({
  gender: b.gender ?? "",
  nicu_time: Number(b.nicu_time ?? 0) || 0,
  ethnicity: b.ethnicity ?? "",
  previous_condition: b.previous_condition ?? "",
});

/** The answers as the baby calls take them; an unanswered question is left out (stored as none). */
/** A choice's value is one of core's words (a select hands on a string). */
const oneOf = <T extends string>(list: ReadonlyArray<T>, value: string): value is T => (list as ReadonlyArray<string>).includes(value);

export const answersPayload = (a: ChildAnswers) => ({
  ...(oneOf(GENDERS, a.gender) ? { gender: a.gender } : {}),
  nicu_time: a.nicu_time,
  ...(oneOf(RACES, a.ethnicity) ? { ethnicity: a.ethnicity } : {}),
  ...(a.previous_condition.trim() ? { previous_condition: a.previous_condition.trim() } : {}),
});

export interface ChildQuestionProps {
  readonly values: ChildAnswers;
  readonly set: (k: keyof ChildAnswers, v: ChildAnswers[keyof ChildAnswers]) => void;
  readonly errors?: Record<string, string>;
  readonly isReadOnly?: boolean;
}

/** One of the four questions. */
export function ChildQuestion({ question, values, set, errors = {}, isReadOnly = false }: ChildQuestionProps & { readonly question: ChildQuestionIndex }) {
  const { t } = useTranslation("app");
  switch (question) {
    case 0:
      return (
        <Choice
          name="gender"
          label={t("child.sex")}
          options={GENDERS.map((g) => ({ value: g, label: t(`child.genders.${g}`) }))}
          value={values.gender}
          onChange={(v) => set("gender", v)}
          error={errors.gender}
          isReadOnly={isReadOnly}
        />
      );
    case 1:
      return (
        <NumberField
          className="field number-field"
          name="nicu_time"
          value={values.nicu_time}
          onChange={(v) => set("nicu_time", Number.isNaN(v) ? 0 : v)}
          minValue={0}
          maxValue={PRETERM_WEEKS_MAX}
          step={1}
          isReadOnly={isReadOnly}
          isInvalid={Boolean(errors.nicu_time)}
          validationBehavior="aria"
        >
          <Label>{t("child.weeks")}</Label>
          <Group className="number-group">
            <Button slot="decrement" className="btn btn-secondary step-btn">
              −
            </Button>
            <Input />
            <Button slot="increment" className="btn btn-secondary step-btn">
              +
            </Button>
          </Group>
          <Text slot="description">{t("child.weeksHint", { max: PRETERM_WEEKS_MAX })}</Text>
          <FieldError>{errors.nicu_time}</FieldError>
        </NumberField>
      );
    case 2:
      return (
        <Choice
          name="ethnicity"
          label={t("child.race")}
          layout="column"
          options={RACES.map((r) => ({ value: r, label: t(`child.races.${RACE_KEYS[r]}`) }))}
          value={values.ethnicity}
          onChange={(v) => set("ethnicity", v)}
          error={errors.ethnicity}
          isReadOnly={isReadOnly}
        />
      );
    case 3:
      return (
        <TextField className="field" name="previous_condition" value={values.previous_condition} onChange={(v) => set("previous_condition", v)} isReadOnly={isReadOnly} isInvalid={Boolean(errors.previous_condition)} validationBehavior="aria">
          <Label>{t("child.condition")}</Label>
          <TextArea rows={4} />
          <Text slot="description">{t("child.conditionHint")}</Text>
          <FieldError>{errors.previous_condition}</FieldError>
        </TextField>
      );
  }
}

/** All four questions, for the profile's child form. */
export function ChildAnswerFields(p: ChildQuestionProps) {
  return (
    <>
      {([0, 1, 2, 3] as const).map((q) => (
        <ChildQuestion key={q} question={q} {...p} />
      ))}
    </>
  );
}

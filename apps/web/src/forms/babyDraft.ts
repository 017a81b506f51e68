import type { BabyInput } from "../api/onboarding.ts";
import type { ChildAnswers } from "./ChildFields.tsx";

/** The baby details typed on /baby-details, carried to the /child-details wizard (survives a reload). */
const KEY = "crown.babyDraft";

/** The baby's details, and the wizard's answers as typed so far. */
export type BabyDraft = Omit<BabyInput, keyof ChildAnswers> & Partial<ChildAnswers> & { physician_name?: string };

export const loadDraft = (): BabyDraft | null => {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as BabyDraft) : null;
  } catch {
    return null;
  }
};
export const saveDraft = (d: BabyDraft) => sessionStorage.setItem(KEY, JSON.stringify(d));
export const clearDraft = () => sessionStorage.removeItem(KEY);

/** Field errors from the server that belong to the baby-details screen, carried back to it. */
const ERR_KEY = "crown.babyErrors";
export const saveBabyErrors = (e: Record<string, string>) => sessionStorage.setItem(ERR_KEY, JSON.stringify(e));
export const takeBabyErrors = (): Record<string, string> => {
  const raw = sessionStorage.getItem(ERR_KEY);
  sessionStorage.removeItem(ERR_KEY);
  try {
    return raw ? (JSON.parse(raw) as Record<string, string>) : {};
  } catch {
    return {};
  }
};

import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../api/crown.ts";

/*
 * A form's values, field errors and message, without the validation: the sign-in page, the first
 * page most people load, keeps Effect's schema runtime out of its bundle and loads it on submit
 * (issue 19). `useForm` in form.ts adds `validate` on top.
 */
export function useFormState<V extends object>(initial: V) {
  const { t } = useTranslation();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => {
      if (!(key as string in e)) return e;
      const { [key as string]: _, ...rest } = e;
      return rest;
    });
  }, []);

  /** Shows a failed call: field errors next to their fields, the message above the form. */
  // Without the server's message (no answer at all), the form says so in the portal's language.
  const serverErrors = useCallback((error: unknown, fallback: string = t("shell.failed"), rename: Record<string, string> = {}) => {
    if (error instanceof ApiError) {
      const fields = error.fieldErrors;
      const mapped: Record<string, string> = {};
      for (const [k, v] of Object.entries(fields)) mapped[rename[k] ?? k] = v;
      setErrors(mapped);
      setFormError(error.message || fallback);
    } else {
      setFormError(fallback);
    }
  }, [t]);

  return { values, setValues, set, errors, setErrors, formError, setFormError, serverErrors };
}

/** The first message of each field, as the forms show them. */
export const firstMessages = (errors: Readonly<Record<string, ReadonlyArray<string>>>): Record<string, string> => {
  const next: Record<string, string> = {};
  for (const [field, list] of Object.entries(errors)) if (list[0] && !next[field]) next[field] = list[0];
  return next;
};

/** Focus the first invalid field after a failed submit, for keyboard and screen-reader users. */
export const focusFirstError = () =>
  window.requestAnimationFrame(() => {
    const el = document.querySelector<HTMLElement>("[aria-invalid='true'], [data-invalid] input");
    el?.focus();
  });

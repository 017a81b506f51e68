import { ResetPasswordForm } from "@crown/core/accounts/schemas";
import { check } from "@crown/core/shared/validation";
import { Either, type Schema } from "effect";
import { useCallback, useState } from "react";
import { ApiError } from "../api/client.ts";

/**
 * Form state with the spec's validation: `validate` runs a core schema through `check` and keeps
 * the first message per field; `serverErrors` shows a 422's field errors the same way.
 */
export function useForm<V extends object>(initial: V) {
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

  const validate = useCallback(
    <A, I>(schema: Schema.Schema<A, I, never>, input: unknown = values): A | null => {
      const result = check(schema, input);
      if (Either.isRight(result)) {
        setErrors({});
        return result.right;
      }
      const next: Record<string, string> = {};
      for (const [field, list] of Object.entries(result.left.errors)) if (list[0] && !next[field]) next[field] = list[0];
      // A struct's cross-field rule only runs once every field is valid; show the mismatch as soon as it is known.
      const v = input as { password?: unknown; confirm_password?: unknown };
      if (!next.confirm_password && typeof v?.password === "string" && typeof v.confirm_password === "string" && v.confirm_password !== "") {
        const pair = check(ResetPasswordForm, { password: v.password, confirm_password: v.confirm_password });
        const mismatch = Either.isLeft(pair) ? pair.left.errors.confirm_password?.[0] : undefined;
        if (mismatch) next.confirm_password = mismatch;
      }
      setErrors(next);
      return null;
    },
    [values],
  );

  /** Shows a failed call: field errors next to their fields, the message above the form. */
  const serverErrors = useCallback((error: unknown, fallback = "Some error occurred", rename: Record<string, string> = {}) => {
    if (error instanceof ApiError) {
      const fields = error.fieldErrors;
      const mapped: Record<string, string> = {};
      for (const [k, v] of Object.entries(fields)) mapped[rename[k] ?? k] = v;
      setErrors(mapped);
      setFormError(error.message || fallback);
    } else {
      setFormError(fallback);
    }
  }, []);

  return { values, setValues, set, errors, setErrors, validate, formError, setFormError, serverErrors };
}

/** Focus the first invalid field after a failed submit, for keyboard and screen-reader users. */
export const focusFirstError = () =>
  window.requestAnimationFrame(() => {
    const el = document.querySelector<HTMLElement>("[aria-invalid='true'], [data-invalid] input");
    el?.focus();
  });

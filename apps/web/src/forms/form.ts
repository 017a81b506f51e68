import { ResetPasswordForm } from "@crown/core/accounts/schemas";
import { check } from "@crown/core/shared/validation";
import { Either, type Schema } from "effect";
import { useCallback } from "react";
import { firstMessages, focusFirstError, useFormState } from "./form-state.ts";

export { focusFirstError };

/**
 * Form state with the spec's validation: `validate` runs a core schema through `check` and keeps
 * the first message per field; `serverErrors` shows a 422's field errors the same way.
 */
export function useForm<V extends object>(initial: V) {
  const state = useFormState(initial);
  const { values, setErrors } = state;

  const validate = useCallback(
    <A, I>(schema: Schema.Schema<A, I, never>, input: unknown = values): A | null => {
      const result = check(schema, input);
      if (Either.isRight(result)) {
        setErrors({});
        return result.right;
      }
      const next = firstMessages(result.left.errors);
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
    [values, setErrors],
  );

  return { ...state, validate };
}


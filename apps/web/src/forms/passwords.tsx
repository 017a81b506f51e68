import { type BoundForm, FormField } from "./fields.tsx";

/** Apart from fields.tsx, which the sign-in page loads: only the pages that set a password need these. */

/** The password rule as the forms explain it before the server's message has to. */
export const PASSWORD_HINT = "At least 8 characters with an upper case letter, a lower case letter, a number and one of !@#$%^&*-_";

/** A new password and its confirmation (sign-up, reset, change): one rule, one hint, one autocomplete. */
export function NewPasswordFields<V extends { password: string; confirm_password: string }>({ form, label = "Password" }: { form: BoundForm<V>; label?: string }) {
  const bound = form as unknown as BoundForm<{ password: string; confirm_password: string }>;
  return (
    <>
      <FormField form={bound} name="password" label={label} type="password" autoComplete="new-password" description={PASSWORD_HINT} />
      <FormField form={bound} name="confirm_password" label="Confirm password" type="password" autoComplete="new-password" />
    </>
  );
}

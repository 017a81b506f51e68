import { Field, type FieldProps } from "../ui/fields.tsx";

/** What a `useForm` form (ui/form.ts) offers its fields. */
export interface BoundForm<V> {
  readonly values: V;
  readonly errors: Record<string, string>;
  readonly set: <K extends keyof V>(key: K, value: V[K]) => void;
}

type StringKey<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/** A text field bound to one string field of a form: its value, its change and its first error. */
export function FormField<V extends object>({ form, name, ...field }: { form: BoundForm<V>; name: StringKey<V> } & Omit<FieldProps, "name" | "value" | "onChange" | "error">) {
  return <Field {...field} name={name} value={form.values[name] as string} onChange={(v) => form.set(name, v as V[typeof name])} error={form.errors[name]} />;
}

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

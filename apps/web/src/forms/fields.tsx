import { Field, type FieldProps } from "../ui/fields.tsx";

/** What a `useForm` form (forms/form.ts) offers its fields. */
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

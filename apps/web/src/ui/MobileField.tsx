import { PHONE_DIGITS, phoneDigits } from "@crown/core/shared/phone";
import { Field, type FieldProps } from "./fields.tsx";

/** The mobile number (sign-up, the profile): digits only, as many as core's rule allows; each screen names it in its own words. */
export function MobileField(p: Omit<FieldProps, "label" | "type" | "inputMode" | "maxLength"> & { readonly label: string }) {
  return <Field {...p} type="tel" inputMode="numeric" maxLength={PHONE_DIGITS} onChange={(v) => p.onChange(phoneDigits(v))} />;
}

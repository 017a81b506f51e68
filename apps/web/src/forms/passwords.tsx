import { useTranslation } from "react-i18next";
import { type BoundForm, FormField } from "./fields.tsx";

/** Apart from fields.tsx, which the sign-in page loads: only the pages that set a password need these. */

/** A new password and its confirmation (sign-up, reset, change): one rule, one hint (`passwords.hint`: the rule as the forms explain it before the server has to), one autocomplete. */
export function NewPasswordFields<V extends { password: string; confirm_password: string }>({ form, label }: { form: BoundForm<V>; label?: string }) {
  const { t } = useTranslation();
  const bound = form as unknown as BoundForm<{ password: string; confirm_password: string }>;
  return (
    <>
      <FormField form={bound} name="password" label={label ?? t("passwords.password")} type="password" autoComplete="new-password" description={t("passwords.hint")} />
      <FormField form={bound} name="confirm_password" label={t("passwords.confirm")} type="password" autoComplete="new-password" />
    </>
  );
}

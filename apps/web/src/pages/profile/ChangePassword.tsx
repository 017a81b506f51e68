import { ChangePasswordForm } from "@crown/core/accounts/schemas";
import { type FormEvent, useState } from "react";
import { Form } from "react-aria-components";
import { changePassword } from "../../api/accounts.ts";
import { FormMessage, SubmitButton } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../ui/form.ts";
import { toast } from "../../ui/toasts.tsx";
import { FormField } from "../../forms/fields.tsx";
import { NewPasswordFields } from "../../forms/passwords.tsx";

const blank = { old_password: "", password: "", confirm_password: "" };

export function ChangePassword() {
  const form = useForm(blank);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = form.validate(ChangePasswordForm);
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      await changePassword(form.values.old_password, form.values.password);
      form.setValues(blank);
      toast("Password changed successfully", "success");
    } catch (err) {
      form.serverErrors(err, "Some error occurred", { new_password: "password" });
    } finally {
      setPending(false);
    }
  };
  return (
    <section aria-labelledby="section-title">
      <h2 id="section-title">Change Password</h2>
      <p className="muted">Changing your password signs you out on every other device.</p>
      <Form onSubmit={submit} className="form narrow-form" validationBehavior="aria" aria-label="Change password">
        <FormField form={form} name="old_password" label="Old password" type="password" autoComplete="current-password" />
        <NewPasswordFields form={form} label="New password" />
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <div className="form-actions">
          <SubmitButton isPending={pending}>Change Password</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

import { type FormEvent, useEffect, useState } from "react";
import { Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { getProfile } from "../../api/account-pages.ts";
import { addBaby, updateChild } from "../../api/onboarding.ts";
import type { Baby } from "../../api/types.ts";
import { babyDetailsSchema, withoutBlanks } from "../../forms/onboarding.ts";
import { updateSession } from "../../session/store.ts";
import { BabyFields, type BabyValues, babyFormInput, emptyBaby } from "../../forms/BabyFields.tsx";
import { type ChildAnswers, ChildAnswerFields, answersOf, answersPayload, noAnswers } from "../../forms/ChildFields.tsx";
import { EditActions } from "../../ui/EditActions.tsx";
import { FormMessage } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../forms/form.ts";
import { toast } from "../../ui/toasts.tsx";

/** The baby details and the wizard's four questions: one child form for onboarding's fields and the profile. */
type ChildValues = BabyValues & ChildAnswers;
const emptyChild: ChildValues = { ...emptyBaby, ...noAnswers };

const valuesOf = (b: Baby): ChildValues => ({
  relation: b.relation ?? "",
  physician: b.physician ?? null,
  first_name: b.first_name ?? b.name.split(" ")[0] ?? "",
  middle_name: b.middle_name ?? "",
  last_name: b.last_name ?? b.name.split(" ").slice(1).join(" "),
  date_of_birth: b.date_of_birth ?? "",
  referral_code: b.referral_code ?? "",
  ...answersOf(b),
});

const refreshBabies = async () => {
  try {
    const babies = (await getProfile()).results.babies;
    if (babies) updateSession({ babies });
  } catch {
    // keeps the old list; the next sign-in refreshes it
  }
};

/** Add a child (form clears on success) or edit a selected one (read-only until Edit). */
export function ChildForm({ baby, onDone }: { baby: Baby | null; onDone: () => void }) {
  const { t } = useTranslation("profile");
  const editingExisting = baby !== null;
  const form = useForm<ChildValues>(baby ? valuesOf(baby) : emptyChild);
  const [editing, setEditing] = useState(!editingExisting);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    form.setValues(baby ? valuesOf(baby) : emptyChild);
    form.setErrors({});
    form.setFormError(null);
    setEditing(!baby);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [baby?.identifier]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    form.setFormError(null);
    const answers = answersPayload(form.values);
    const valid = form.validate(babyDetailsSchema(), withoutBlanks({ ...babyFormInput(form.values), ...answers }));
    if (!valid) return focusFirstError();
    setPending(true);
    const payload = {
      physician_identifier: valid.physician_identifier,
      first_name: valid.first_name,
      last_name: valid.last_name,
      date_of_birth: valid.date_of_birth,
      relation: valid.relation,
      middle_name: valid.middle_name ?? "",
      referral_code: valid.referral_code ?? "",
      ...answers,
    };
    try {
      if (baby) {
        const r = await updateChild({ ...payload, identifier: baby.identifier });
        toast(r.message || t("child.updated"), "success");
        setEditing(false);
      } else {
        await addBaby(payload);
        toast(t("child.added"), "success");
        form.setValues(emptyChild);
      }
      await refreshBabies();
      onDone();
    } catch (err) {
      form.serverErrors(err);
    } finally {
      setPending(false);
    }
  };

  const cancel = () => {
    if (baby) {
      form.setValues(valuesOf(baby));
      setEditing(false);
    } else form.setValues(emptyChild);
    form.setErrors({});
    form.setFormError(null);
  };

  return (
    <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={baby ? t("child.edit", { name: baby.name }) : t("child.add")}>
      <BabyFields values={form.values} set={form.set} errors={form.errors} isReadOnly={!editing} />
      <ChildAnswerFields values={form.values} set={form.set} errors={form.errors} isReadOnly={!editing} />
      {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
      <EditActions editing={editing} pending={pending} submitLabel={baby ? t("child.update") : t("child.submitAdd")} onEdit={() => setEditing(true)} onCancel={cancel} />
    </Form>
  );
}

import { ProfileUpdateRequest } from "@crown/core/accounts/schemas";
import { type FormEvent, useEffect, useState } from "react";
import { Button, FileTrigger, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { getProfile, removeProfilePhoto, updateProfile, uploadProfilePhoto } from "../../api/account-pages.ts";
import { messageOf } from "../../api/crown.ts";
import type { Profile } from "../../api/types.ts";
import { sessionActor, updateSession, useLists, useSession } from "../../session/store.ts";
import { EditActions } from "../../ui/EditActions.tsx";
import { Field, FormMessage } from "../../ui/fields.tsx";
import { MobileField } from "../../ui/MobileField.tsx";
import { focusFirstError, useForm } from "../../forms/form.ts";
import { useRoleName } from "../../shell/Header.tsx";
import { loadProfilePicture } from "../../shell/ProfileMenu.tsx";
import { toast } from "../../ui/toasts.tsx";

export const PHOTO_TYPES = ["image/png", "image/jpeg"];

interface Values {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  fax_number: string;
}
const valuesOf = (p: Profile): Values => ({ first_name: p.first_name, last_name: p.last_name, email: p.email, phone: p.phone ?? "", fax_number: p.fax_number ?? "" });

function Photo({ name, role }: { name: string; role: string }) {
  const { t } = useTranslation("profile");
  const { profilePicture } = useLists();
  const [error, setError] = useState<string | null>(null);
  const pick = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setError(null);
    if (!PHOTO_TYPES.includes(file.type)) {
      setError(t("me.photoType"));
      return;
    }
    try {
      const r = await uploadProfilePhoto(file);
      await loadProfilePicture();
      toast(r.message || t("me.photoUpdated"), "success");
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const remove = async () => {
    setError(null);
    try {
      const r = await removeProfilePhoto();
      sessionActor.send({ type: "LISTS", patch: { profilePicture: null } });
      toast(r.message || t("me.photoRemoved"), "success");
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const initials = name
    .split(" ")
    .map((s) => s.charAt(0))
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <div className="profile-photo">
      {profilePicture ? (
        <img src={profilePicture} alt={t("me.photo")} width={96} height={96} className="avatar-lg" />
      ) : (
        <span className="avatar-lg avatar-initials" aria-hidden="true">
          {initials}
        </span>
      )}
      <div>
        <p className="profile-name-lg">{name}</p>
        <p className="muted">{role}</p>
        <div className="photo-actions">
          <FileTrigger acceptedFileTypes={PHOTO_TYPES} onSelect={(f) => void pick(f)}>
            <Button className="btn btn-secondary btn-sm">{profilePicture ? t("me.changePhoto") : t("me.uploadPhoto")}</Button>
          </FileTrigger>
          {profilePicture ? (
            <Button className="btn btn-ghost btn-sm" onPress={() => void remove()}>
              {t("me.removePhoto")}
            </Button>
          ) : null}
        </div>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      </div>
    </div>
  );
}

export function MyProfile() {
  const { t } = useTranslation("profile");
  const roleName = useRoleName();
  const session = useSession();
  const [stored, setStored] = useState<Profile | null>(null);
  const [editing, setEditing] = useState(false);
  const [pending, setPending] = useState(false);
  const form = useForm<Values>({ first_name: "", last_name: "", email: "", phone: "", fax_number: "" });
  const physician = session?.userRole === "physician";

  useEffect(() => {
    getProfile()
      .then((r) => {
        setStored(r.results);
        form.setValues(valuesOf(r.results));
      })
      .catch((e) => form.setFormError(messageOf(e)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const cancel = () => {
    if (stored) form.setValues(valuesOf(stored));
    form.setErrors({});
    form.setFormError(null);
    setEditing(false);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    form.setFormError(null);
    const input = { first_name: form.values.first_name, last_name: form.values.last_name, phone: form.values.phone, ...(physician ? { fax_number: form.values.fax_number } : {}) };
    const valid = form.validate(ProfileUpdateRequest, input);
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      const r = await updateProfile({ first_name: valid.first_name, last_name: valid.last_name, phone: valid.phone, ...(physician ? { fax_number: valid.fax_number ?? "" } : {}) });
      const next: Profile = r.results && typeof r.results === "object" && "email" in r.results ? r.results : { ...(stored as Profile), ...valid, fax_number: valid.fax_number ?? null };
      setStored(next);
      form.setValues(valuesOf(next));
      updateSession({ firstName: next.first_name, lastName: next.last_name });
      setEditing(false);
      toast(t("me.updated"), "success");
    } catch (err) {
      form.serverErrors(err);
    } finally {
      setPending(false);
    }
  };

  if (!session) return null;
  const ro = !editing;
  return (
    <section aria-labelledby="section-title">
      <h2 id="section-title">{t("myProfile")}</h2>
      <Photo name={`${session.firstName} ${session.lastName}`} role={roleName(session.userRole)} />
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={t("me.form")}>
        <div className="grid-2">
          <Field name="first_name" label={t("me.firstName")} value={form.values.first_name} onChange={(v) => form.set("first_name", v)} error={form.errors.first_name} isReadOnly={ro} autoComplete="given-name" />
          <Field name="last_name" label={t("me.lastName")} value={form.values.last_name} onChange={(v) => form.set("last_name", v)} error={form.errors.last_name} isReadOnly={ro} autoComplete="family-name" />
        </div>
        <div className="grid-2">
          <Field name="email" label={t("me.email")} type="email" value={form.values.email} onChange={() => undefined} isReadOnly description={t("me.emailFixed")} />
          <MobileField name="phone" label={t("me.mobile")} value={form.values.phone} onChange={(v) => form.set("phone", v)} error={form.errors.phone} isReadOnly={ro} />
        </div>
        {physician ? (
          <Field name="fax_number" label={t("me.fax")} type="tel" value={form.values.fax_number} onChange={(v) => form.set("fax_number", v)} error={form.errors.fax_number} isReadOnly={ro} />
        ) : null}
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <EditActions editing={editing} pending={pending} submitLabel={t("me.update")} onEdit={() => setEditing(true)} onCancel={cancel} canEdit={stored !== null} />
      </Form>
    </section>
  );
}

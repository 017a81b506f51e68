import { type FormEvent, useEffect } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { usePublicConfig } from "../../api/publicConfig.ts";
import { links } from "../../config.ts";
import { loadDraft, saveDraft, takeBabyErrors } from "../../forms/babyDraft.ts";
import { babyDetailsSchema, withoutBlanks } from "../../forms/onboarding.ts";
import { signOutNow } from "../../session/signOut.ts";
import { useSession } from "../../session/store.ts";
import { BabyFields, type BabyValues, babyFormInput, emptyBaby } from "../../forms/BabyFields.tsx";
import { FormMessage, SubmitButton } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../forms/form.ts";

const fromDraft = (): BabyValues => {
  const d = loadDraft();
  if (!d) return emptyBaby;
  return {
    relation: d.relation ?? "",
    physician: d.physician_identifier ? { identifier: d.physician_identifier, name: d.physician_name ?? "" } : null,
    first_name: d.first_name ?? "",
    middle_name: d.middle_name ?? "",
    last_name: d.last_name ?? "",
    date_of_birth: d.date_of_birth ?? "",
    referral_code: d.referral_code ?? "",
  };
};

export default function BabyDetails() {
  const { t } = useTranslation("onboarding");
  const navigate = useNavigate();
  const session = useSession();
  const form = useForm<BabyValues>(fromDraft());
  const config = usePublicConfig();
  const video = config?.help_video_url;

  useEffect(() => {
    const errors = takeBabyErrors();
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      focusFirstError();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const valid = form.validate(babyDetailsSchema(), withoutBlanks(babyFormInput(form.values)));
    if (!valid) return focusFirstError();
    saveDraft({
      ...loadDraft(),
      relation: valid.relation,
      physician_identifier: valid.physician_identifier,
      physician_name: form.values.physician?.name ?? "",
      first_name: valid.first_name,
      middle_name: valid.middle_name ?? "",
      last_name: valid.last_name,
      date_of_birth: valid.date_of_birth,
      referral_code: valid.referral_code ?? "",
    });
    navigate("/child-details");
  };

  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">{t("baby.title")}</h1>
      <p className="card-subtitle">{session ? t("baby.welcome", { name: session.firstName }) : t("baby.subtitle")}</p>
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={t("baby.form")}>
        <BabyFields values={form.values} set={form.set} errors={form.errors} />
        <p className="help-links">
          <a href={video ?? links.referralHelp} target="_blank" rel="noopener noreferrer">
            {video ? t("baby.referralVideo") : t("baby.referral")}
            <span className="sr-only"> {t("baby.newTab")}</span>
          </a>
          {/* Where /buy-kits leads: the shop the server is configured with (BUY_KITS_URL), else Crown's own Buy Kits page. */}
          <a href={config?.buy_kits_url ?? "/buy-kits"} target="_blank" rel="noopener noreferrer" className="offer-link">
            {t("baby.noKit")}
            <span className="sr-only"> {t("baby.newTab")}</span>
          </a>
        </p>
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <div className="form-actions">
          <Button className="btn btn-secondary" onPress={() => void signOutNow()}>
            {t("baby.signOut")}
          </Button>
          <SubmitButton>{t("baby.continue")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

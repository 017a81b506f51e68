import { type FormEvent, useState } from "react";
import { Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router-dom";
import { signBaa } from "../../api/onboarding.ts";
import { longDay } from "../../i18n/dates.ts";
import { BaaForm } from "../../forms/onboarding.ts";
import { homeFor } from "../../session/home.ts";
import { updateSession, useSession } from "../../session/store.ts";
import { Field, FormMessage, SubmitButton } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../forms/form.ts";

/** The business associate agreement a provider signs on first sign-in (footer only, no header). */
export default function Baa() {
  const { t, i18n } = useTranslation("onboarding");
  const session = useSession();
  const navigate = useNavigate();
  const form = useForm({ covered_entity: "", name: session ? `${session.firstName} ${session.lastName}` : "" });
  const [pending, setPending] = useState(false);
  if (!session) return null;
  if (session.userRole !== "physician" || session.baaSigned) return <Navigate to="/dashboard" replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = form.validate(BaaForm);
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      const { results } = await signBaa({ identifier: session.userIdentifier, email: session.email, name: valid.name, covered_entity: valid.covered_entity });
      updateSession({ baaSigned: true, step: results.step });
      // Where the step leads: two-step sign-in comes next (issue 44), then the dashboard.
      navigate(homeFor({ ...session, baaSigned: true, step: results.step }), { replace: true });
    } catch (err) {
      form.serverErrors(err);
    } finally {
      setPending(false);
    }
  };

  // English keeps its "March 4, 2026"; another language writes the day its own way.
  const today = new Date();
  const date = i18n.language === "en" ? today.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" }) : longDay(today);
  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">{t("baa.title")}</h1>
      <p className="card-subtitle">{t("baa.subtitle")}</p>
      <div className="legal-scroll" tabIndex={0} role="region" aria-label={t("baa.region")}>
        <p>{t("baa.intro", { date })}</p>
        <h2>{t("baa.usesTitle")}</h2>
        <p>{t("baa.uses")}</p>
        <h2>{t("baa.safeguardsTitle")}</h2>
        <p>{t("baa.safeguards")}</p>
        <h2>{t("baa.reportingTitle")}</h2>
        <p>{t("baa.reporting")}</p>
        <h2>{t("baa.subcontractorsTitle")}</h2>
        <p>{t("baa.subcontractors")}</p>
        <h2>{t("baa.rightsTitle")}</h2>
        <p>{t("baa.rights")}</p>
        <h2>{t("baa.termTitle")}</h2>
        <p>{t("baa.term")}</p>
      </div>
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={t("baa.form")}>
        <div className="grid-2">
          <Field name="covered_entity" label={t("baa.practice")} autoComplete="organization" value={form.values.covered_entity} onChange={(v) => form.set("covered_entity", v)} error={form.errors.covered_entity} />
          <Field name="name" label={t("baa.provider")} autoComplete="name" value={form.values.name} onChange={(v) => form.set("name", v)} error={form.errors.name} />
        </div>
        <p className="small muted">{t("baa.confirm", { email: session.email })}</p>
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <div className="form-actions">
          <SubmitButton isPending={pending}>{t("baa.submit")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

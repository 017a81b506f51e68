import { type FormEvent, useState } from "react";
import { Form } from "react-aria-components";
import { Navigate, useNavigate } from "react-router-dom";
import { signBaa } from "../../api/onboarding.ts";
import { BaaForm } from "../../forms/onboarding.ts";
import { updateSession, useSession } from "../../session/store.ts";
import { Field, FormMessage, SubmitButton } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../ui/form.ts";

/** The business associate agreement a provider signs on first sign-in (footer only, no header). */
export default function Baa() {
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
      navigate("/dashboard", { replace: true });
    } catch (err) {
      form.serverErrors(err);
    } finally {
      setPending(false);
    }
  };

  const date = new Date().toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">Business Associate Agreement</h1>
      <p className="card-subtitle">Before you see patient data, please read and sign this agreement on behalf of your practice.</p>
      <div className="legal-scroll" tabIndex={0} role="region" aria-label="Agreement text">
        <p>
          This Business Associate Agreement ("Agreement") is entered into on {date} between the practice named below ("Covered Entity") and
          Crown ("Business Associate"), under the Health Insurance Portability and Accountability Act of 1996 and its implementing
          regulations (HIPAA).
        </p>
        <h2>1. Permitted uses and disclosures</h2>
        <p>
          Business Associate may use and disclose protected health information (PHI) only to provide head-shape screening services to
          Covered Entity: storing scans, measuring head-shape indices, having experts review scans, producing and delivering reports, and as
          required by law. Business Associate will not sell PHI or use it for marketing.
        </p>
        <h2>2. Safeguards</h2>
        <p>
          Business Associate will use administrative, physical and technical safeguards that reasonably protect the confidentiality,
          integrity and availability of electronic PHI, including role-based access, passwords and link secrets stored only as hashes, sessions
          that expire, and an audit log of sign-ins, changes to records and report downloads. PHI travels over encrypted connections (TLS) in
          Crown's hosted deployment; encryption of stored PHI at rest is provided by the storage and database services of that deployment.
        </p>
        <h2>3. Reporting</h2>
        <p>
          Business Associate will report to Covered Entity any use or disclosure not permitted by this Agreement and any breach of unsecured
          PHI without unreasonable delay and no later than 30 days after discovery.
        </p>
        <h2>4. Subcontractors</h2>
        <p>Business Associate will ensure that any subcontractor that handles PHI agrees in writing to the same restrictions and conditions.</p>
        <h2>5. Individual rights</h2>
        <p>Business Associate will make PHI available to Covered Entity so that it can meet requests for access, amendment and an accounting of disclosures.</p>
        <h2>6. Term and termination</h2>
        <p>
          This Agreement lasts while Covered Entity uses Crown. On termination, Business Associate will return or destroy all PHI, or, where
          that is not feasible, extend these protections to it for as long as it is kept.
        </p>
      </div>
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label="Sign the agreement">
        <div className="grid-2">
          <Field name="covered_entity" label="Practice Name" autoComplete="organization" value={form.values.covered_entity} onChange={(v) => form.set("covered_entity", v)} error={form.errors.covered_entity} />
          <Field name="name" label="Provider Name" autoComplete="name" value={form.values.name} onChange={(v) => form.set("name", v)} error={form.errors.name} />
        </div>
        <p className="small muted">By signing, you confirm you are authorised to sign for the practice. Signed electronically by {session.email}.</p>
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <div className="form-actions">
          <SubmitButton isPending={pending}>Sign Agreement</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

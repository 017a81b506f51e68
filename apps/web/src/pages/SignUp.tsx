import { SignUpForm } from "@crown/core/accounts/schemas";
import { type FormEvent, useState } from "react";
import { Button, Form, Label, Radio, RadioGroup } from "react-aria-components";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { signUp } from "../api/accounts.ts";
import { messageOf } from "../api/client.ts";
import { CheckField, Field, SubmitButton } from "../ui/fields.tsx";
import { focusFirstError, useForm } from "../ui/form.ts";
import { Card } from "../ui/Card.tsx";
import { toast } from "../ui/toasts.tsx";
import { NewPasswordFields } from "../forms/passwords.tsx";
import { MobileField } from "../ui/MobileField.tsx";

type Role = "physician" | "parent" | "other";
const ROLES: ReadonlyArray<{ id: Role; label: string; text: string }> = [
  { id: "physician", label: "Provider", text: "Pediatricians and practices screening their patients." },
  { id: "parent", label: "Parent", text: "Track your baby's head shape with a photo every month." },
  { id: "other", label: "Other", text: "Researchers, therapists and partners (needs approval)." },
];

export default function SignUp() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const urlType = params.get("type");
  const inviteToken = params.get("token") ?? undefined;
  const preset = ROLES.find((r) => r.id === urlType)?.id ?? null;
  const [role, setRole] = useState<Role | null>(preset);
  const [chosen, setChosen] = useState<Role | null>(preset);
  const [pending, setPending] = useState(false);
  const form = useForm({ first_name: "", last_name: "", email: "", password: "", confirm_password: "", phone: "", npi: "", terms: false as boolean });

  if (!chosen) {
    return (
      <Card title="Create your account" subtitle="First, tell us who you are.">
        <RadioGroup className="role-choice" value={role} onChange={(v) => setRole(v as Role)} aria-label="I am a">
          <Label className="sr-only">I am a</Label>
          {ROLES.map((r) => (
            <Radio key={r.id} value={r.id} className="role-card">
              <strong>{r.label}</strong>
              <span>{r.text}</span>
            </Radio>
          ))}
        </RadioGroup>
        <Button className="btn btn-primary btn-block" isDisabled={!role} onPress={() => setChosen(role)}>
          Continue
        </Button>
        <p className="center">
          Already have an account? <Link to="/">Sign In</Link>
        </p>
      </Card>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = form.validate(SignUpForm, { ...form.values, type: chosen, register_type: "normal", terms: form.values.terms || undefined });
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      const { message, results } = await signUp({
        first_name: valid.first_name,
        last_name: valid.last_name,
        email: valid.email,
        password: form.values.password,
        phone: valid.phone,
        type: chosen,
        // A provider's NPI number: the server requires it, and the practice is verified by Crown before it reaches patients.
        ...(chosen === "physician" ? { npi: form.values.npi } : {}),
        ...(inviteToken ? { token: inviteToken } : {}),
      });
      navigate("/signup-confirmation", { state: { token: results, email: results?.email ?? valid.email, message } });
    } catch (err) {
      // The spec shows a sign-up failure as an error notification, with each field's message by its field.
      form.serverErrors(err);
      form.setFormError(null);
      toast(messageOf(err), "error");
    } finally {
      setPending(false);
    }
  };

  const label = ROLES.find((r) => r.id === chosen)?.label ?? "";
  return (
    <Card title={`Sign up as ${label}`} subtitle="All fields are required.">
      {!preset ? (
        <Button className="link-btn" onPress={() => setChosen(null)}>
          ← Choose a different role
        </Button>
      ) : null}
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label="Sign up">
        <div className="grid-2">
          <Field name="first_name" label="First name" autoComplete="given-name" value={form.values.first_name} onChange={(v) => form.set("first_name", v)} error={form.errors.first_name} />
          <Field name="last_name" label="Last name" autoComplete="family-name" value={form.values.last_name} onChange={(v) => form.set("last_name", v)} error={form.errors.last_name} />
        </div>
        <Field name="email" label="Email" type="email" autoComplete="email" value={form.values.email} onChange={(v) => form.set("email", v)} error={form.errors.email} />
        <NewPasswordFields form={form} />
        <MobileField
          name="phone"
          autoComplete="tel-national"
          value={form.values.phone}
          onChange={(v) => form.set("phone", v)}
          error={form.errors.phone}
          description="10 digits, without the country code"
        />
        {chosen === "physician" ? (
          <Field
            name="npi"
            label="NPI number"
            inputMode="numeric"
            maxLength={12}
            value={form.values.npi}
            onChange={(v) => form.set("npi", v)}
            error={form.errors.npi}
            description="Your 10-digit National Provider Identifier. Crown verifies your practice before you can see patients."
          />
        ) : null}
        <CheckField name="terms" isSelected={form.values.terms} onChange={(v) => form.set("terms", v)} error={form.errors.terms}>
          I accept the{" "}
          <Link to="/terms-of-service" target="_blank">
            terms and conditions
          </Link>{" "}
          and the{" "}
          <Link to="/privacy-policy" target="_blank">
            privacy policy
          </Link>
        </CheckField>
        <SubmitButton isPending={pending} className="btn-block">
          Sign Up
        </SubmitButton>
      </Form>
      <p className="center">
        Already have an account? <Link to="/">Sign In</Link>
      </p>
    </Card>
  );
}

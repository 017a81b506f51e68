import { CalendarDays, GENDERS, PATIENT_MAX_AGE_MONTHS, PatientRequest, RELATIONS } from "@crown/core";
import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { day } from "../i18n/dates.ts";
import { PAGE_SIZE, padRows, Pager, SearchBox } from "../ui/lists.tsx";
import { useSession } from "../session/store.ts";
import { cap, Choice } from "../ui/choices.tsx";
import { ModalDialog } from "../ui/dialogs.tsx";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { focusFirstError, useForm } from "../forms/form.ts";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { actingFor, addPatient, listPatients, type Patient, updatePatient } from "./api.ts";

const localToday = () => CalendarDays.dayOf(new Date(Date.now() - new Date().getTimezoneOffset() * 60_000));
const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
const earliestBirth = () => {
  const d = new Date();
  d.setMonth(d.getMonth() - PATIENT_MAX_AGE_MONTHS);
  return iso(d);
};

interface Values {
  first_name: string;
  middle_name: string;
  last_name: string;
  gender: string;
  date_of_birth: string;
  email: string;
  phone: string;
  relation: string;
  previous_condition: string;
  referral_code: string;
}

const empty: Values = { first_name: "", middle_name: "", last_name: "", gender: "", date_of_birth: "", email: "", phone: "", relation: "", previous_condition: "", referral_code: "" };

const valuesOf = (p: Patient): Values => ({
  first_name: p.first_name ?? "",
  middle_name: p.middle_name ?? "",
  last_name: p.last_name ?? "",
  gender: p.gender ?? "",
  date_of_birth: p.date_of_birth ?? "",
  email: p.email ?? "",
  phone: p.phone ?? "",
  relation: p.relation ?? "",
  previous_condition: p.previous_condition ?? "",
  referral_code: p.referral_code ?? "",
});

const FIELD_RENAME: Record<string, string> = { mobile_number: "phone" };

function PatientForm({ editing, onDone }: { editing: Patient | null; onDone: (saved: boolean) => void }) {
  const { t } = useTranslation("practice");
  const session = useSession();
  const form = useForm<Values>(editing ? valuesOf(editing) : empty);
  const [pending, setPending] = useState(false);
  const { values: v, set, errors } = form;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x.trim()])) as unknown as Values;
    const body: Record<string, unknown> = {
      ...trimmed,
      name: [trimmed.first_name, trimmed.middle_name, trimmed.last_name].filter(Boolean).join(" "),
      ...actingFor(session),
      ...(editing ? { identifier: editing.identifier } : {}),
    };
    for (const k of Object.keys(body)) if (body[k] === "") delete body[k];
    if (editing) delete body.email;
    if (!form.validate(PatientRequest(localToday()), body)) return focusFirstError();
    setPending(true);
    try {
      // `body` has just passed core's PatientRequest (form.validate above): it is the route's body.
      if (editing) await updatePatient(body as Parameters<typeof updatePatient>[0]);
      else await addPatient(body as Parameters<typeof addPatient>[0]);
      toast(editing ? t("patientForm.updated") : t("patientForm.added"), "success");
      form.setValues(empty);
      onDone(true);
    } catch (err) {
      // Server field errors per field, joined by commas (spec section 5).
      form.serverErrors(err, t("patientForm.failed"), FIELD_RENAME);
      const anyErr = err as { errors?: Record<string, ReadonlyArray<string>> };
      if (anyErr.errors) form.setErrors(Object.fromEntries(Object.entries(anyErr.errors).map(([k, list]) => [FIELD_RENAME[k] ?? k, list.join(", ")])));
      toast(messageOf(err), "error");
      focusFirstError();
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="panel" aria-labelledby="page-title">
      <h1 id="page-title">{editing ? t("patientForm.editTitle") : t("patientForm.addTitle")}</h1>
      <Form className="form" onSubmit={submit} validationBehavior="aria">
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <div className="grid-3">
          <Field name="first_name" label={t("patientForm.firstName")} value={v.first_name} onChange={(x) => set("first_name", x)} error={errors.first_name ?? errors.name} isRequired />
          <Field name="middle_name" label={t("patientForm.middleName")} value={v.middle_name} onChange={(x) => set("middle_name", x)} error={errors.middle_name} />
          <Field name="last_name" label={t("patientForm.lastName")} value={v.last_name} onChange={(x) => set("last_name", x)} error={errors.last_name} isRequired />
        </div>
        <div className="grid-2">
          <Field
            name="date_of_birth"
            label={t("patientForm.dateOfBirth")}
            type="date"
            value={v.date_of_birth}
            onChange={(x) => set("date_of_birth", x)}
            error={errors.date_of_birth}
            isRequired
            max={iso(new Date())}
            description={t("patientForm.dateOfBirthHint", { months: PATIENT_MAX_AGE_MONTHS, earliest: day(earliestBirth()) })}
          />
          <Choice name="gender" label={t("patientForm.gender")} options={GENDERS.map((g) => ({ value: g, label: t(`gender.${g}`, { defaultValue: cap(g) }) }))} value={v.gender} onChange={(x) => set("gender", x)} error={errors.gender} />
        </div>
        <div className="grid-2">
          <Field
            name="email"
            label={t("patientForm.email")}
            type="email"
            value={v.email}
            onChange={(x) => set("email", x)}
            error={errors.email}
            isReadOnly={editing !== null}
            {...(editing ? { description: t("patientForm.emailFixed") } : {})}
          />
          <Field name="phone" label={t("patientForm.phone")} type="tel" inputMode="tel" value={v.phone} onChange={(x) => set("phone", x)} error={errors.phone} />
        </div>
        <Choice name="relation" label={t("patientForm.relation")} options={RELATIONS.map((r) => ({ value: r, label: t(`relation.${r}`, { defaultValue: cap(r) }) }))} value={v.relation} onChange={(x) => set("relation", x)} error={errors.relation} />
        <Field name="previous_condition" label={t("patientForm.previousCondition")} value={v.previous_condition} onChange={(x) => set("previous_condition", x)} error={errors.previous_condition} />
        <Field name="referral_code" label={t("patientForm.referralCode")} value={v.referral_code} onChange={(x) => set("referral_code", x)} error={errors.referral_code} />
        <div className="form-actions">
          <Button className="btn btn-ghost" onPress={() => onDone(false)}>
            {t("patientForm.cancel")}
          </Button>
          <SubmitButton isPending={pending}>{editing ? t("patientForm.update") : t("patientForm.add")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/** /my-patients: list, add and edit; removal only through customer support. */
export default function MyPatients() {
  const { t } = useTranslation("practice");
  const session = useSession();
  const acting = actingFor(session);
  const [mode, setMode] = useState<"list" | "add" | "edit">("list");
  const [editing, setEditing] = useState<Patient | null>(null);
  const [rows, setRows] = useState<ReadonlyArray<Patient> | null>(null);
  const [page, setPage] = useState(1);
  const [lastPage, setLastPage] = useState(1);
  const [search, setSearch] = useState("");
  const [reload, setReload] = useState(0);
  const [removeOpen, setRemoveOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (mode !== "list") return;
    if (session?.userRole === "physician_staff" && !session.activePhysicianId) return;
    let live = true;
    setRows(null);
    setError(null);
    listPatients(page, { per_page: PAGE_SIZE, search, ...acting })
      .then((r) => {
        if (!live) return;
        setRows(r.results.data);
        setLastPage(Math.max(1, r.results.last_page));
      })
      .catch((e) => {
        if (!live) return;
        setRows([]);
        setError(messageOf(e));
      });
    return () => {
      live = false;
    };
  }, [mode, page, search, reload, acting.physician_identifier]);

  if (mode !== "list") {
    return (
      <PatientForm
        key={editing?.identifier ?? "new"}
        editing={mode === "edit" ? editing : null}
        onDone={(saved) => {
          setMode("list");
          setEditing(null);
          if (saved) setReload((n) => n + 1);
        }}
      />
    );
  }

  return (
    <section className="panel" aria-labelledby="page-title">
      <div className="list-head">
        <h1 id="page-title">{t("patients.title")}</h1>
        <div className="list-tools">
          <SearchBox
            label={t("patients.search")}
            placeholder={t("patients.searchPlaceholder")}
            onSearch={(q) => {
              setSearch(q);
              setPage(1);
            }}
          />
          <Button className="btn btn-primary" onPress={() => setMode("add")}>
            {t("patients.add")}
          </Button>
        </div>
      </div>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{t("patients.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <caption className="sr-only">{t("patients.caption", { page })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("patients.columns.name")}</th>
                <th scope="col">{t("patients.columns.dateOfBirth")}</th>
                <th scope="col">{t("patients.columns.email")}</th>
                <th scope="col">{t("patients.columns.previousCondition")}</th>
                <th scope="col">{t("patients.columns.action")}</th>
              </tr>
            </thead>
            <tbody>
              {padRows(rows).map((p, i) =>
                p ? (
                  <tr key={p.identifier}>
                    <td>
                      {p.name}
                      {p.gender ? <span className="muted small"> ({t(`gender.${p.gender}`, { defaultValue: cap(p.gender) })})</span> : null}
                    </td>
                    <td data-label={t("patients.columns.dateOfBirth")}>{day(p.date_of_birth)}</td>
                    <td data-label={t("patients.columns.email")}>{p.email ?? ""}</td>
                    <td data-label={t("patients.columns.previousCondition")}>{p.previous_condition ?? ""}</td>
                    <td className="cell-actions" data-label={t("patients.columns.action")}>
                      <Button
                        className="link-inline"
                        aria-label={t("patients.editLabel", { name: p.name })}
                        onPress={() => {
                          setEditing(p);
                          setMode("edit");
                        }}
                      >
                        {t("patients.edit")}
                      </Button>
                      <span aria-hidden="true"> | </span>
                      <Button className="link-inline" aria-label={t("patients.removeLabel", { name: p.name })} onPress={() => setRemoveOpen(true)}>
                        {t("patients.remove")}
                      </Button>
                    </td>
                  </tr>
                ) : (
                  <tr key={`pad-${i}`} className="pad-row" aria-hidden="true">
                    <td colSpan={5}>{"\u00a0"}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t("patients.pages")} />
      <ModalDialog isOpen={removeOpen} onOpenChange={setRemoveOpen} title={t("patients.removeTitle")} dismissable>
        <p>{t("patients.removeText")}</p>
        <div className="dialog-actions">
          <Button className="btn btn-primary" onPress={() => setRemoveOpen(false)} autoFocus>
            {t("patients.ok")}
          </Button>
        </div>
      </ModalDialog>
    </section>
  );
}

import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { STAFF_TYPES } from "@crown/core/accounts/staff-types";
import { messageOf } from "../api/crown.ts";
import { PAGE_SIZE, padRows, Pager } from "../ui/lists.tsx";
import { useSession } from "../session/store.ts";
import { Choice } from "../ui/choices.tsx";
import { ModalDialog } from "../ui/dialogs.tsx";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { actingFor, addStaff, listStaff, removeStaff, type StaffMember } from "./api.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

function AddStaff({ staffUser, onDone }: { staffUser: boolean; onDone: (added: boolean) => void }) {
  const { t } = useTranslation("practice");
  const session = useSession();
  const [email, setEmail] = useState("");
  const [type, setType] = useState<(typeof STAFF_TYPES)[number]>("nurse");
  const [error, setError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    if (!value) return setError(t("addStaff.emailRequired"));
    if (!EMAIL.test(value) || value.length > 254) return setError(t("addStaff.emailInvalid"));
    setError(undefined);
    setPending(true);
    try {
      await addStaff(staffUser, staffUser ? { email: value, ...actingFor(session) } : { email: value, type });
      toast(t("addStaff.added"), "success");
      onDone(true);
    } catch (err) {
      const m = messageOf(err);
      const fields = (err as { errors?: Record<string, ReadonlyArray<string>> }).errors;
      if (fields?.email) setError(fields.email.join(", "));
      setFormError(m);
      toast(m, "error");
    } finally {
      setPending(false);
    }
  };
  return (
    <section className="panel narrow-panel" aria-labelledby="page-title">
      <h1 id="page-title">{t("addStaff.title")}</h1>
      <p className="card-subtitle">{t("addStaff.subtitle")}</p>
      <Form className="form narrow-form" onSubmit={submit} validationBehavior="aria">
        {formError ? <FormMessage tone="error">{formError}</FormMessage> : null}
        <Field name="email" label={t("addStaff.email")} type="email" value={email} onChange={setEmail} error={error} isRequired autoComplete="off" />
        {!staffUser ? (
          <Choice
            name="type"
            label={t("addStaff.staffType")}
            options={[
              { value: "nurse", label: t("staffType.nurse") },
              { value: "office_admin", label: t("staffType.office_admin") },
            ]}
            value={type}
            onChange={(value) => setType(STAFF_TYPES.find((t) => t === value) ?? "nurse")}
          />
        ) : null}
        <div className="form-actions">
          <Button className="btn btn-ghost" onPress={() => onDone(false)}>
            {t("addStaff.cancel")}
          </Button>
          <SubmitButton isPending={pending}>{t("addStaff.submit")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/** /my-staff: the practice's staff; Staff Type is shown to physicians only. */
export default function MyStaff() {
  const { t } = useTranslation("practice");
  const session = useSession();
  const staffUser = session?.userRole === "physician_staff";
  const acting = actingFor(session);
  const [mode, setMode] = useState<"list" | "add">("list");
  const [rows, setRows] = useState<ReadonlyArray<StaffMember> | null>(null);
  const [page, setPage] = useState(1);
  const [lastPage, setLastPage] = useState(1);
  const [reload, setReload] = useState(0);
  const [removing, setRemoving] = useState<StaffMember | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (mode !== "list") return;
    if (staffUser && !session?.activePhysicianId) return;
    let live = true;
    setRows(null);
    listStaff(page, { per_page: PAGE_SIZE, ...acting }, staffUser)
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
  }, [mode, page, reload, acting.physician_identifier]);

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await removeStaff(staffUser, removing.identifier, acting.physician_identifier);
      toast(t("staff.removed"), "success");
      setReload((n) => n + 1);
    } catch (e) {
      toast(messageOf(e), "error");
    } finally {
      setRemoving(null);
    }
  };

  if (mode === "add")
    return (
      <AddStaff
        staffUser={staffUser}
        onDone={(added) => {
          setMode("list");
          if (added) setReload((n) => n + 1);
        }}
      />
    );

  const cols = staffUser ? 5 : 6;
  // A type the portal has no name for is shown as the server wrote it.
  const staffTypeName = (m: StaffMember) => {
    const type = m.staff_type ?? m.role ?? "";
    return type ? t(`staffType.${type}`, { defaultValue: m.staff_type ?? "" }) : (m.staff_type ?? "");
  };
  return (
    <section className="panel" aria-labelledby="page-title">
      <div className="list-head">
        <h1 id="page-title">{t("staff.title")}</h1>
        <Button className="btn btn-primary" onPress={() => setMode("add")}>
          {t("staff.add")}
        </Button>
      </div>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{t("staff.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <caption className="sr-only">{t("staff.caption", { page })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("staff.columns.name")}</th>
                <th scope="col">{t("staff.columns.email")}</th>
                <th scope="col">{t("staff.columns.phone")}</th>
                {!staffUser ? <th scope="col">{t("staff.columns.staffType")}</th> : null}
                <th scope="col">{t("staff.columns.status")}</th>
                <th scope="col">{t("staff.columns.action")}</th>
              </tr>
            </thead>
            <tbody>
              {padRows(rows).map((m, i) =>
                m ? (
                  <tr key={m.identifier}>
                    <td>{(m.name ?? `${m.first_name} ${m.last_name}`).trim() || <span className="muted">{t("staff.notGiven")}</span>}</td>
                    <td data-label={t("staff.columns.email")}>{m.email}</td>
                    <td data-label={t("staff.columns.phone")}>{m.phone ?? ""}</td>
                    {!staffUser ? <td data-label={t("staff.columns.staffType")}>{staffTypeName(m)}</td> : null}
                    <td data-label={t("staff.columns.status")}>{m.state === "pending" ? <span className="pill pill-pending">{t("staff.invitationPending")}</span> : <span className="pill">{t("staff.active")}</span>}</td>
                    <td className="cell-actions" data-label={t("staff.columns.action")}>
                      {!staffUser || (m.staff_type ?? m.role) === "nurse" ? (
                        <Button className="link-inline" aria-label={t("staff.removeLabel", { email: m.email })} onPress={() => setRemoving(m)}>
                          {t("staff.remove")}
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ) : (
                  <tr key={`pad-${i}`} className="pad-row" aria-hidden="true">
                    <td colSpan={cols}>{"\u00a0"}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t("staff.pages")} />
      <ModalDialog isOpen={removing !== null} onOpenChange={(o) => !o && setRemoving(null)} title={t("staff.removeTitle")} dismissable role="alertdialog">
        <p>{t("staff.removeText", { email: removing?.email ?? "" })}</p>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={() => setRemoving(null)}>
            {t("staff.cancel")}
          </Button>
          <Button className="btn btn-primary" onPress={() => void confirmRemove()}>
            {t("staff.remove")}
          </Button>
        </div>
      </ModalDialog>
    </section>
  );
}

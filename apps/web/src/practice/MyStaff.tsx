import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { messageOf } from "../api/client.ts";
import { PAGE_SIZE, padRows, Pager } from "../reporting/listing.tsx";
import { useSession } from "../session/store.ts";
import { Choice } from "../ui/choices.tsx";
import { ModalDialog } from "../ui/dialogs.tsx";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { actingFor, addStaff, listStaff, removeStaff, STAFF_TYPE_NAMES, type StaffMember } from "./api.ts";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

function AddStaff({ staffUser, onDone }: { staffUser: boolean; onDone: (added: boolean) => void }) {
  const session = useSession();
  const [email, setEmail] = useState("");
  const [type, setType] = useState("nurse");
  const [error, setError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = email.trim();
    if (!value) return setError("Email is required");
    if (!EMAIL.test(value) || value.length > 254) return setError("Email is invalid");
    setError(undefined);
    setPending(true);
    try {
      await addStaff(staffUser, staffUser ? { email: value, ...actingFor(session) } : { email: value, type });
      toast("Staff member added successfully", "success");
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
      <h1 id="page-title">Add Staff</h1>
      <p className="card-subtitle">We e-mail an invitation to a new address; someone who already has an account is asked to accept first.</p>
      <Form className="form narrow-form" onSubmit={submit} validationBehavior="aria">
        {formError ? <FormMessage tone="error">{formError}</FormMessage> : null}
        <Field name="email" label="Email" type="email" value={email} onChange={setEmail} error={error} isRequired autoComplete="off" />
        {!staffUser ? (
          <Choice
            name="type"
            label="Staff type"
            options={[
              { value: "nurse", label: "Nurse" },
              { value: "office_admin", label: "Office Admin" },
            ]}
            value={type}
            onChange={setType}
          />
        ) : null}
        <div className="form-actions">
          <Button className="btn btn-ghost" onPress={() => onDone(false)}>
            Cancel
          </Button>
          <SubmitButton isPending={pending}>Add Staff</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/** /my-staff: the practice's staff; Staff Type is shown to physicians only. */
export default function MyStaff() {
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
      toast("Staff member removed successfully", "success");
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
  return (
    <section className="panel" aria-labelledby="page-title">
      <div className="list-head">
        <h1 id="page-title">My Staff Members</h1>
        <Button className="btn btn-primary" onPress={() => setMode("add")}>
          Add
        </Button>
      </div>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">No staff members yet</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">Staff members, page {page}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Phone</th>
                {!staffUser ? <th scope="col">Staff Type</th> : null}
                <th scope="col">Status</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {padRows(rows).map((m, i) =>
                m ? (
                  <tr key={m.identifier}>
                    <td>{(m.name ?? `${m.first_name} ${m.last_name}`).trim() || <span className="muted">Not given yet</span>}</td>
                    <td>{m.email}</td>
                    <td>{m.phone ?? ""}</td>
                    {!staffUser ? <td>{STAFF_TYPE_NAMES[m.staff_type ?? m.role ?? ""] ?? m.staff_type ?? ""}</td> : null}
                    <td>{m.state === "pending" ? <span className="pill pill-pending">Invitation pending</span> : <span className="pill">Active</span>}</td>
                    <td>
                      {!staffUser || (m.staff_type ?? m.role) === "nurse" ? (
                        <Button className="link-inline" aria-label={`Remove ${m.email}`} onPress={() => setRemoving(m)}>
                          Remove
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                ) : (
                  <tr key={`pad-${i}`} className="pad-row" aria-hidden="true">
                    <td colSpan={cols}>&nbsp;</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label="Staff pages" />
      <ModalDialog isOpen={removing !== null} onOpenChange={(o) => !o && setRemoving(null)} title="Remove staff member" dismissable role="alertdialog">
        <p>Remove {removing?.email} from this practice? Their access ends at once.</p>
        <div className="dialog-actions">
          <Button className="btn btn-ghost" onPress={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button className="btn btn-primary" onPress={() => void confirmRemove()}>
            Remove
          </Button>
        </div>
      </ModalDialog>
    </section>
  );
}

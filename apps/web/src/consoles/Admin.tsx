import { Button } from "react-aria-components";
import { formatUsDate } from "../reporting/api.ts";
import { Pager } from "../reporting/listing.tsx";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { approveUser, pendingUsers, type PendingUser, rejectUser, removalRequests, type RemovalRequestRow } from "./api.ts";
import { AdminDirectory } from "./AdminDirectory.tsx";
import { AuditLog } from "./AuditLog.tsx";
import { PracticeVerification } from "./PracticeVerification.tsx";
import { ListBody } from "./ListBody.tsx";
import { actThenReload, usePagedRows } from "./usePagedRows.ts";

function PendingApprovals() {
  const { page, setPage, rows, lastPage, failure, reload } = usePagedRows<PendingUser>(pendingUsers);
  const act = actThenReload(reload);
  return (
    <section className="panel" aria-labelledby="pending-title">
      <h2 id="pending-title">Pending approvals</h2>
      <ListBody rows={rows} failure={failure} empty="No accounts are waiting for approval.">
        {(rows) => (
          <div className="table-wrap">
            <table className="table table-stack">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Type</th>
                  <th scope="col">Signed up</th>
                  <th scope="col">Babies</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((u) => (
                  <tr key={u.identifier}>
                    <td>
                      {u.first_name} {u.last_name}
                    </td>
                    <td data-label="Email">{u.email}</td>
                    <td data-label="Type">{u.type}</td>
                    <td data-label="Signed up">{formatUsDate(u.created_at)}</td>
                    <td data-label="Babies">{(u.babies ?? []).map((b) => `${b.name}${b.physician ? ` (${b.physician.name})` : ""}${b.referral_code ? ` code ${b.referral_code}` : ""}`).join("; ")}</td>
                    <td className="cell-actions" data-label="Action">
                      <Button className="btn btn-sm btn-primary" aria-label={`Approve ${u.email}`} onPress={() => void act(() => approveUser(u.identifier), "Account approved")}>
                        Approve
                      </Button>{" "}
                      <Button className="btn btn-sm btn-secondary" aria-label={`Reject ${u.email}`} onPress={() => void act(() => rejectUser(u.identifier, "Rejected by an administrator"), "Account rejected")}>
                        Reject
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListBody>
      <Pager page={page} lastPage={lastPage} onPage={setPage} label="Pending approval pages" />
    </section>
  );
}

/** Requests sent from /remove-account: who asked, when and why; admins handle them (e.g. block the account) and write to the user. */
function RemovalRequests() {
  const { page, setPage, rows, lastPage, failure } = usePagedRows<RemovalRequestRow>(removalRequests);
  return (
    <section className="panel" aria-labelledby="removal-title">
      <h2 id="removal-title">Account removal requests</h2>
      <p className="muted">Sent by users from Profile, Remove Account, after confirming their password. Each user has received a confirmation e-mail; contact them at that address.</p>
      <ListBody rows={rows} failure={failure} empty="No account removal requests.">
        {(rows) => (
          <div className="table-wrap">
            <table className="table table-stack">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col">Requested</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.identifier}>
                    <td>{r.user ? `${r.user.first_name} ${r.user.last_name}` : "Unknown account"}</td>
                    <td data-label="Email">{r.user ? <a href={`mailto:${r.user.email}`}>{r.user.email}</a> : null}</td>
                    <td data-label="Type">{r.user?.type}</td>
                    <td data-label="Status">{r.user?.status}</td>
                    <td data-label="Requested">{formatUsDate(r.requested_at)}</td>
                    <td data-label="Reason">{r.reason ?? <span className="muted">No reason given</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListBody>
      <Pager page={page} lastPage={lastPage} onPage={setPage} label="Account removal request pages" />
    </section>
  );
}

/** /admin: pending approvals, practices awaiting verification, users (block, unblock), removal requests and the audit log. */
export default function AdminConsole() {
  const session = useSession();
  if (session?.userRole !== "admin") return <FormMessage tone="error">The admin console is for Crown's administrators.</FormMessage>;
  return (
    <div className="admin-page">
      <h1>Admin console</h1>
      <PendingApprovals />
      <PracticeVerification />
      <AdminDirectory />
      <RemovalRequests />
      <AuditLog />
    </div>
  );
}

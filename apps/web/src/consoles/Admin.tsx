import { useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { day } from "../i18n/dates.ts";
import { Pager } from "../ui/lists.tsx";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { approveUser, holdRemoval, pendingUsers, type PendingUser, rejectUser, releaseRemoval, removalRequests, type RemovalRequestRow } from "./api.ts";
import { AdminDirectory } from "./AdminDirectory.tsx";
import { AuditLog } from "./AuditLog.tsx";
import { ModelAgreement } from "./ModelAgreement.tsx";
import { PracticeVerification } from "./PracticeVerification.tsx";
import { ListBody } from "./ListBody.tsx";
import { actThenReload, usePagedRows } from "./usePagedRows.ts";

function PendingApprovals() {
  const { t } = useTranslation("admin");
  const { page, setPage, rows, lastPage, failure, reload } = usePagedRows<PendingUser>(pendingUsers);
  const act = actThenReload(reload);
  return (
    <section className="panel" aria-labelledby="pending-title">
      <h2 id="pending-title">{t("pending.title")}</h2>
      <ListBody rows={rows} failure={failure} empty={t("pending.empty")}>
        {(rows) => (
          <div className="table-wrap">
            <table className="table table-stack">
              <thead>
                <tr>
                  <th scope="col">{t("columns.name")}</th>
                  <th scope="col">{t("columns.email")}</th>
                  <th scope="col">{t("columns.type")}</th>
                  <th scope="col">{t("columns.signedUp")}</th>
                  <th scope="col">{t("columns.babies")}</th>
                  <th scope="col">{t("columns.action")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((u) => (
                  <tr key={u.identifier}>
                    <td>
                      {u.first_name} {u.last_name}
                    </td>
                    <td data-label={t("columns.email")}>{u.email}</td>
                    <td data-label={t("columns.type")}>{t(`accountType.${u.type}`, { defaultValue: u.type })}</td>
                    <td data-label={t("columns.signedUp")}>{day(u.created_at)}</td>
                    <td data-label={t("columns.babies")}>{(u.babies ?? []).map((b) => `${b.name}${b.physician ? ` (${b.physician.name})` : ""}${b.referral_code ? ` ${t("pending.referralCode", { code: b.referral_code })}` : ""}`).join("; ")}</td>
                    <td className="cell-actions" data-label={t("columns.action")}>
                      <Button className="btn btn-sm btn-primary" aria-label={t("pending.approveLabel", { email: u.email })} onPress={() => void act(() => approveUser(u.identifier), t("pending.approved"))}>
                        {t("pending.approve")}
                      </Button>{" "}
                      {/* The reason is the account's record (the server's words), not this screen's. */}
                      <Button className="btn btn-sm btn-secondary" aria-label={t("pending.rejectLabel", { email: u.email })} onPress={() => void act(() => rejectUser(u.identifier, "Rejected by an administrator"), t("pending.rejected"))}>
                        {t("pending.reject")}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListBody>
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t("pending.pages")} />
    </section>
  );
}

/** A request's erasure: when it happens, or the legal hold placed on it (issue 44); a hold needs its reason. */
function ErasureCell({ row, act }: { readonly row: RemovalRequestRow; readonly act: ReturnType<typeof actThenReload> }) {
  const { t } = useTranslation("admin");
  const [reason, setReason] = useState("");
  const name = row.user ? `${row.user.first_name} ${row.user.last_name}` : row.identifier;
  if (row.erasure === "by_administrator") return <>{t("removal.byAdministrator")}</>;
  if (row.erasure === "held")
    return (
      <>
        <div>{t("removal.held", { date: day(row.held_at) })}</div>
        {row.hold_reason ? <div className="muted">{row.hold_reason}</div> : null}
        <Button className="btn btn-sm btn-secondary" aria-label={t("removal.releaseNamed", { name })} onPress={() => void act(() => releaseRemoval(row.identifier), t("removal.release"))}>
          {t("removal.release")}
        </Button>
      </>
    );
  return (
    <>
      <div>{t("removal.scheduled", { date: day(row.erase_after) })}</div>
      <TextField className="field" value={reason} onChange={setReason} maxLength={1000}>
        <Label className="sr-only">{t("removal.holdReason")}</Label>
        <Input placeholder={t("removal.holdReason")} />
      </TextField>
      <Button className="btn btn-sm btn-secondary" isDisabled={reason.trim() === ""} aria-label={t("removal.holdNamed", { name })} onPress={() => void act(() => holdRemoval(row.identifier, reason.trim()), t("removal.hold"))}>
        {t("removal.hold")}
      </Button>
    </>
  );
}

/** Requests sent from /remove-account: who asked, when and why, and the erasure's date or legal hold. */
function RemovalRequests() {
  const { t } = useTranslation("admin");
  const { page, setPage, rows, lastPage, failure, reload } = usePagedRows<RemovalRequestRow>(removalRequests);
  const act = actThenReload(reload);
  return (
    <section className="panel" aria-labelledby="removal-title">
      <h2 id="removal-title">{t("removal.title")}</h2>
      <p className="muted">{t("removal.intro")}</p>
      <ListBody rows={rows} failure={failure} empty={t("removal.empty")}>
        {(rows) => (
          <div className="table-wrap">
            <table className="table table-stack">
              <thead>
                <tr>
                  <th scope="col">{t("columns.name")}</th>
                  <th scope="col">{t("columns.email")}</th>
                  <th scope="col">{t("columns.type")}</th>
                  <th scope="col">{t("columns.status")}</th>
                  <th scope="col">{t("columns.requested")}</th>
                  <th scope="col">{t("columns.reason")}</th>
                  <th scope="col">{t("columns.erasure")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.identifier}>
                    <td>{r.user ? `${r.user.first_name} ${r.user.last_name}` : t("removal.unknownAccount")}</td>
                    <td data-label={t("columns.email")}>{r.user ? <a href={`mailto:${r.user.email}`}>{r.user.email}</a> : null}</td>
                    <td data-label={t("columns.type")}>{r.user ? t(`accountType.${r.user.type}`, { defaultValue: r.user.type }) : null}</td>
                    <td data-label={t("columns.status")}>{r.user ? t(`accountStatus.${r.user.status}`, { defaultValue: r.user.status }) : null}</td>
                    <td data-label={t("columns.requested")}>{day(r.requested_at)}</td>
                    <td data-label={t("columns.reason")}>{r.reason ?? <span className="muted">{t("removal.noReason")}</span>}</td>
                    <td className="cell-actions" data-label={t("columns.erasure")}>
                      <ErasureCell row={r} act={act} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListBody>
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t("removal.pages")} />
    </section>
  );
}

/** /admin: pending approvals, practices awaiting verification, users (block, unblock), removal requests, the audit log and the model against the reviewers. */
export default function AdminConsole() {
  const { t } = useTranslation("admin");
  const session = useSession();
  if (session?.userRole !== "admin") return <FormMessage tone="error">{t("notAdmin")}</FormMessage>;
  return (
    <div className="admin-page">
      <h1>{t("title")}</h1>
      <PendingApprovals />
      <PracticeVerification />
      <AdminDirectory />
      <RemovalRequests />
      <AuditLog />
      <ModelAgreement />
    </div>
  );
}

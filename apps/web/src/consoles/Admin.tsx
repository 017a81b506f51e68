import { useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { day } from "../i18n/dates.ts";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { ListTable } from "../ui/ListTable.tsx";
import { approveUser, holdRemoval, pendingUsers, type PendingUser, rejectUser, releaseRemoval, removalRequests, type RemovalRequestRow } from "./api.ts";
import { AdminDirectory } from "./AdminDirectory.tsx";
import { ConsoleSection } from "./ConsoleSection.tsx";
import { AuditLog } from "./AuditLog.tsx";
import { ModelAgreement } from "./ModelAgreement.tsx";
import { PracticeVerification } from "./PracticeVerification.tsx";
import { actThenReload, usePagedRows } from "../api/usePagedRows.ts";

function PendingApprovals() {
  const { t } = useTranslation("admin");
  const { page, setPage, rows, lastPage, error, reload } = usePagedRows<PendingUser>(pendingUsers);
  const act = actThenReload(reload);
  return (
    <ConsoleSection name="pending" title={t("pending.title")} openOnPhone>
      <ListTable
        rows={rows}
        error={error}
        empty={t("pending.empty")}
        rowKey={(u) => u.identifier}
        columns={[
          { header: t("columns.name"), cell: (u) => `${u.first_name} ${u.last_name}` },
          { header: t("columns.email"), cell: (u) => u.email },
          { header: t("columns.type"), cell: (u) => t(`accountType.${u.type}`, { defaultValue: u.type }) },
          { header: t("columns.signedUp"), cell: (u) => day(u.created_at) },
          {
            header: t("columns.babies"),
            cell: (u) => (u.babies ?? []).map((b) => `${b.name}${b.physician ? ` (${b.physician.name})` : ""}${b.referral_code ? ` ${t("pending.referralCode", { code: b.referral_code })}` : ""}`).join("; "),
          },
          {
            header: t("columns.action"),
            className: "cell-actions",
            cell: (u) => (
              <>
                <Button className="btn btn-sm btn-primary" aria-label={t("pending.approveLabel", { email: u.email })} onPress={() => void act(() => approveUser(u.identifier), t("pending.approved"))}>
                  {t("pending.approve")}
                </Button>{" "}
                {/* The reason is the account's record (the server's words), not this screen's. */}
                <Button className="btn btn-sm btn-secondary" aria-label={t("pending.rejectLabel", { email: u.email })} onPress={() => void act(() => rejectUser(u.identifier, "Rejected by an administrator"), t("pending.rejected"))}>
                  {t("pending.reject")}
                </Button>
              </>
            ),
          },
        ]}
        pager={{ page, lastPage, onPage: setPage, label: t("pending.pages") }}
      />
    </ConsoleSection>
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
  const { page, setPage, rows, lastPage, error, reload } = usePagedRows<RemovalRequestRow>(removalRequests);
  const act = actThenReload(reload);
  return (
    <ConsoleSection name="removal" title={t("removal.title")}>
      <p className="muted">{t("removal.intro")}</p>
      <ListTable
        rows={rows}
        error={error}
        empty={t("removal.empty")}
        rowKey={(r) => r.identifier}
        columns={[
          { header: t("columns.name"), cell: (r) => (r.user ? `${r.user.first_name} ${r.user.last_name}` : t("removal.unknownAccount")) },
          { header: t("columns.email"), cell: (r) => (r.user ? <a href={`mailto:${r.user.email}`}>{r.user.email}</a> : null) },
          { header: t("columns.type"), cell: (r) => (r.user ? t(`accountType.${r.user.type}`, { defaultValue: r.user.type }) : null) },
          { header: t("columns.status"), cell: (r) => (r.user ? t(`common:accountStatus.${r.user.status}`, { defaultValue: r.user.status }) : null) },
          { header: t("columns.requested"), cell: (r) => day(r.requested_at) },
          { header: t("columns.reason"), cell: (r) => r.reason ?? <span className="muted">{t("removal.noReason")}</span> },
          { header: t("columns.erasure"), className: "cell-actions", cell: (r) => <ErasureCell row={r} act={act} /> },
        ]}
        pager={{ page, lastPage, onPage: setPage, label: t("removal.pages") }}
      />
    </ConsoleSection>
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

import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { ApiError, crown, messageOf } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import type { Page } from "../api/types.ts";
import { day, time } from "../i18n/dates.ts";
import { SearchBox } from "../ui/lists.tsx";
import { ListTable } from "../ui/ListTable.tsx";
import { RevokeDeviceDialog, useRevocationReasonName } from "../ui/RevokeDeviceDialog.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { toast } from "../ui/toasts.tsx";
import { actThenReload, usePagedRows } from "../api/usePagedRows.ts";
import { ConsoleSection } from "./ConsoleSection.tsx";
import { ACTIVE_STATUS, isBlocked, type UserStatus } from "@crown/core/accounts/statuses";
import type { RevocationReason } from "@crown/core/kiosk/revocation";

type AdminUser = ResultsOf<Api["admin"]["users"]["$get"]>["data"][number];
type KioskDevice = ResultsOf<Api["kiosk"]["devices"]["list"]["$post"]>[number];

/** A directory of all users, or of physicians only: its words are the catalogue's group of that name. */
function UserTable({ type, words }: { type: "" | "physician"; words: "users" | "physicians" }) {
  const { t } = useTranslation("admin");
  const title = t(`directory.${words}.title`);
  const [search, setSearch] = useState("");
  const { page, setPage, rows, lastPage, failure, error: failed, reload } = usePagedRows<AdminUser>(
    (p) => crown.call((api) => api.admin.users.$get({ query: { page: p, search: search || undefined, type: type || undefined } })),
    [search],
  );
  const missing = failure instanceof ApiError && failure.httpStatus === 404;
  const run = actThenReload(reload);
  const act = (u: AdminUser, action: "block" | "unblock") =>
    run(() => crown.call((api) => api.admin.users[action].$post({ json: { identifier: u.identifier } })), action === "block" ? t("directory.blocked", { email: u.email }) : t("directory.unblocked", { email: u.email }));
  // A lost phone and lost codes: the user sets two-step sign-in up again at the next sign-in (issue 44).
  const resetSecondFactor = (u: AdminUser) =>
    run(() => crown.call((api) => api.admin.users["second-factor"].reset.$post({ json: { identifier: u.identifier } })), t("directory.secondFactorReset", { email: u.email }));
  const id = type || "all";
  return (
    <ConsoleSection
      name={id}
      title={title}
      head={
        <SearchBox
          label={t(`directory.${words}.search`)}
          placeholder={t("directory.searchPlaceholder")}
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
      }
    >
      {missing ? <FormMessage tone="info">{t("directory.missing")}</FormMessage> : null}
      <ListTable
        rows={rows}
        error={missing ? null : failed}
        empty={t("directory.empty")}
        rowKey={(u) => u.identifier}
        columns={[
          { header: t("columns.name"), cell: (u) => `${u.first_name} ${u.last_name}` },
          { header: t("columns.email"), cell: (u) => u.email },
          { header: t("columns.type"), cell: (u) => t(`typeName.${u.type}`, { defaultValue: u.type }) },
          { header: t("columns.status"), cell: (u) => t(`common:accountStatus.${u.status}`, { defaultValue: u.status }) },
          { header: t("columns.since"), cell: (u) => day(u.created_at) },
          {
            header: t("columns.action"),
            className: "cell-actions",
            cell: (u) => (
              <>
                {isBlocked(u) ? (
                  <Button className="btn btn-sm btn-secondary" aria-label={t("directory.unblockLabel", { email: u.email })} onPress={() => void act(u, "unblock")}>
                    {t("directory.unblock")}
                  </Button>
                ) : u.type !== "admin" ? (
                  <Button className="btn btn-sm btn-secondary" aria-label={t("directory.blockLabel", { email: u.email })} onPress={() => void act(u, "block")}>
                    {t("directory.block")}
                  </Button>
                ) : null}
                {u.second_factor ? (
                  <Button className="btn btn-sm btn-secondary" aria-label={t("directory.resetSecondFactorLabel", { email: u.email })} onPress={() => void resetSecondFactor(u)}>
                    {t("directory.resetSecondFactor")}
                  </Button>
                ) : null}
              </>
            ),
          },
        ]}
        pager={{ page, lastPage, onPage: setPage, label: t(`directory.${words}.pages`) }}
      />
    </ConsoleSection>
  );
}

/** A physician in the practice selector: the name, and the e-mail only to tell two of one name apart (a long line is cut on a phone). */
const physicianChoice = (p: AdminUser, all: ReadonlyArray<AdminUser>): string => {
  const name = `${p.first_name} ${p.last_name}`;
  return all.some((o) => o !== p && o.first_name === p.first_name && o.last_name === p.last_name) ? `${name} (${p.email})` : name;
};

/** Kiosk devices per practice: list, create (one-time pairing code) and revoke for a reason, through the kiosk API. */
function KioskDevices() {
  const { t } = useTranslation("admin");
  const reasonName = useRevocationReasonName();
  const [revoking, setRevoking] = useState<KioskDevice | null>(null);
  const [physicians, setPhysicians] = useState<ReadonlyArray<AdminUser>>([]);
  const [physician, setPhysician] = useState("");
  const [rows, setRows] = useState<ReadonlyArray<KioskDevice> | null>(null);
  const [name, setName] = useState("");
  const [code, setCode] = useState<{ code: string; expires: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  useEffect(() => {
    crown.call((api) => api.admin.users.$get({ query: { type: "physician", status: ACTIVE_STATUS, per_page: 100 } }), { quiet: true })
      .then((r) => {
        setPhysicians(r.results.data);
        if (r.results.data[0]) setPhysician(r.results.data[0].identifier);
        else setRows([]);
      })
      .catch((e) => setError(messageOf(e)));
  }, []);
  useEffect(() => {
    if (!physician) return;
    setRows(null);
    crown.call((api) => api.kiosk.devices.list.$post({ json: { physician_identifier: physician } }), { quiet: true })
      .then((r) => setRows(r.results))
      .catch((e) => {
        setRows([]);
        setError(messageOf(e));
      });
  }, [physician, reload]);
  const create = async () => {
    if (!name.trim()) return setError(t("kiosks.nameRequired"));
    setError(null);
    try {
      const r = await crown.call((api) => api.kiosk.devices.$post({ json: { name: name.trim(), physician_identifier: physician } }));
      setCode({ code: r.results.pairing_code, expires: r.results.pairing_expires_at });
      setName("");
      setReload((n) => n + 1);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const revoke = async (d: KioskDevice, reason: RevocationReason) => {
    setRevoking(null);
    try {
      await crown.call((api) => api.kiosk.devices.revoke.$post({ json: { device_identifier: d.identifier, reason } }));
      toast(t("kiosks.revoked"), "success");
      setReload((n) => n + 1);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  return (
    <ConsoleSection name="kiosk" title={t("kiosks.title")}>
      <p className="muted small">
        {/* Not <link>: Trans reads it as HTML's empty element, and the address would fall out of the link. */}
        <Trans t={t} i18nKey="kiosks.intro" components={{ kiosk: <a href="/kiosk/" /> }} />
      </p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <div className="list-tools">
        <div className="field patient-picker">
          <label htmlFor="kiosk-practice">{t("kiosks.practice")}</label>
          <select id="kiosk-practice" value={physician} onChange={(e) => setPhysician(e.currentTarget.value)}>
            {physicians.length === 0 ? <option value="">{t("kiosks.noPhysicians")}</option> : null}
            {physicians.map((p) => (
              <option key={p.identifier} value={p.identifier}>
                {physicianChoice(p, physicians)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="kiosk-name">{t("kiosks.name")}</label>
          <input id="kiosk-name" value={name} maxLength={60} onChange={(e) => setName(e.currentTarget.value)} />
        </div>
        <Button className="btn btn-primary" isDisabled={!physician} onPress={() => void create()}>
          {t("kiosks.create")}
        </Button>
      </div>
      {code ? (
        <FormMessage tone="success">
          {t("kiosks.pairingCode")} <strong className="pairing-code">{code.code}</strong>
          {t("kiosks.validUntil", { time: time(code.expires) })}
        </FormMessage>
      ) : null}
      <ListTable
        rows={rows}
        empty={t("kiosks.empty")}
        rowKey={(d) => d.identifier}
        columns={[
          { header: t("columns.device"), cell: (d) => d.name ?? d.identifier },
          { header: t("columns.status"), cell: (d) => (d.status ? t(`kiosks.status.${d.status}`, { defaultValue: d.status }) : "") },
          { header: t("columns.paired"), cell: (d) => day(d.paired_at) },
          { header: t("columns.lastSeen"), cell: (d) => day(d.last_seen_at) },
          { header: t("columns.reason"), cell: (d) => reasonName(d.revocation_reason) },
          {
            header: t("columns.action"),
            className: "cell-actions",
            cell: (d) =>
              d.status !== "revoked" ? (
                <Button className="btn btn-sm btn-secondary" aria-label={t("kiosks.revokeLabel", { name: d.name ?? d.identifier })} onPress={() => setRevoking(d)}>
                  {t("kiosks.revoke")}
                </Button>
              ) : null,
          },
        ]}
      />
      <RevokeDeviceDialog device={revoking ? (revoking.name ?? revoking.identifier) : null} onCancel={() => setRevoking(null)} onRevoke={(reason) => revoking && void revoke(revoking, reason)} />
    </ConsoleSection>
  );
}

export function AdminDirectory() {
  return (
    <>
      <UserTable type="" words="users" />
      <UserTable type="physician" words="physicians" />
      <KioskDevices />
    </>
  );
}

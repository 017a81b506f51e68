import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { ApiError, crown, messageOf } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import type { Page } from "../api/types.ts";
import { day, time } from "../i18n/dates.ts";
import { Pager, SearchBox } from "../ui/lists.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { actThenReload, usePagedRows } from "./usePagedRows.ts";
import { ACTIVE_STATUS, isBlocked, type UserStatus } from "@crown/core/accounts/lifecycle";

type AdminUser = ResultsOf<Api["admin"]["users"]["$get"]>["data"][number];
type KioskDevice = ResultsOf<Api["kiosk"]["devices"]["list"]["$post"]>[number];

/** A directory of all users, or of physicians only: its words are the catalogue's group of that name. */
function UserTable({ type, words }: { type: "" | "physician"; words: "users" | "physicians" }) {
  const { t } = useTranslation("admin");
  const title = t(`directory.${words}.title`);
  const [search, setSearch] = useState("");
  const { page, setPage, rows, lastPage, failure, reload } = usePagedRows<AdminUser>(
    (p) => crown.call((api) => api.admin.users.$get({ query: { page: p, search: search || undefined, type: type || undefined } })),
    [search],
  );
  const missing = failure instanceof ApiError && failure.httpStatus === 404;
  const error = failure && !missing ? messageOf(failure) : null;
  const run = actThenReload(reload);
  const act = (u: AdminUser, action: "block" | "unblock") =>
    run(() => crown.call((api) => api.admin.users[action].$post({ json: { identifier: u.identifier } })), action === "block" ? t("directory.blocked", { email: u.email }) : t("directory.unblocked", { email: u.email }));
  // A lost phone and lost codes: the user sets two-step sign-in up again at the next sign-in (issue 44).
  const resetSecondFactor = (u: AdminUser) =>
    run(() => crown.call((api) => api.admin.users["second-factor"].reset.$post({ json: { identifier: u.identifier } })), t("directory.secondFactorReset", { email: u.email }));
  const id = type || "all";
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="list-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <SearchBox
          label={t(`directory.${words}.search`)}
          placeholder={t("directory.searchPlaceholder")}
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
      </div>
      {missing ? <FormMessage tone="info">{t("directory.missing")}</FormMessage> : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{t("directory.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <thead>
              <tr>
                <th scope="col">{t("columns.name")}</th>
                <th scope="col">{t("columns.email")}</th>
                <th scope="col">{t("columns.type")}</th>
                <th scope="col">{t("columns.status")}</th>
                <th scope="col">{t("columns.since")}</th>
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
                  <td data-label={t("columns.type")}>{t(`typeName.${u.type}`, { defaultValue: u.type })}</td>
                  <td data-label={t("columns.status")}>{t(`accountStatus.${u.status}`, { defaultValue: u.status })}</td>
                  <td data-label={t("columns.since")}>{day(u.created_at)}</td>
                  <td className="cell-actions" data-label={t("columns.action")}>
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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t(`directory.${words}.pages`)} />
    </section>
  );
}

/** Kiosk devices per practice: list, create (one-time pairing code) and revoke, through the kiosk API. */
function KioskDevices() {
  const { t } = useTranslation("admin");
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
  const revoke = async (d: KioskDevice) => {
    try {
      await crown.call((api) => api.kiosk.devices.revoke.$post({ json: { device_identifier: d.identifier } }));
      toast(t("kiosks.revoked"), "success");
      setReload((n) => n + 1);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  return (
    <section className="panel" aria-labelledby="kiosk-title">
      <h2 id="kiosk-title">{t("kiosks.title")}</h2>
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
                {p.first_name} {p.last_name} ({p.email})
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
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{t("kiosks.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <thead>
              <tr>
                <th scope="col">{t("columns.device")}</th>
                <th scope="col">{t("columns.status")}</th>
                <th scope="col">{t("columns.paired")}</th>
                <th scope="col">{t("columns.lastSeen")}</th>
                <th scope="col">{t("columns.action")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.identifier}>
                  <td>{d.name ?? d.identifier}</td>
                  <td data-label={t("columns.status")}>{d.status ? t(`kiosks.status.${d.status}`, { defaultValue: d.status }) : ""}</td>
                  <td data-label={t("columns.paired")}>{day(d.paired_at)}</td>
                  <td data-label={t("columns.lastSeen")}>{day(d.last_seen_at)}</td>
                  <td className="cell-actions" data-label={t("columns.action")}>
                    {d.status !== "revoked" ? (
                      <Button className="btn btn-sm btn-secondary" aria-label={t("kiosks.revokeLabel", { name: d.name ?? d.identifier })} onPress={() => void revoke(d)}>
                        {t("kiosks.revoke")}
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
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

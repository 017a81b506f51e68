import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { ApiError, messageOf, request } from "../api/client.ts";
import type { Page } from "../api/types.ts";
import { formatUsDate } from "../reporting/api.ts";
import { Pager, SearchBox } from "../reporting/listing.tsx";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { usePagedRows } from "./usePagedRows.ts";
import { ACTIVE_STATUS, isBlocked, type UserStatus } from "@crown/core/accounts/lifecycle";

interface AdminUser {
  readonly identifier: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly type: string;
  readonly status: UserStatus;
  readonly created_at?: string;
}

interface KioskDevice {
  readonly identifier: string;
  readonly name?: string;
  readonly status?: string;
  readonly paired_at?: string | null;
  readonly last_seen_at?: string | null;
}

const TYPE_NAMES: Record<string, string> = { parent: "Parent", physician: "Provider", physician_staff: "Provider Staff", reviewer: "Reviewer", admin: "Admin", other: "Other" };

function UserTable({ type, title }: { type: "" | "physician"; title: string }) {
  const [search, setSearch] = useState("");
  const { page, setPage, rows, lastPage, failure, reload } = usePagedRows<AdminUser>(
    (p) => request<Page<AdminUser>>("GET", "/admin/users", { query: { page: p, search: search || undefined, type: type || undefined } }),
    [search],
  );
  const missing = failure instanceof ApiError && failure.httpStatus === 404;
  const error = failure && !missing ? messageOf(failure) : null;
  const act = async (u: AdminUser, action: "block" | "unblock") => {
    try {
      await request("POST", `/admin/users/${action}`, { json: { identifier: u.identifier } });
      toast(action === "block" ? `${u.email} is blocked` : `${u.email} is unblocked`, "success");
      reload();
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const id = type || "all";
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="list-head">
        <h2 id={`${id}-title`}>{title}</h2>
        <SearchBox
          label={`Search ${title.toLowerCase()}`}
          placeholder="Search by name or e-mail"
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
      </div>
      {missing ? <FormMessage tone="info">This server does not offer the user directory yet.</FormMessage> : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">No users found</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Since</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => (
                <tr key={u.identifier}>
                  <td>
                    {u.first_name} {u.last_name}
                  </td>
                  <td>{u.email}</td>
                  <td>{TYPE_NAMES[u.type] ?? u.type}</td>
                  <td>{u.status}</td>
                  <td>{formatUsDate(u.created_at)}</td>
                  <td>
                    {isBlocked(u) ? (
                      <Button className="btn btn-sm btn-secondary" aria-label={`Unblock ${u.email}`} onPress={() => void act(u, "unblock")}>
                        Unblock
                      </Button>
                    ) : u.type !== "admin" ? (
                      <Button className="btn btn-sm btn-secondary" aria-label={`Block ${u.email}`} onPress={() => void act(u, "block")}>
                        Block
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={`${title} pages`} />
    </section>
  );
}

/** Kiosk devices per practice: list, create (one-time pairing code) and revoke, through the kiosk API. */
function KioskDevices() {
  const [physicians, setPhysicians] = useState<ReadonlyArray<AdminUser>>([]);
  const [physician, setPhysician] = useState("");
  const [rows, setRows] = useState<ReadonlyArray<KioskDevice> | null>(null);
  const [name, setName] = useState("");
  const [code, setCode] = useState<{ code: string; expires: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  useEffect(() => {
    request<Page<AdminUser>>("GET", "/admin/users", { query: { type: "physician", status: ACTIVE_STATUS, per_page: 100 }, quiet: true })
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
    request<ReadonlyArray<KioskDevice>>("POST", "/kiosk/devices/list", { json: { physician_identifier: physician }, quiet: true })
      .then((r) => setRows(r.results))
      .catch((e) => {
        setRows([]);
        setError(messageOf(e));
      });
  }, [physician, reload]);
  const create = async () => {
    if (!name.trim()) return setError("Device name is required (at most 60 characters)");
    setError(null);
    try {
      const r = await request<{ pairing_code: string; pairing_expires_at: string }>("POST", "/kiosk/devices", { json: { name: name.trim(), physician_identifier: physician } });
      setCode({ code: r.results.pairing_code, expires: r.results.pairing_expires_at });
      setName("");
      setReload((n) => n + 1);
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const revoke = async (d: KioskDevice) => {
    try {
      await request("POST", "/kiosk/devices/revoke", { json: { device_identifier: d.identifier } });
      toast("Device revoked", "success");
      setReload((n) => n + 1);
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  return (
    <section className="panel" aria-labelledby="kiosk-title">
      <h2 id="kiosk-title">Kiosk devices</h2>
      <p className="muted small">
        A device is paired once with its code at <a href="/kiosk/">/kiosk/</a>; revoking it ends its sessions at once.
      </p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <div className="list-tools">
        <div className="field patient-picker">
          <label htmlFor="kiosk-practice">Practice</label>
          <select id="kiosk-practice" value={physician} onChange={(e) => setPhysician(e.currentTarget.value)}>
            {physicians.length === 0 ? <option value="">No physicians yet</option> : null}
            {physicians.map((p) => (
              <option key={p.identifier} value={p.identifier}>
                {p.first_name} {p.last_name} ({p.email})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="kiosk-name">New device name</label>
          <input id="kiosk-name" value={name} maxLength={60} onChange={(e) => setName(e.currentTarget.value)} />
        </div>
        <Button className="btn btn-primary" isDisabled={!physician} onPress={() => void create()}>
          Create device
        </Button>
      </div>
      {code ? (
        <FormMessage tone="success">
          Pairing code <strong className="pairing-code">{code.code}</strong>, valid until {new Date(code.expires).toLocaleTimeString()}.
        </FormMessage>
      ) : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">No kiosk devices for this practice.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Status</th>
                <th scope="col">Paired</th>
                <th scope="col">Last seen</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.identifier}>
                  <td>{d.name ?? d.identifier}</td>
                  <td>{d.status ?? ""}</td>
                  <td>{formatUsDate(d.paired_at)}</td>
                  <td>{formatUsDate(d.last_seen_at)}</td>
                  <td>
                    {d.status !== "revoked" ? (
                      <Button className="btn btn-sm btn-secondary" aria-label={`Revoke ${d.name ?? d.identifier}`} onPress={() => void revoke(d)}>
                        Revoke
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
      <UserTable type="" title="Users" />
      <UserTable type="physician" title="Physicians" />
      <KioskDevices />
    </>
  );
}
